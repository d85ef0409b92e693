#!/bin/sh
# Soak test of `jiang match -pondering`: both sides ponder, Jiang runs two
# search threads, the clocks are short and two games run at once, so the
# engines compete for the cores on purpose (time losses and ponderhit /
# stop races show up here first). Xiangqi and Janggi, Jiang against
# Fairy-Stockfish (UCI) and against itself (UCI against UCCI in Xiangqi,
# against XBoard in Janggi). Every run
# must end with no fault at all (no loss on time, illegal move, crash,
# hang, stray bestmove) and every ponder search resolved exactly once; the
# script prints the counts of games, faults and ponder races and exits 1
# otherwise.
#
# usage: scripts/soak.sh [games] [tc] [concurrency]
#   games        games per variant and opponent (default 200; even, for
#                colour-reversed pairs)
#   tc           clock of each engine (default 2+0.02)
#   concurrency  games at once (default 2)
# The full soak (4 x 200 games) is for a machine with 8 or more cores; on
# a small one pass a small count, e.g. `scripts/soak.sh 10`.
# env: JIANG=path to the binary (default target/release/jiang, built if
#      missing), FSF=Fairy-Stockfish (default /usr/games/fairy-stockfish),
#      THREADS=search threads of each engine (default 2), MARGIN=ms of
#      grace past the clock (default 100), OVERHEAD=ms of `Move Overhead`
#      for the engines that have it (default: their own; a loaded machine
#      wants more, e.g. 100), OUT=directory for the PGN files
#      and reports (default a temp dir), SEED (default 1), PONDERING=0
#      for the same matches without pondering (a baseline for the faults).
set -eu
games=${1:-200}
tc=${2:-2+0.02}
conc=${3:-2}
cd "$(dirname "$0")/.."
JIANG=${JIANG:-$PWD/target/release/jiang}
FSF=${FSF:-/usr/games/fairy-stockfish}
THREADS=${THREADS:-2}
MARGIN=${MARGIN:-100}
OVERHEAD=${OVERHEAD:-}
SEED=${SEED:-1}
PONDERING=${PONDERING:-1}
ponder_flag=-pondering
[ "$PONDERING" = 0 ] && ponder_flag=
if [ ! -x "$JIANG" ]; then
  cargo build --release --bin jiang
fi
[ -x "$FSF" ] || { echo "soak: $FSF is missing (apt-get install fairy-stockfish)"; exit 1; }
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT"

failed=0
total_games=0
total_faults=0
# The numbers of the report's `Ponder:` line, summed over the runs:
# searches hits early-hits misses early-misses game-end-stops stray unanswered.
ponder_sum="0 0 0 0 0 0 0 0"

# One match: variant, opponent tag, then the opponent's -engine words.
run() {
  variant=$1
  tag=$2
  shift 2
  report="$OUT/$variant-$tag.txt"
  # `Move Overhead` for Jiang (UCI and XBoard) and Fairy-Stockfish; the
  # UCCI side has no such option. A word of its own, as cutechess takes it.
  overhead=
  [ -n "$OVERHEAD" ] && overhead="option.Move Overhead=$OVERHEAD"
  second_overhead=$overhead
  [ "$tag" = jiang-ucci ] && second_overhead=
  set +e
  "$JIANG" match -variant "$variant" \
    -engine cmd="$JIANG" name=jiang option.Threads="$THREADS" ${overhead:+"$overhead"} \
    -engine "$@" ${second_overhead:+"$second_overhead"} \
    -each tc="$tc" timemargin="$MARGIN" $ponder_flag \
    -games "$games" -repeat -concurrency "$conc" -recover -seed "$SEED" \
    -ratinginterval 0 -pgnout "$OUT/$variant-$tag.pgn" >"$report" 2>&1
  code=$?
  set -e
  played=$(grep -c '^Finished game' "$report" || true)
  faults=$(sed -n 's/^Faults: //p' "$report")
  ends=$(sed -n 's/^Game ends: //p' "$report")
  ponder=$(sed -n 's/^Ponder: //p' "$report")
  echo "$variant vs $tag: $played games, faults ${faults:-?}; ends: $ends"
  echo "  ponder: ${ponder:-none}"
  total_games=$((total_games + played))
  total_faults=$((total_faults + ${faults:-0}))
  # The counts, in the order of the line.
  nums=$(printf '%s\n' "$ponder" | grep -o '[0-9][0-9]*' | tr '\n' ' ')
  set -- $nums
  if [ -z "$ponder_flag" ]; then
    : # a baseline: no ponder counts to check
  elif [ $# -ne 8 ]; then
    echo "  FAIL: no ponder counts in the report"
    failed=1
  else
    if [ "$1" -ne $(($2 + $4 + $6)) ]; then
      echo "  FAIL: $1 ponder searches but $2 hits + $4 misses + $6 game-end stops"
      failed=1
    fi
    if [ "$7" -ne 0 ] || [ "$8" -ne 0 ]; then
      echo "  FAIL: $7 stray bestmoves, $8 unanswered stops"
      failed=1
    fi
    ponder_sum=$(echo "$ponder_sum" | awk -v n="$nums" '{
      split(n, a, " "); for (i = 1; i <= 8; i++) $i += a[i]; print }')
  fi
  if [ "$code" -ne 0 ] || [ "$played" -ne "$games" ] || [ "${faults:-1}" -ne 0 ]; then
    echo "  FAIL: exit code $code, $played of $games games, faults ${faults:-?} (see $report)"
    grep -E '^  .*: [0-9]+ x ' "$report" || true
    failed=1
  fi
}

for variant in xiangqi janggi; do
  run "$variant" fsf cmd="$FSF" name=fsf option.Threads="$THREADS" option.Hash=16
done
# Jiang against itself over another protocol: UCCI in Xiangqi (UCCI has no
# way to name a variant), XBoard in Janggi (it ponders by itself after
# `hard`, so only the UCI side's searches are counted).
run xiangqi jiang-ucci cmd="$JIANG" name=jiang-ucci proto=ucci option.threads="$THREADS"
run janggi jiang-xboard cmd="$JIANG" name=jiang-xboard proto=xboard option.Threads="$THREADS"

set -- $ponder_sum
echo "soak: $total_games games, $total_faults faults; ponder: $1 searches, $2 hits ($3 early), \
$4 misses ($5 early), $6 stopped at game end, $7 stray bestmoves, $8 unanswered stops"
echo "soak: reports and PGN files in $OUT"
if [ "$failed" -ne 0 ]; then
  echo "soak: FAILED"
  exit 1
fi
echo "soak: ok"
