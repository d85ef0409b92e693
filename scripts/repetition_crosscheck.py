#!/usr/bin/env python3
"""Cross-check Jiang's repetition verdicts against Fairy-Stockfish (issue 15).

Random repetition games (random play, then a forced cycle of checks,
attacks and quiet moves that both sides take back, see
movegen/examples/repetition_games.rs) are judged ply by ply from the start
of the cycle by Jiang (its `result` command over UCI, docs/PROTOCOL.md §6)
and by pyffish, Fairy-Stockfish's Python binding (`pip install
pyffish==0.0.90`). At the first ply where either says the game is over,
the two verdicts (win, loss or draw for the side to move) must agree.

Every disagreement is classified (see `classify`); the known classes are
explained in tests/data/repetition_crosscheck.md. The script exits with
status 1 when a disagreement falls in no known class.

    scripts/repetition_crosscheck.py --games 5000 --seed 1 --tsv out.tsv

needs `cargo build --release --bin jiang` and
`cargo build --release -p jiang-movegen --example repetition_games` (the
script builds both unless --no-build is given).
"""

import argparse
import collections
import os
import re
import subprocess
import sys

try:
    import pyffish as sf
except ImportError:  # the message says how to get it
    sys.exit("pyffish is missing: pip install pyffish==0.0.90")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Jiang:
    """One `jiang` process spoken to over UCI, ranks 1-10."""

    def __init__(self, path):
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.variant = None
        self.send("uci")
        self.wait("uciok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")

    def wait(self, prefix):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("jiang exited")
            if line.startswith(prefix):
                return line.strip()

    def result(self, variant, fen, moves):
        """(result, reason) after the moves, e.g. ("0-1", "perpetual-chase")."""
        if variant != self.variant:
            # Setting UCI_Variant also switches Jiang to ranks 1-10.
            self.send("setoption name UCI_Variant value " + variant)
            self.variant = variant
        self.send("position fen %s moves %s" % (fen, " ".join(moves)))
        self.send("result")
        words = self.wait("info string result").split()
        return words[3], words[5]

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def side_to_move(fen, plies):
    """'w' or 'b' after `plies` moves from `fen`."""
    first = fen.split()[1]
    first = "b" if first == "b" else "w"
    if plies % 2 == 0:
        return first
    return "b" if first == "w" else "w"


def jiang_value(result, stm):
    """+1 / 0 / -1 for the side to move; None while the game goes on."""
    if result == "*":
        return None
    if result == "1/2-1/2":
        return 0
    winner = "w" if result == "1-0" else "b"
    return 1 if winner == stm else -1


def fsf_value(variant, fen, moves):
    """Fairy-Stockfish's verdict for the side to move (+1/0/-1) or None.

    The cycle's moves are all legal and each position in it has a next
    move, so only the immediate and the optional (repetition) ends can
    apply; `game_result` (no legal move) is not needed."""
    for ask in (sf.is_immediate_game_end, sf.is_optional_game_end):
        over, value = ask(variant, fen, moves)
        if over:
            return (value > 0) - (value < 0)
    return None


def word(v):
    return {None: "ongoing", 1: "win", 0: "draw", -1: "loss"}[v]


def board_and_side(fen):
    """The part of a FEN that decides a repetition: board and side to move."""
    return " ".join(fen.split()[:2])


def occupied(fen, square):
    """Whether `square` (e.g. "e10") holds a piece in the FEN's board."""
    rows = fen.split()[0].split("/")
    file, rank = ord(square[0]) - ord("a"), int(square[1:])
    row = rows[len(rows) - rank]
    col = 0
    for ch in row:
        if ch.isdigit():
            col += int(ch)
        else:
            if col == file:
                return True
            col += 1
    return False


def fsf_kill(variant, fen, moves):
    """Whether the side that made the last move threatens mate (a "kill",
    docs/RULES.md §1.3): with the turn handed back to it, some move of its
    gives check and leaves no legal reply. Mates by a capture are left out:
    a mate by taking a piece the move chases is no kill (the rule book's
    diagrams 53, 56 and 71-75), and pyffish does not say which pieces a
    move chases, so this test finds a subset of Jiang's kills."""
    after = sf.get_fen(variant, fen, moves).split()
    if sf.gives_check(variant, " ".join(after), []):
        return False
    after[1] = "b" if after[1] == "w" else "w"
    flipped = " ".join(after)
    for m in sf.legal_moves(variant, flipped, []):
        if occupied(flipped, re.match(r"[a-i]\d+([a-i]\d+)", m).group(1)):
            continue
        if sf.gives_check(variant, flipped, [m]) and not sf.legal_moves(variant, flipped, [m]):
            return True
    return False


