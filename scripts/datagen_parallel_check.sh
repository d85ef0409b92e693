#!/bin/sh
# The README's way of spreading `jiang datagen` over many jobs, run for
# real on a tiny budget: GNU parallel plays the shards (the README's
# line, with fewer games and nodes), `cat` joins their files, and the
# joined file must hold exactly the records of the unsharded run (the
# same multiset of 48-byte records; the segment headers, which name each
# shard, are set aside).
#
# usage: scripts/datagen_parallel_check.sh [variant] [games] [shards]
#   variant  xiangqi (default) | janggi | ...
#   games    games of the whole run (default 12)
#   shards   number of shards (default 4)
# env: JIANG=path to the binary (default target/release/jiang, built if
#      missing), OUT=directory for the files (default a temp dir).
# Needs: GNU parallel (Debian's `parallel`), python3.
set -eu
variant=${1:-xiangqi}
games=${2:-12}
shards=${3:-4}
cd "$(dirname "$0")/.."
JIANG=${JIANG:-$PWD/target/release/jiang}
if [ ! -x "$JIANG" ]; then
  cargo build --release --bin jiang
fi
command -v parallel >/dev/null || { echo "GNU parallel is missing (apt-get install parallel)"; exit 1; }
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT"
cd "$OUT"
rm -f part*.bin whole.bin all.bin
common="--variant $variant --games $games --nodes 400 --seed 7 --quiet"

# The README's line (Data generation), on a tiny budget.
# shellcheck disable=SC2086
parallel "$JIANG" datagen $common --threads 1 --shard {}/"$shards" --out part{}.bin ::: $(seq 0 $((shards - 1)))
cat part*.bin > all.bin
# shellcheck disable=SC2086
"$JIANG" datagen $common --threads 1 --out whole.bin

python3 - whole.bin all.bin <<'PY'
import sys
MAGIC = b"JIANGDATA\r\n\x1a"
def records(path):
    data = open(path, "rb").read()
    if len(data) % 48:
        sys.exit(f"{path}: {len(data)} bytes is not a whole number of 48-byte records")
    chunks = [data[i:i + 48] for i in range(0, len(data), 48)]
    return sorted(c for c in chunks if not c.startswith(MAGIC))
whole, joined = records(sys.argv[1]), records(sys.argv[2])
if not whole:
    sys.exit("the unsharded run wrote no records")
if whole != joined:
    sys.exit(f"the joined shards differ from the unsharded run: {len(joined)} records against {len(whole)}")
print(f"datagen shards: {len(joined)} records, the joined shards equal the unsharded run")
PY
"$JIANG" datagen --stats all.bin | head -3
