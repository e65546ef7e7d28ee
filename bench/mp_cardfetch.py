"""Card-fetch benchmark, run under the MicroPython unix port.

Usage: micropython bench/mp_cardfetch.py pack|json FILE FETCHES SEED
Prints one JSON line: median and p99 microseconds per fetch, the largest heap
growth of any single fetch (GC off while measuring, so every temporary
counts), and the heap the whole approach holds (deck loaded, or pack open).
A MemoryError is reported as the result, not raised.
"""
import gc
import json
import sys
import time

import micropython

from cardpack import Pack, taskcard
from rules.rng import Rng


def percentile(sorted_values, permille):
    return sorted_values[(len(sorted_values) - 1) * permille // 1000]


def open_pack(path):
    pack = Pack(open(path, "rb"), kind=taskcard.KIND)
    taskcard.check_version(pack)

    def fetch(k):
        card = taskcard.decode(pack.record(k))
        return card.bolt + len(card.id)
    return len(pack), fetch


def open_json(path):
    with open(path) as f:
        deck = json.load(f)["cards"]

    def fetch(k):
        card = deck[k]
        return card["bolt"] + len(card["id"])
    return len(deck), fetch


def main():
    way, path, fetches, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    gc.collect()
    base = gc.mem_alloc()
    try:
        count, fetch = (open_pack if way == "pack" else open_json)(path)
    except MemoryError:
        print(json.dumps({"way": way, "memory_error": "loading", "heap_free": gc.mem_free()}))
        return
    gc.collect()
    held = gc.mem_alloc() - base
    rng = Rng(seed)
    times = []
    worst = 0
    i = 0
    while i < fetches:
        k = rng.below(count)
        gc.collect()
        gc.disable()
        before = gc.mem_alloc()
        t0 = time.ticks_us()
        fetch(k)
        t1 = time.ticks_us()
        grown = gc.mem_alloc() - before
        gc.enable()
        times.append(time.ticks_diff(t1, t0))
        if grown > worst:
            worst = grown
        i += 1
    times.sort()
    print(json.dumps({"way": way, "cards": count, "median_us": percentile(times, 500),
                      "p99_us": percentile(times, 990), "heap_per_fetch_max": worst,
                      "heap_held": held, "mem_peak": micropython.mem_peak() - base}))


main()