def classify(variant, fen, moves, cycle_start, ply, jv, jreason, fv):
    """The class of a disagreement at `ply` (see repetition_crosscheck.md)."""
    if variant == "janggimodern" and (jreason == "shuttle" or jv is None):
        # The shuttle rule of docs/RULES.md §2.3 and Fairy-Stockfish's
        # moveRepetitionIllegal count back-and-forth moves differently.
        return "janggimodern-shuttle"
    # Fairy-Stockfish judges a cycle from the first occurrence it knows,
    # counting the move *into* that occurrence as part of the cycle. Judged
    # from the first occurrence of the final position (history cut there),
    # does it agree with Jiang?
    final = board_and_side(sf.get_fen(variant, fen, moves[:ply]))
    for k in range(max(0, cycle_start - 2), ply):
        base = sf.get_fen(variant, fen, moves[:k])
        if board_and_side(base) == final:
            if fsf_value(variant, base, moves[k:ply]) == jv:
                return "cycle-entry"
            break
    if variant != "xiangqi":
        return "unexplained"
    if jreason == "repetition" and fv:
        # Fairy-Stockfish sees a perpetual chase. Ours is a draw: is one of
        # the blamed side's moves in the last cycle a kill (rule 3)?
        blamed_moved_last = fv > 0  # the side to move wins: the other side chased
        last = ply if blamed_moved_last else ply - 1
        for back in range(0, 8, 2):
            k = last - back
            if k > cycle_start and fsf_kill(variant, fen, moves[:k]):
                return "kill-not-chase"
        return "no-chase-in-jiang"
    if jreason == "perpetual-chase" and fv == 0:
        return "chase-fsf-misses"
    return "unexplained"


def judge_game(jiang, variant, fen, moves, cycle_start):
    """(ply, jiang value, jiang reason, fsf value) at the first end."""
    for ply in range(cycle_start + 1, len(moves) + 1):
        stm = side_to_move(fen, ply)
        result, reason = jiang.result(variant, fen, moves[:ply])
        jv = jiang_value(result, stm)
        fv = fsf_value(variant, fen, moves[:ply])
        if jv is not None or fv is not None:
            return ply, jv, reason, fv
    return len(moves), None, "none", None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jiang", default=os.path.join(ROOT, "target/release/jiang"))
    ap.add_argument(
        "--generator",
        default=os.path.join(ROOT, "target/release/examples/repetition_games"),
    )
    ap.add_argument("--no-build", action="store_true", help="use the binaries as built")
    ap.add_argument("--tsv", help="write every disagreement to this file")
    args = ap.parse_args()

    if not args.no_build:
        for cmd in (
            ["cargo", "build", "--release", "--bin", "jiang"],
            ["cargo", "build", "--release", "-p", "jiang-movegen", "--example", "repetition_games"],
        ):
            subprocess.run(cmd, cwd=ROOT, check=True)

    games = subprocess.run(
        [args.generator, str(args.games), str(args.seed)],
        check=True, capture_output=True, text=True,
    ).stdout.splitlines()

    jiang = Jiang(args.jiang)
    per_variant = collections.Counter()
    agree = collections.Counter()
    verdicts = collections.Counter()
    classes = collections.Counter()
    rows = []
    for n, line in enumerate(games, 1):
        variant, fen, moves, cycle_start = line.split("\t")
        moves = moves.split()
        cycle_start = int(cycle_start)
        ply, jv, reason, fv = judge_game(jiang, variant, fen, moves, cycle_start)
        per_variant[variant] += 1
        verdicts[(variant, reason)] += 1
        if jv == fv:
            agree[variant] += 1
            continue
        cls = classify(variant, fen, moves, cycle_start, ply, jv, reason, fv)
        classes[cls] += 1
        rows.append((n, variant, fen, " ".join(moves[:ply]), cycle_start,
                     "%s %s" % (word(jv), reason), word(fv), cls))
    jiang.close()

    total = sum(per_variant.values())
    print("games %d, agreements %d, disagreements %d" % (total, sum(agree.values()), len(rows)))
    for v in sorted(per_variant):
        print("  %-18s games %5d  agree %5d" % (v, per_variant[v], agree[v]))
    print("Jiang's verdicts (variant, reason):")
    for (v, r), c in sorted(verdicts.items()):
        print("  %-18s %-16s %5d" % (v, r, c))
    print("disagreements by class:")
    for c, k in classes.most_common():
        print("  %-22s %5d" % (c, k))
    if args.tsv:
        with open(args.tsv, "w") as f:
            f.write("game\tvariant\tfen\tmoves\tcycle_start\tjiang\tfsf\tclass\n")
            for r in rows:
                f.write("\t".join(str(x) for x in r) + "\n")
    return 1 if classes["unexplained"] else 0


if __name__ == "__main__":
    sys.exit(main())
