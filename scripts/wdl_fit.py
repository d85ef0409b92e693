#!/usr/bin/env python3
"""Fit the UCI_ShowWDL model (engine/wdl.rs) from Jiang's own self-play.

Usage: scripts/wdl_fit.py [jiang] [variant] [games] [nodes] [seed] [samples-out]

Plays `games` games of Jiang against itself through UCI (each move a
`go nodes N` search; the first 6 plies random for variety), ends each game
when Jiang's `result` command says it is over, and records for every
searched position the score (centipawns, side to move's view; mate scores
skipped) and how the game ended for the side to move. Then fits

    win(x) = 1 / (1 + exp((A - x) / B)),  loss(x) = win(-x),
    draw(x) = 1 - win(x) - loss(x)

by maximum likelihood (grid search over A and B), and prints A, B, the
sample counts and the log-likelihood per sample.
"""
import math
import random
import subprocess
import sys

exe = sys.argv[1] if len(sys.argv) > 1 else "target/release/jiang"
variant = sys.argv[2] if len(sys.argv) > 2 else "xiangqi"
games = int(sys.argv[3]) if len(sys.argv) > 3 else 100
nodes = int(sys.argv[4]) if len(sys.argv) > 4 else 20000
rng = random.Random(int(sys.argv[5]) if len(sys.argv) > 5 else 1)

p = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def send(line):
    p.stdin.write(line + "\n")
    p.stdin.flush()


def read_until(pred):
    out = []
    while True:
        line = p.stdout.readline()
        if not line:
            raise SystemExit("jiang closed its output")
        line = line.rstrip("\n")
        out.append(line)
        if pred(line):
            return out


send("uci")
read_until(lambda l: l == "uciok")
send("setoption name UCI_Ranks value 0-9")
if variant != "xiangqi":
    send(f"setoption name UCI_Variant value {variant}")
send("setoption name Hash value 16")

samples = []  # (cp, outcome for the side to move: 1 win, 0 draw, -1 loss)
results = {"1-0": 0, "0-1": 0, "1/2-1/2": 0}
for g in range(games):
    moves = []
    game_samples = []  # (cp, side index 0 = first player)
    send("ucinewgame")
    result = None
    while result is None:
        send("position startpos moves " + " ".join(moves))
        send("result")
        line = read_until(lambda l: l.startswith("info string result"))[-1]
        r = line.split()[3]
        if r != "*":
            result = r
            break
        if len(moves) >= 400:
            result = "1/2-1/2"  # safety net; the rules end games long before
            break
        side = len(moves) % 2
        if len(moves) < 6:
            send("go perft 1")
            lines = read_until(lambda l: l.startswith("Nodes searched"))
            legal = [l.split(":")[0] for l in lines if ": " in l and not l.startswith("Nodes")]
            moves.append(rng.choice(legal))
            continue
        send(f"go nodes {nodes}")
        lines = read_until(lambda l: l.startswith("bestmove"))
        best = lines[-1].split()[1]
        if best == "(none)":
            raise SystemExit("no move but the game is not over?")
        infos = [l for l in lines if l.startswith("info depth") and " score " in l]
        if infos:
            w = infos[-1].split()
            i = w.index("score")
            if w[i + 1] == "cp":
                game_samples.append((int(w[i + 2]), side))
        moves.append(best)
    results[result] += 1
    first = {"1-0": 1, "0-1": -1, "1/2-1/2": 0}[result]
    for cp, side in game_samples:
        samples.append((cp, first if side == 0 else -first))
    print(f"game {g + 1}: {result} after {len(moves)} plies", file=sys.stderr)
send("quit")
if len(sys.argv) > 6:
    # Keep the samples so that the model can be refitted without replaying.
    with open(sys.argv[6], "w") as f:
        for x, o in samples:
            f.write(f"{x} {o}\n")


def loglik(a, b):
    total = 0.0
    for x, o in samples:
        w = 1 / (1 + math.exp(min(50, (a - x) / b)))
        l = 1 / (1 + math.exp(min(50, (a + x) / b)))
        d = max(1e-9, 1 - w - l)
        total += math.log(max(1e-9, {1: w, 0: d, -1: l}[o]))
    return total


best = None
for a in range(0, 801, 10):
    for b in range(10, 401, 10):
        v = loglik(a, b)
        if best is None or v > best[0]:
            best = (v, a, b)
# Refine around the best grid point. A stays >= 0: below that win + loss
# would exceed 1 near equality (a negative draw share). Games that never
# end drawn (Janggi with counting) fit A = 0, the plain logistic.
_, a0, b0 = best
for a in range(max(0, a0 - 10), a0 + 11, 2):
    for b in range(max(2, b0 - 10), b0 + 11, 2):
        v = loglik(a, b)
        if v > best[0]:
            best = (v, a, b)
v, a, b = best
print(f"variant {variant}: {games} games ({results}), {len(samples)} positions, nodes {nodes}")
print(f"fit: A = {a}, B = {b}, log-likelihood per position {v / max(1, len(samples)):.4f}")
