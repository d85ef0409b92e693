#!/usr/bin/env python3
"""Measure how fast `jiang` answers `stop` (and `quit`) in a deep search.

Usage: scripts/stop_latency.py [path/to/jiang] [threads] [search_seconds] [runs]

For each run: UCI, Threads as given, `go infinite` from a middlegame
position, wait `search_seconds` so the search is deep, send `stop`, and time
until the `bestmove` line arrives. Then the same for `quit` (time until the
process has exited). Prints each sample and the median / worst, in ms.
"""
import os
import subprocess
import sys
import time

exe = sys.argv[1] if len(sys.argv) > 1 else "target/release/jiang"
threads = int(sys.argv[2]) if len(sys.argv) > 2 else 2
secs = float(sys.argv[3]) if len(sys.argv) > 3 else 3.0
runs = int(sys.argv[4]) if len(sys.argv) > 4 else 5
POS = "position startpos moves h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b0c2 c6c5"


def start():
    p = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    send(p, "uci")
    wait_for(p, lambda l: l == "uciok")
    send(p, f"setoption name Threads value {threads}")
    send(p, "setoption name Hash value 64")
    send(p, POS)
    send(p, "isready")
    wait_for(p, lambda l: l == "readyok")
    return p


def send(p, line):
    p.stdin.write(line + "\n")
    p.stdin.flush()


def wait_for(p, pred):
    last_depth = None
    while True:
        line = p.stdout.readline()
        if not line:
            raise SystemExit("jiang closed its output")
        line = line.rstrip("\n")
        if line.startswith("info depth"):
            last_depth = line.split()[2]
        if pred(line):
            return line, last_depth


stops, quits = [], []
for _ in range(runs):
    p = start()
    send(p, "go infinite")
    time.sleep(secs)
    t = time.perf_counter()
    send(p, "stop")
    _, depth = wait_for(p, lambda l: l.startswith("bestmove"))
    ms = (time.perf_counter() - t) * 1000
    stops.append(ms)
    print(f"stop: {ms:.2f} ms (last reported depth {depth})")
    send(p, "go infinite")
    time.sleep(secs)
    t = time.perf_counter()
    send(p, "quit")
    p.wait()
    ms = (time.perf_counter() - t) * 1000
    quits.append(ms)
    print(f"quit: {ms:.2f} ms")

for name, v in (("stop", stops), ("quit", quits)):
    v.sort()
    print(f"{name}: median {v[len(v) // 2]:.2f} ms, worst {v[-1]:.2f} ms over {len(v)} runs at {threads} threads")
