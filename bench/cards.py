"""`make bench` sections 1, 2 and 7: card fetch on MicroPython, pack size, the host tools' cost."""
import csv
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

from common import BOARD_HEAP, SAMPLE_DECK, run_micropython, table


def make_deck(count, folder: Path):
    """A seeded synthetic deck of `count` task cards, as CSV and JSON files.

    Texts are drawn from the sample deck, so record sizes are realistic.
    """
    with open(SAMPLE_DECK, newline="", encoding="utf-8") as f:
        sample = list(csv.DictReader(f))
    rng = random.Random(count)
    rows = []
    for i in range(count):
        model = rng.choice(sample)
        # each fact on one card (check refuses a statement used twice): number the copies
        statements = [model["s%d" % n] + " %d" % i for n in range(1, 9)]
        rows.append({"id": "BEN-%05d" % i, "category": model["category"], "text": model["text"],
                     "statements": statements, "bolt": int(model["bolt"]),
                     "source": model["source"], "as_of": model["as_of"], "notes": model["notes"],
                     "family": model["family"] == "yes"})  # the sample's share of family cards
    csv_path = folder / ("deck%d.csv" % count)
    with open(csv_path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["id", "category", "text"] + ["s%d" % n for n in range(1, 9)]
                        + ["bolt", "source", "as_of", "notes", "family"])
        for row in rows:
            writer.writerow([row["id"], row["category"], row["text"]] + row["statements"]
                            + [row["bolt"], row["source"], row["as_of"], row["notes"],
                               "yes" if row["family"] else "no"])
    json_path = folder / ("deck%d.json" % count)
    with open(json_path, "w", encoding="utf-8") as f:
        json.dump({"kind": "taskcards", "cards": rows}, f, ensure_ascii=False)
    return csv_path, json_path


def propctl_measured(*args):
    """Run propctl in a child; return (seconds, peak RSS in MB, exit code)."""
    code = ("import resource, sys\nfrom propctl.cli import main\nrc = main(sys.argv[1:])\n"
            "sys.stderr.write('MAXRSS %d\\n' % resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
            "sys.exit(rc)\n")
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code] + [str(a) for a in args],
                          capture_output=True, text=True)
    seconds = time.perf_counter() - start
    rss = [line for line in done.stderr.splitlines() if line.startswith("MAXRSS")]
    peak_mb = int(rss[-1].split()[1]) / 1024 if rss else float("nan")
    return seconds, peak_mb, done.returncode


def bench_cards(quick, folder):
    sizes = [300, 3000] if quick else [300, 3000, 30000]
    fetches = 200 if quick else 1000
    fetch_rows, size_rows, tool_rows = [], [], []
    for count in sizes:
        csv_path, json_path = make_deck(count, folder)
        pack_path = folder / ("deck%d.bin" % count)
        pack_s, pack_mb, rc = propctl_measured("cards", "pack", csv_path, "-o", pack_path)
        if rc != 0:
            raise RuntimeError("propctl cards pack failed for %d cards" % count)
        check_s, check_mb, rc = propctl_measured("cards", "check", csv_path)
        if rc != 0:
            raise RuntimeError("propctl cards check reported problems for %d cards" % count)
        tool_rows.append([count, "%.2f s" % check_s, "%.0f MB" % check_mb,
                          "%.2f s" % pack_s, "%.0f MB" % pack_mb])
        sizes_b = [os.path.getsize(p) for p in (pack_path, csv_path, json_path)]
        size_rows.append([count] + ["%.0f" % (b / count) for b in sizes_b]
                         + ["%.2f" % (sizes_b[0] / sizes_b[1]), "%.2f" % (sizes_b[0] / sizes_b[2])])
        # The JSON way also runs with a desktop-sized heap, to show what it would need.
        for way, path, heap in (("pack", pack_path, BOARD_HEAP), ("json", json_path, BOARD_HEAP),
                                ("json", json_path, "64M")):
            r = run_micropython("mp_cardfetch.py", way, path, fetches, 7, heap=heap)
            label = "%s, %s heap" % (way, heap)
            if "memory_error" in r:
                fetch_rows.append([count, label, "MemoryError while loading the deck", "-", "-", "-"])
            else:
                fetch_rows.append([count, label, "%d us" % r["median_us"], "%d us" % r["p99_us"],
                                   "%d B" % r["heap_per_fetch_max"], "%d B" % r["heap_held"]])
    fetch = ("## 1. Card fetch (MicroPython; a %s heap is about what a Pico has free)\n\n"
             "Method: seeded synthetic decks (texts drawn from the sample deck), %d random fetches "
             "(Rng seed 7). *pack*: `cardpack.Pack` + `taskcard.decode(pack.record(k))`, reading the "
             "card's id and bolt. *json*: the obvious way, `json.load` the deck, then index it. "
             "Heap per fetch is the largest growth of `gc.mem_alloc()` over one fetch with the GC "
             "off (every temporary counts); *held* is what the approach keeps on the heap. "
             "Goal: under 2 KB per fetch and flat across deck sizes.\n\n"
             % (BOARD_HEAP, fetches)
             + table(["cards", "way", "median", "p99", "heap per fetch (max)", "heap held"], fetch_rows))
    size = ("## 2. Pack size\n\nBytes per card for the same deck in each format; ratios pack/source.\n\n"
            + table(["cards", "pack B/card", "CSV B/card", "JSON B/card", "pack/CSV", "pack/JSON"],
                    size_rows))
    tools = ("## 7. Host tools\n\nMethod: `propctl cards check` and `propctl cards pack` on the CSV deck "
             "in a fresh CPython child each; wall time and the child's peak RSS (`ru_maxrss`), "
             "interpreter included (an empty CPython is about 10 MB).\n\n"
             + table(["cards", "check time", "check peak RSS", "pack time", "pack peak RSS"], tool_rows))
    return [fetch, size, tools]
