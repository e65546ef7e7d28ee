"""One prop's round on the virtual board, wired as link.startup wires it (MicroPython): heap figures.

Usage: micropython -X heapsize=N bench/mp_firmware.py PROP PACK FOLDER [live|steps]
MICROPYPATH: host_tools/propctl/vboard, bench, then the firmware (firmware/lib as
source, or a folder of .mpy files from mpy-cross; or nothing, on a build with
the firmware frozen in). FOLDER holds the prop's flash files. Prints one JSON line.

As on a board, the prop runs behind the link (its events become link lines,
the game master's commands arrive as request lines), wrapped by the self-test,
saving to a store that writes later (the runtime writes it when the prop
allows, on the virtual board's flash). The round is the prop's own, found by
its name: heap_round in host_tools/propctl/vboard/vprops/PROP/workload.py (the
clock plays a round, the fuse box takes a card and blows its fuse, the football
box plays a whole game: each module says how). A prop with no such module
prints {"prop": PROP, "no_workload": true} and nothing is measured.

The virtual board, the prop's workload and its vprops bench (they import the
firmware only when a bench is built) are loaded and set up before the
baseline (`base`), so they are not counted; the firmware is. Prints
`memory_error` if the heap was too small, else what the firmware still
holds after the round (`held_after`). With `live`, the heap is
collected at every event (gc.collect() then gc.mem_alloc()): `live_boot` at
the first event, `live_max` the highest over the round, both less `base`.
"""
import gc
import json
import sys

import vboard
from vprops import workload

LINE_SINK = [0]   # link lines written (the bytes go nowhere: a board's USB serial)


def null_write(data) -> None:
    LINE_SINK[0] += 1


class Wiring:
    """What link.startup puts around a prop: the link, the self-test wrapper, a later store.

    on_event (the bench's event hook) is called with each event after the
    link has sent it; meter(kind, fn) may wrap the pieces (bench/mp_heap.py).
    """

    def __init__(self, prop, folder, on_event=None, meter=None) -> None:
        from store import Store
        from vflash import FlashFs

        import link.startup  # noqa: F401  (main.py loads it before the prop is built)
        from link.router import Link
        self.prop = prop
        self.module = __import__("props." + prop, None, None, ["build"])
        self.meter = meter if meter is not None else _no_meter
        self.link = Link(null_write, {"firmware": "bench", "prop": prop, "board": "pico"})
        self.store = Store(self.module.STATE_FILE, FlashFs(folder), later=True)
        self._on_event = on_event
        self._send = self.meter("events: link lines", self.link.event)
        self.handle_line = self.meter("requests: parse, handle, reply", self.link.handle_line)
        self._request_id = 0

    def event(self, name, fields) -> None:
        """The app's event sink: a link line (then the bench's hook)."""
        self._send(name, fields)
        if self._on_event is not None:
            self._on_event(name, fields)

    def plug(self, bench, app) -> None:
        """After the build: the app's events to the link (as link.startup's build(settings,
        link.event) does), the store written by the runtime, the self-test, the command table;
        then the boot-only modules are forgotten, as link.startup.run_prop does."""
        import selftest

        from link.startup import forget_boot_modules
        app.on_event = self.event  # every prop's sink (props/contract.pyi)
        bench.write_flash(self.store)
        gate = selftest.wrap(app, bench.settings, self.link.event)
        self.link.add_commands(gate.commands())
        forget_boot_modules()
        self.link.event("boot", self.link.hello_info())

    def ask(self, cmd, **args) -> None:
        """A request line from the game master's desktop."""
        self._request_id += 1
        self.handle_line(json.dumps({"id": self._request_id, "cmd": cmd, "args": args}).encode())


def _no_meter(kind, fn):
    return fn


class Live:
    """Live bytes after a collection, less the base: at every event, or at every step."""

    def __init__(self, base) -> None:
        self.base = base
        self.boot = None
        self.most = 0
        self.samples = 0

    def sample(self) -> None:
        """gc.collect(), then note gc.mem_alloc() (on wasm32 the caller collects: see STEP)."""
        gc.collect()
        self.note(gc.mem_alloc())

    def note(self, alloc) -> None:
        used = alloc - self.base
        self.samples += 1
        if self.boot is None:
            self.boot = used
        if used > self.most:
            self.most = used

    def __call__(self, name, fields) -> None:
        self.sample()


