#!/usr/bin/env bash
# The strength-level calibration ladder (docs/RESULTS.md, "Strength
# levels"): fixed-node matches between Jiang's levels, full strength and
# Fairy-Stockfish, reproducible game for game (one thread, fixed nodes,
# fixed openings and fixed Skill Seeds), so a busy machine only makes
# them slower, never different.
#
# usage: scripts/skill_ladder.sh [ROUNDS] [OUTDIR] [PAIR...]
#   ROUNDS  game pairs per encounter (default 50: 100 games)
#   OUTDIR  where PGN and logs go (default /tmp/skill-ladder)
#   PAIR    A:B, each side a level 0-19, F (full strength) or fsfN
#           (Fairy-Stockfish at its Skill Level N); default: the
#           ladder of neighbours two levels apart, 0:2 2:4 … 16:18 18:F.
# START (environment, default 1) is the first opening of the set: a second
# run with START=51 plays new games rather than the first run's again.
# F (and Fairy-Stockfish) get `go nodes 32768`
# (search::skill::REFERENCE_NODES); a level gets `go nodes 1000000`, so
# that its own budget (at most twice the reference) binds.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-50}
OUT=${2:-/tmp/skill-ladder}
shift $(( $# > 2 ? 2 : $# )) || true
PAIRS=("$@")
[ ${#PAIRS[@]} -eq 0 ] && PAIRS=(0:2 2:4 4:6 6:8 8:10 10:12 12:14 14:16 16:18 18:F)
JIANG=${JIANG:-./target/release/jiang}
FSF=${FSF:-/usr/games/fairy-stockfish}
NODES=32768
START=${START:-1}
mkdir -p "$OUT"

# The engine arguments of one side; `seed` keeps the two sides' draws
# apart when both are Jiang.
side() {
    local who=$1 seed=$2
    case $who in
        F) echo "cmd=$JIANG name=F nodes=$NODES" ;;
        fsf*) echo "cmd=$FSF name=$who nodes=$NODES option.Skill_Level=${who#fsf}" ;;
        *) echo "cmd=$JIANG name=L$who nodes=1000000 option.Skill_Level=$who option.Skill_Seed=$seed" ;;
    esac
}

for pair in "${PAIRS[@]}"; do
    a=${pair%%:*}
    b=${pair##*:}
    # Option names with spaces travel as one word each: `_` stands for
    # the space until here.
    read -r -a A <<<"$(side "$a" 11)"
    read -r -a B <<<"$(side "$b" 22)"
    A=("${A[@]//_/ }")
    B=("${B[@]//_/ }")
    log="$OUT/$a-$b-from$START.log"
    nice "$JIANG" match -variant xiangqi \
        -engine "${A[@]}" -engine "${B[@]}" \
        -each proto=uci option.Threads=1 option.Hash=16 \
        -games 2 -rounds "$ROUNDS" -repeat -concurrency 1 \
        -openings file=bench/openings/xiangqi.epd format=epd order=sequential start="$START" \
        -draw movenumber=40 movecount=8 score=10 \
        -resign movecount=3 score=800 -maxmoves 150 \
        -ratinginterval 0 -pgnout "$OUT/$a-$b-from$START.pgn" >"$log" 2>&1
    echo "$pair: $(grep -E '^(Elo|Games):' "$log" | tr '\n' ' ')"
done
