#!/usr/bin/env python3
"""Nodes to depth and effective branching factor of a UCI engine.

Usage: scripts/ebf.py ENGINE VARIANT [MAX_DEPTH] [OPENINGS]

Searches the first OPENINGS (default 20) openings of the committed set
(bench/openings/xiangqi.epd, or bench/openings/janggi.pgn for a Janggi
VARIANT) to MAX_DEPTH (default 15), one thread, Hash 64, a new game before
each, and prints for every depth that all searches reached the mean node
count of its last exact-score `info` line, and the effective branching
factor from depth 10 to the deepest (the ratio of node counts per ply).
Node counts do not depend on how busy the machine is, so the figures can be
compared between engines and runs; time to depth is nodes over nodes/s.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def openings(variant, n):
    if variant == "xiangqi":
        path = os.path.join(ROOT, "bench/openings/xiangqi.epd")
        fens = [" ".join(l.split()[:4]) + " 0 1" for l in open(path) if l.strip()]
    else:
        path = os.path.join(ROOT, "bench/openings/janggi.pgn")
        fens = [l.split('"')[1] for l in open(path) if l.startswith("[FEN")]
    return fens[:n]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    exe, variant = sys.argv[1], sys.argv[2]
    max_depth = int(sys.argv[3]) if len(sys.argv) > 3 else 15
    fens = openings(variant, int(sys.argv[4]) if len(sys.argv) > 4 else 20)
    p = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def wait_for(prefix):
        while not p.stdout.readline().startswith(prefix):
            pass

    send("uci")
    wait_for("uciok")
    send(f"setoption name UCI_Variant value {variant}")
    send("setoption name Hash value 64")
    send("setoption name Threads value 1")
    send("isready")
    wait_for("readyok")
    per_depth = {}
    for fen in fens:
        send("ucinewgame")
        send(f"position fen {fen}")
        send(f"go depth {max_depth}")
        seen = {}
        while True:
            line = p.stdout.readline()
            if not line or line.startswith("bestmove"):
                break
            m = re.search(r"info depth (\d+) .*nodes (\d+)", line)
            if m and " pv " in line and "bound" not in line:
                seen[int(m.group(1))] = int(m.group(2))
        for d, nodes in seen.items():
            per_depth.setdefault(d, []).append(nodes)
    send("quit")
    means = {d: sum(v) // len(v) for d, v in per_depth.items() if len(v) == len(fens)}
    for d in sorted(means):
        print(f"depth {d:2}  nodes {means[d]}")
    top = max(means)
    if 10 in means and top > 10:
        print(f"EBF 10-{top}: {(means[top] / means[10]) ** (1 / (top - 10)):.2f}")


if __name__ == "__main__":
    main()