def _result(out, live) -> dict:
    gc.collect()
    out["held_after"] = gc.mem_alloc() - out["base"]
    out["lines"] = LINE_SINK[0]
    if live is not None:
        out["live_boot"] = live.boot
        out["live_max"] = live.most
        out["live_samples"] = live.samples
    return out


class Stepper:
    """The `steps` mode: the round one step per call, live bytes noted at each call's start.

    On the wasm32 port gc.collect() only asks for a collection, which happens
    when control is back in JavaScript (MICROPY_GC_SPLIT_HEAP_AUTO): run.mjs
    calls STEP() until it returns False, so each call starts collected (on
    unix each call collects at its end). The first call takes the base and
    starts the round; live_boot is noted once the prop is built and linked.
    """

    def __init__(self, prop, pack, folder, found) -> None:
        self.prop, self.pack, self.folder, self.workload = prop, pack, folder, found
        self.live = None
        self.round = None
        self.out = {"prop": prop, "mode": "steps"}

    def __call__(self) -> bool:
        alloc = gc.mem_alloc()
        if self.round is None:
            self.out["base"] = alloc
            self.live = Live(alloc)
            self.round = self.workload.heap_round(Wiring(self.prop, self.folder), self.pack)
        else:
            self.live.note(alloc)
        try:
            next(self.round)
        except StopIteration:
            out = self.out
            out["held_after"] = alloc - out["base"]
            out["lines"] = LINE_SINK[0]
            out["live_boot"] = self.live.boot
            out["live_max"] = self.live.most
            out["live_samples"] = self.live.samples
            print(json.dumps(out))
            return False
        gc.collect()  # done here on unix; on wasm32 once this call has returned
        return True


BENCH_MODULES = ("machine", "dcmotor", "physics", "oled", "fake_mcp23017", "vflash")


def failed_at(exc) -> str:
    """Where the heap ran out: the innermost firmware line and the allocation that failed
    (frames of the bench, b/, and of the virtual board, v/, are skipped)."""
    import io
    gc.collect()  # the failed work is garbage now: room to format the traceback
    text = io.StringIO()
    sys.print_exception(exc, text)  # type: ignore[attr-defined]
    lines = [line.strip() for line in text.getvalue().split("\n") if line.strip()]
    frames = [line[5:] for line in lines if line.startswith("File ")]
    firmware = [f for f in frames if not f.startswith(('"b/', '"v/'))]
    firmware = firmware or ["(no firmware frame) " + f for f in frames[-1:]] or ["?"]
    return "%s: %s" % (firmware[-1].replace('"', ""), lines[-1].split(", ")[-1])


def load_bench(prop):
    """The virtual board's own code, the prop's workload (with its vprops bench) and a one-entry
    board: in place before anything is counted. The workload module, or None if it has none."""
    for name in BENCH_MODULES:
        __import__(name)
    found = workload(prop)
    vboard.new_board(0, 1)
    return found


def main():
    prop, pack, folder = sys.argv[1], sys.argv[2], sys.argv[3]
    mode = sys.argv[4] if len(sys.argv) > 4 else ""
    try:
        found = load_bench(prop)
    except MemoryError:  # too small even for the virtual board
        print(json.dumps({"prop": prop, "memory_error": True, "base": None}))
        return
    if found is None:
        print(json.dumps({"prop": prop, "no_workload": True}))
        return
    gc.collect()
    if mode == "steps":
        global STEP
        STEP = Stepper(prop, pack, folder, found)
        if sys.platform != "webassembly":
            while STEP():
                pass
        return
    base = gc.mem_alloc()
    out = {"prop": prop, "base": base}
    live = Live(base) if mode == "live" else None
    try:
        for _ in found.heap_round(Wiring(prop, folder, live), pack):
            pass
    except MemoryError as exc:
        out["memory_error"] = True
        out["where"] = failed_at(exc)
        print(json.dumps(out))
        return
    print(json.dumps(_result(out, live)))


if __name__ == "__main__":
    main()
