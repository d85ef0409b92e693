#!/bin/sh
# Real-GUI check: Debian's XBoard (under a virtual X server) drives Jiang
# through complete games in match mode, then we check the saved PGN and
# XBoard's protocol log.
#
# usage: scripts/xboard_check.sh [variant] [games] [opponent] [depth]
#   variant   xiangqi (default) | janggi | janggimodern | ...
#   games     number of games (default 4; colours alternate)
#   opponent  jiang (default) | fairy-stockfish
#   depth     search depth per move for both engines (default 3; 0: no
#             depth limit, the clock decides, see TC)
# env: JIANG=path to the binary (default target/release/jiang, built if
#      missing), OUT=directory for the PGN and logs (default a temp dir),
#      CLAIMS=true|false: let XBoard verify game-end claims (default true
#      for Xiangqi, false for Janggi), TC="MINUTES INC": clock per game
#      (whole minutes; default "5 0", 40 moves per session when INC is 0),
#      OPENINGS=file of FENs, one per game in turn (Xiangqi default
#      scripts/openings/xiangqi.fen, so that the games differ; Janggi and
#      OPENINGS=none: every game from the start position).
#
# Passes when every game has finished with 1-0, 0-1 or 1/2-1/2, and neither
# the PGN nor XBoard's debug log shows an illegal move, a protocol error,
# a false claim, a crash or a forfeit. Needs: xboard, xvfb-run.
#
# XBoard 4.9 does not know Janggi: Jiang announces it with `setup` and
# `piece` commands, and XBoard cannot verify Janggi game-end claims
# (bikjang, counting), so for Janggi claim testing is switched off
# (-testClaims false) and the engines' claims decide. For Xiangqi XBoard
# checks every claim against its own rules; its chase rules are simpler
# than the Asian rules Jiang applies, so a claim XBoard calls false is
# reported as a rules disagreement (a warning, with the game), not as a
# protocol error.
set -eu

variant=${1:-xiangqi}
games=${2:-4}
opponent=${3:-jiang}
depth=${4:-3}
root=$(cd "$(dirname "$0")/.." && pwd)
jiang=${JIANG:-$root/target/release/jiang}
# XBoard starts engines in the output directory: the path must be absolute.
case "$jiang" in /*) ;; *) jiang=$(pwd)/$jiang ;; esac
out=${OUT:-$(mktemp -d /tmp/jiang-xboard.XXXXXX)}
mkdir -p "$out"

for tool in xboard xvfb-run; do
    command -v "$tool" >/dev/null 2>&1 || [ -x "/usr/games/$tool" ] || {
        echo "xboard_check: $tool is not installed" >&2
        exit 2
    }
done
[ -x "$jiang" ] || (cd "$root" && cargo build --release --bin jiang)
xboard=$(command -v xboard || echo /usr/games/xboard)

case "$opponent" in
    jiang) second=$jiang ;;
    fairy-stockfish) second=$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish) ;;
    *) echo "xboard_check: unknown opponent $opponent" >&2; exit 2 ;;
esac

claims=${CLAIMS:-true}
case "$variant" in janggi*) claims=${CLAIMS:-false} ;; esac

pgn=$out/games.pgn
log=$out/xboard-debug.txt
rm -f "$pgn" "$log"
start=$(date +%s)
# -mg: match of N games; -sgf: save every game; -debug: protocol log.
# With a depth limit the clock (40 moves in 5 minutes by default) is there
# for XBoard's sake; with depth 0 the engines manage their time. Pondering
# off, so that each engine only thinks on its own move.
set -- ${TC:-5 0}
tc_min=$1
tc_inc=${2:-0}
depth_flag=""
[ "$depth" -gt 0 ] && depth_flag="-searchDepth $depth"
mps_flag="-mps 40"
[ "$tc_inc" != 0 ] && mps_flag="-inc $tc_inc"
# XBoard reads a position file before the engine has defined Janggi (with
# `setup`), so it cannot load Janggi positions: Janggi games start from the
# start position.
case "$variant" in janggi*) book=none ;; *) book=$root/scripts/openings/xiangqi.fen ;; esac
book=${OPENINGS:-$book}
book_flags=""
# -lpi -1: each game of the match starts from the next position in the file.
[ "$book" != none ] && [ -f "$book" ] && book_flags="-lpf $book -lpi -1"
echo "xboard_check: $games $variant games, Jiang vs $opponent, depth $depth, clock $tc_min min + $tc_inc s, openings $book, output in $out"
# shellcheck disable=SC2086 # the flags are word lists on purpose
timeout $((games * (tc_min * 120 + 120) + 60)) xvfb-run -a "$xboard" \
    -fcp "$jiang" -fd "$out" -scp "$second" -sd "$out" \
    -variant "$variant" -mg "$games" -sgf "$pgn" \
    $depth_flag -tc "$tc_min" $mps_flag -xponder $book_flags \
    -testClaims "$claims" \
    -debug -nameOfDebugFile "$log" -xexit \
    >"$out/xboard-stdout.txt" 2>&1 || {
    echo "xboard_check: xboard failed or timed out (rc $?)" >&2
    exit 1
}
end=$(date +%s)

fail=0
finished=$(grep -cE '^\[Result "(1-0|0-1|1/2-1/2)"\]' "$pgn" || true)
unfinished=$(grep -cE '^\[Result "\*"\]' "$pgn" || true)
echo "xboard_check: $finished finished games, $unfinished unfinished, $((end - start)) s"
grep -E '^\[Result' "$pgn" | sort | uniq -c
grep -oE '\{[^{}]*\} (1-0|0-1|1/2-1/2)$' "$pgn" | sort | uniq -c || true
if [ "$finished" -ne "$games" ] || [ "$unfinished" -ne 0 ]; then
    echo "xboard_check: FAIL: expected $games finished games" >&2
    fail=1
fi
# Engine output lines in XBoard's log look like "1234 <first : text";
# Jiang is "first", and "second" too when it plays itself.
who='first'
[ "$opponent" = jiang ] && who='(first|second)'
bad=$(grep -E "<$who *: *(Illegal move|Error \(|tellusererror)" "$log" || true)
bad_pgn=$(grep -iE 'illegal|forfeit|crash|disconnect|exited|time forfeit|unfinished' "$pgn" || true)
if [ -n "$bad" ] || [ -n "$bad_pgn" ]; then
    echo "xboard_check: FAIL: protocol problems:" >&2
    printf '%s\n%s\n' "$bad" "$bad_pgn" | head -20 >&2
    fail=1
fi
disputed=$(grep -cE '\{False (win|draw) claim' "$pgn" || true)
if [ "$disputed" -ne 0 ]; then
    echo "xboard_check: WARNING: XBoard overruled $disputed game-end claim(s) (rules disagreement):"
    grep -oE '\{False (win|draw) claim[^}]*\}' "$pgn"
fi
[ "$fail" -eq 0 ] && echo "xboard_check: PASS ($variant, $games games vs $opponent)"
exit "$fail"
