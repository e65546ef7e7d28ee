"""Whole random games per second, under whichever interpreter runs this file.

Usage: python bench/mp_throughput.py MODULE:FUNCTION PLAYERS SECONDS
(with tools/testbed and firmware/lib on the path). Calls FUNCTION(seed, PLAYERS) for
seeds 0, 1, 2, ... until SECONDS have passed; prints one JSON line.
"""
import json
import sys
import time

try:
    from time import ticks_diff, ticks_ms
except ImportError:  # CPython
    def ticks_ms():
        return int(time.monotonic() * 1000)

    def ticks_diff(a, b):
        return a - b


def main():
    target, players, seconds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    module_name, _, function_name = target.partition(":")
    __import__(module_name)
    play = getattr(sys.modules[module_name], function_name)
    start = ticks_ms()
    games = 0
    budget = seconds * 1000
    while ticks_diff(ticks_ms(), start) < budget:
        play(games, players)
        games += 1
    elapsed = ticks_diff(ticks_ms(), start)
    print(json.dumps({"games": games, "ms": elapsed}))


main()
