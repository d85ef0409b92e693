#!/bin/sh
# Janggi ladder against Debian's fairy-stockfish at two time controls, and
# the check that Jiang's score does not fall as the clock grows.
#
# usage: scripts/janggi_ladder.sh [rounds] [fast-tc] [slow-tc]
#   rounds   opening pairs per time control (default 100 = 200 games; the
#            set bench/openings/janggi.pgn has 100 openings)
#   fast-tc  default 3+0.03;  slow-tc  default 10+0.1
# env: JIANG=path to the binary (default target/release/jiang, built if
#      missing), FSF=fairy-stockfish binary (default /usr/games/fairy-stockfish),
#      OUT=directory for the PGNs and logs (default ladder-out), MAXDROP=
#      most points (percent) the slow score may lie below the fast one (10).
#
# Both engines: 1 thread, Hash 64, rule set `janggi`, both colours of each
# opening, concurrency 2. Exits 1 when the slow-control score is more than
# MAXDROP points below the fast-control score (a time-control inversion)
# or when any game ended in a fault (time loss, illegal move, crash).
set -eu
rounds=${1:-100}
fast=${2:-3+0.03}
slow=${3:-10+0.1}
root=$(cd "$(dirname "$0")/.." && pwd)
jiang=${JIANG:-$root/target/release/jiang}
fsf=${FSF:-/usr/games/fairy-stockfish}
out=${OUT:-ladder-out}
maxdrop=${MAXDROP:-10}
[ -x "$jiang" ] || (cd "$root" && cargo build --release)
[ -x "$fsf" ] || { echo "fairy-stockfish not found at $fsf (apt-get install fairy-stockfish)"; exit 2; }
mkdir -p "$out"

score_of() { # percent score of Jiang from a match log
  sed -n 's/^Games: .*Points: [0-9.]* (\([0-9.]*\) %).*/\1/p' "$1" | tail -1
}

for tc in "$fast" "$slow"; do
  log="$out/janggi-$tc.log"
  "$jiang" match -variant janggi \
    -engine cmd="$jiang" name=jiang -engine cmd="$fsf" name=fairy-stockfish \
    -each tc="$tc" option.Hash=64 -games 2 -rounds "$rounds" -repeat -concurrency 2 \
    -openings file="$root/bench/openings/janggi.pgn" format=pgn order=sequential \
    -ratinginterval 0 -pgnout "$out/janggi-$tc.pgn" > "$log"
  sed -n '/^Results of/,$p' "$log"
done

f=$(score_of "$out/janggi-$fast.log")
s=$(score_of "$out/janggi-$slow.log")
echo "Jiang's score: $f% at $fast, $s% at $slow"
fail=0
if awk -v f="$f" -v s="$s" -v m="$maxdrop" 'BEGIN { exit !(s < f - m) }'; then
  echo "FAIL: time-control inversion (more than $maxdrop points lower at $slow)"
  fail=1
fi
if grep -h '^Faults:' "$out"/janggi-*.log | grep -qv 'Faults: 0'; then
  echo "FAIL: faults in the games:"; grep -h '^Faults:' "$out"/janggi-*.log
  fail=1
fi
exit $fail
