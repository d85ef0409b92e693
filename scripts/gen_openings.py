#!/usr/bin/env python3
"""Write distinct random opening positions for XBoard's -lpf, one FEN a line.

Usage: scripts/gen_openings.py JIANG VARIANT COUNT PLIES SEED > file.fen

Plays PLIES random legal moves (no passes) from the start position through
Jiang's UCI (`go perft 1` lists the legal moves, `d` prints the FEN). For
Xiangqi the FEN uses XBoard's letters (H horse, E elephant). (XBoard 4.9
cannot load Janggi positions from a file: it reads them before the engine
defines the variant.)
"""
import random, subprocess, sys
exe, variant, n, plies, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
rng = random.Random(seed)
p = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(l): p.stdin.write(l + "\n"); p.stdin.flush()
def until(pred):
    out = []
    while True:
        l = p.stdout.readline().rstrip("\n"); out.append(l)
        if pred(l): return out
send("uci"); until(lambda l: l == "uciok")
send("setoption name UCI_Ranks value 0-9")
if variant != "xiangqi": send(f"setoption name UCI_Variant value {variant}")
seen = set()
while len(seen) < n:
    moves = []
    for _ in range(plies):
        send("position startpos moves " + " ".join(moves)); send("go perft 1")
        legal = [l.split(":")[0] for l in until(lambda l: l.startswith("Nodes")) if ": " in l and not l.startswith("Nodes")]
        legal = [m for m in legal if m[:2] != m[2:]]  # no passes in openings
        moves.append(rng.choice(legal))
    send("position startpos moves " + " ".join(moves)); send("d")
    fen = [l for l in until(lambda l: l.startswith("Checkers")) if l.startswith("Fen: ")][0][5:]
    if variant == "xiangqi":
        fen = fen.split(" ")[0].translate(str.maketrans("NBnb", "HEhe")) + " " + " ".join(fen.split(" ")[1:])
    if fen not in seen:
        seen.add(fen); print(fen)
send("quit")
