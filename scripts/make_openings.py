#!/usr/bin/env python3
"""Make a balanced opening set: random openings that two engines both
score as near-equal.

Usage:
  scripts/make_openings.py [--variant xiangqi|janggi] [--count 200]
      [--plies 8] [--seed 2026] [--margin 100] [--jiang-nodes 100000]
      [--fsf-nodes 100000] [--jiang PATH] [--fsf PATH] > set.epd

Each candidate starts from the start position (Janggi: the setups taken in
turn, so that all 16 horse/elephant setups, four for each side, appear
equally often), then plays --plies random quiet moves (no captures, no
passes), chosen with a seeded generator through Jiang's own move list
(`go perft 1`). A candidate is kept when the side to move is not in check
and both Jiang and Debian's fairy-stockfish, each searching a fixed number
of nodes (so the set does not depend on the machine's speed), score it
within --margin centipawns of equal. Output: one FEN a line (`jiang match
-openings file=set.epd format=epd`), with the setup named in an EPD `id`.
The same arguments give the same file.
"""
import argparse
import random
import re
import subprocess
import sys


class Uci:
    """A UCI engine process."""

    def __init__(self, exe, variant, extra=()):
        self.p = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("uci")
        self.until(lambda l: l == "uciok")
        for line in extra:
            self.send(line)
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send("isready")
        self.until(lambda l: l == "readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, pred):
        out = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            line = line.rstrip("\n")
            out.append(line)
            if pred(line):
                return out

    def score(self, fen, nodes):
        """Centipawns for the side to move after a fixed-node search."""
        self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.send(f"go nodes {nodes}")
        score = None
        for line in self.until(lambda l: l.startswith("bestmove")):
            m = re.search(r" score (cp|mate) (-?\d+)", line)
            if m:
                score = int(m.group(2)) if m.group(1) == "cp" else (100000 if int(m.group(2)) > 0 else -100000)
        return score

    def quit(self):
        self.send("quit")
        self.p.wait()


def janggi_setups():
    """The 16 Janggi start positions: the horse (N) and elephant (B) order
    on the b, c, g and h files, four ways for each side. Named by the
    letters on those files, Cho (upper case) then Han."""
    wings = [("nb", "bn"), ("nb", "nb"), ("bn", "bn"), ("bn", "nb")]
    out = []
    for han in wings:
        for cho in wings:
            top = f"r{han[0]}a1a{han[1]}r"
            bottom = f"R{cho[0].upper()}A1A{cho[1].upper()}R"
            fen = f"{top}/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/{bottom} w - - 0 1"
            out.append((f"{(cho[0] + cho[1]).upper()} {han[0] + han[1]}", fen))
    return out


def board_of(fen):
    """Occupied points of a FEN, as (file, rank) with rank 0 at the bottom."""
    occ = set()
    rows = fen.split()[0].split("/")
    for r, row in enumerate(rows):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                occ.add((f, 9 - r))
                f += 1
    return occ


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variant", default="xiangqi", choices=["xiangqi", "janggi"])
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--plies", type=int, default=8)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--margin", type=int, default=100)
    ap.add_argument("--jiang-nodes", type=int, default=100000)
    ap.add_argument("--fsf-nodes", type=int, default=100000)
    ap.add_argument("--jiang", default="target/release/jiang")
    ap.add_argument("--fsf", default="/usr/games/fairy-stockfish")
    a = ap.parse_args()

    rng = random.Random(a.seed)
    jiang = Uci(a.jiang, a.variant, ["setoption name UCI_Ranks value 0-9"])
    fsf = Uci(a.fsf, a.variant)
    if a.variant == "janggi":
        starts = janggi_setups()
    else:
        starts = [("xiangqi", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")]
    kept, tried, seen = 0, 0, set()
    while kept < a.count:
        name, start = starts[tried % len(starts)]
        tried += 1
        moves, fen, checkers = [], start, ""
        for _ in range(a.plies):
            jiang.send(f"position fen {start} moves {' '.join(moves)}")
            jiang.send("go perft 1")
            lines = jiang.until(lambda l: l.startswith("Nodes"))
            occ = board_of(fen)
            quiet = []
            for line in lines:
                if ": " not in line or line.startswith("Nodes"):
                    continue
                mv = line.split(":")[0]
                if mv[:2] == mv[2:]:
                    continue  # a pass
                to = (ord(mv[2]) - ord("a"), int(mv[3]))
                if to not in occ:
                    quiet.append(mv)
            if not quiet:
                break
            moves.append(rng.choice(quiet))
            jiang.send(f"position fen {start} moves {' '.join(moves)}")
            jiang.send("d")
            out = jiang.until(lambda l: l.startswith("Checkers"))
            fen = [l for l in out if l.startswith("Fen: ")][0][5:]
            checkers = out[-1].split(":", 1)[1].strip()
        if checkers or fen in seen:
            continue
        seen.add(fen)
        sj = jiang.score(fen, a.jiang_nodes)
        if sj is None or abs(sj) > a.margin:
            continue
        sf = fsf.score(fen, a.fsf_nodes)
        if sf is None or abs(sf) > a.margin:
            continue
        kept += 1
        print(f'{fen} ; id "{name}"; c0 "jiang {sj:+d} fsf {sf:+d}"', flush=True)
        print(f"kept {kept}/{a.count} of {tried}", file=sys.stderr)
    jiang.quit()
    fsf.quit()


if __name__ == "__main__":
    main()
