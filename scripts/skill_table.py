#!/usr/bin/env python3
"""Ratings of the strength-level ladder from `scripts/skill_ladder.sh`'s logs.

usage: scripts/skill_table.py OUTDIR [ANCHOR_ELO]

Reads every `OUTDIR/*.log` (a `jiang match` report), fits one rating per
engine to all games together (Bradley-Terry by maximum likelihood, a draw
counted as half a win, as Ordo and BayesElo do without their draw model),
puts full strength `F` at ANCHOR_ELO (default 2850), and prints each
engine's rating with a 95% interval from the fit's information matrix
(games treated as independent; draws make the true interval a little
narrower), then each encounter's score.
"""
import glob
import math
import re
import sys

C = math.log(10) / 400


def read(outdir):
    pairs = []
    for path in sorted(glob.glob(f"{outdir}/*.log")):
        text = open(path).read()
        head = re.search(r"Results of (\S+) vs (\S+) ", text)
        games = re.search(r"Games: (\d+), Wins: (\d+), Losses: (\d+), Draws: (\d+)", text)
        if head and games:
            n, w, l, d = map(int, games.groups())
            pairs.append((head.group(1), head.group(2), w, d, l))
    return pairs


def fit(pairs, anchor):
    names = sorted({p[0] for p in pairs} | {p[1] for p in pairs})
    r = {x: 0.0 for x in names}
    for _ in range(2000):
        # Newton-free gradient ascent on the log-likelihood; small steps,
        # many of them: a few engines, a few pairs.
        grad = {x: 0.0 for x in names}
        for a, b, w, d, l in pairs:
            n = w + d + l
            p = 1 / (1 + 10 ** ((r[b] - r[a]) / 400))
            s = w + d / 2
            grad[a] += (s - n * p)
            grad[b] -= (s - n * p)
        for x in names:
            r[x] += 400 * grad[x] / max(1, sum(p[2] + p[3] + p[4] for p in pairs if x in p[:2]))
    shift = anchor - r.get("F", 0.0)
    r = {x: v + shift for x, v in r.items()}
    # Information matrix without the anchor.
    free = [x for x in names if x != "F"] if "F" in names else names[1:]
    idx = {x: i for i, x in enumerate(free)}
    m = [[0.0] * len(free) for _ in free]
    for a, b, w, d, l in pairs:
        n = w + d + l
        p = 1 / (1 + 10 ** ((r[b] - r[a]) / 400))
        v = n * p * (1 - p) * C * C
        for x in (a, b):
            if x in idx:
                m[idx[x]][idx[x]] += v
        if a in idx and b in idx:
            m[idx[a]][idx[b]] -= v
            m[idx[b]][idx[a]] -= v
    inv = invert(m)
    err = {x: 1.96 * math.sqrt(max(inv[idx[x]][idx[x]], 0)) for x in free}
    return r, err


def invert(m):
    n = len(m)
    a = [row[:] + [float(i == j) for j in range(n)] for i, row in enumerate(m)]
    for c in range(n):
        piv = max(range(c, n), key=lambda i: abs(a[i][c]))
        a[c], a[piv] = a[piv], a[c]
        if abs(a[c][c]) < 1e-12:
            return [[float("inf")] * n for _ in range(n)]
        f = a[c][c]
        a[c] = [v / f for v in a[c]]
        for i in range(n):
            if i != c:
                g = a[i][c]
                a[i] = [vi - g * vc for vi, vc in zip(a[i], a[c])]
    return [row[n:] for row in a]


def main():
    outdir = sys.argv[1]
    anchor = float(sys.argv[2]) if len(sys.argv) > 2 else 2850.0
    pairs = read(outdir)
    r, err = fit(pairs, anchor)
    games = {x: sum(p[2] + p[3] + p[4] for p in pairs if x in p[:2]) for x in r}
    print("| engine | games | rating (95%) |")
    print("|---|---|---|")
    for x in sorted(r, key=lambda x: r[x]):
        e = f" ± {err[x]:.0f}" if x in err else " (anchor)"
        print(f"| {x} | {games[x]} | {r[x]:.0f}{e} |")
    print()
    print("| encounter | games | W–D–L (first) | score | Elo of first (95%) |")
    print("|---|---|---|---|---|")
    for a, b, w, d, l in pairs:
        n = w + d + l
        s = (w + d / 2) / n
        sc = min(max(s, 0.5 / n), 1 - 0.5 / n)
        elo = -400 * math.log10(1 / sc - 1)
        # Trinomial standard error of the score, through the logistic.
        var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s ** 2) / n / n
        de = 400 / math.log(10) / (sc * (1 - sc)) * 1.96 * math.sqrt(var)
        print(f"| {a}–{b} | {n} | {w}–{d}–{l} | {100 * s:.1f}% | {elo:+.0f} ± {de:.0f} |")


if __name__ == "__main__":
    main()
