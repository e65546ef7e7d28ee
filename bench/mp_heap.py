"""Where one prop's heap goes (MicroPython): each module's import, the build, each kind of work.

Usage: micropython -X heapsize=8M bench/mp_heap.py PROP PACK FOLDER order
       micropython -X heapsize=8M bench/mp_heap.py PROP PACK FOLDER measure ORDER_FILE
(ORDER_FILE: the JSON line `order` printed; the unix port interns each
argument as a qstr, at most 255 bytes, so a long list cannot be one.)
MICROPYPATH as for bench/mp_firmware.py. Prints one JSON line.

`order`: imports what a board imports for the prop (main.py's modules, the
prop, the store, the self-test) and lists the firmware modules in the order
their imports finished: dependencies before the modules that use them.

`measure` (given that order): imports the modules one by one, each between
two collections, so each figure is what that module keeps (its code when
loaded from .py or .mpy, its functions, classes and tables; with the firmware
frozen in, the bytecode stays in flash). The virtual board is loaded first and
not counted. Then the round of bench/mp_firmware.py (the prop's
vprops/PROP/workload.py; a prop with none prints "no_workload") with
meters: `build` is what props.PROP.build keeps; each kind of work counts the
bytes it allocates over the round (garbage included; nested kinds are
counted once, where they happen) and its largest single call; `held_after`:
what the firmware holds after the round. Live figures: mp_firmware.py live.
"""
import gc
import json
import sys

import vboard

FIRMWARE_TOP = ("boardprofiles", "cardpack", "drivers", "link", "props", "rules", "runtime", "safemode",
                "selftest", "settings", "store", "version")


def _firmware(name: str) -> bool:
    return name.split(".")[0] in FIRMWARE_TOP


def order(prop: str) -> list:
    import builtins
    done = []
    running = []   # imports under way (their modules are not whole yet)
    plain = builtins.__import__

    def hook(name, *args):
        running.append(name)
        try:
            module = plain(name, *args)
        finally:
            running.pop()
        # this module and its packages, once whole: after everything they import
        parts = name.split(".")
        i = 1
        while i <= len(parts):
            part = ".".join(parts[:i])
            if part not in done and part not in running and part in sys.modules and _firmware(part):
                done.append(part)
            i += 1
        return module

    builtins.__import__ = hook
    try:
        # main.py's imports, then what link.startup.run_prop imports for the prop
        for name in ("safemode", "settings", "link.startup", "props." + prop, "store", "selftest"):
            __import__(name)
    finally:
        builtins.__import__ = plain
    return done


class Meters:
    """meter(kind, fn): fn, counting the bytes each call allocates (GC held off meanwhile)."""

    def __init__(self) -> None:
        self.total = {}
        self.largest = {}
        self.calls = {}
        self._inner = [0]   # per open call: bytes its nested metered calls allocated

    def meter(self, kind, fn):
        def metered(*args, **kwargs):
            was = gc.isenabled()
            if len(self._inner) == 1:
                gc.collect()  # room for a call's garbage: no collection runs while it is metered
            gc.disable()
            self._inner.append(0)
            before = gc.mem_alloc()
            try:
                return fn(*args, **kwargs)
            finally:
                spent = gc.mem_alloc() - before
                inner = self._inner.pop()
                self._inner[-1] += spent
                self._count(kind, spent - inner)
                if was:
                    gc.enable()
        return metered

    def _count(self, kind, spent) -> None:
        self.total[kind] = self.total.get(kind, 0) + spent
        self.calls[kind] = self.calls.get(kind, 0) + 1
        if spent > self.largest.get(kind, 0):
            self.largest[kind] = spent

    def steps(self, kind, make):
        """A generator factory (store.steps) whose every step is metered."""
        meters = self

        def metered():
            gen = meters.meter(kind, make)()
            step = meters.meter(kind, lambda: next(gen))
            while True:
                try:
                    step()
                except StopIteration:
                    return
                yield
        return metered


def _kept(fn):
    gc.collect()
    before = gc.mem_alloc()
    result = fn()
    gc.collect()
    return result, gc.mem_alloc() - before


def measure(prop, pack, folder, names) -> dict:
    import mp_firmware
    found = mp_firmware.load_bench(prop)
    if found is None:
        return {"prop": prop, "no_workload": True}
    out = {"prop": prop}
    gc.collect()
    start = gc.mem_alloc()
    imports = []
    for name in names:
        gc.collect()
        before = gc.mem_alloc()
        __import__(name)
        gc.collect()
        imports.append([name, gc.mem_alloc() - before])
    out["imports"] = imports
    meters = Meters()
    module = __import__("props." + prop, None, None, ["build"])
    build = module.build
    built = {}

    def measured_build(*args, **kwargs):
        app, built["kept"] = _kept(lambda: build(*args, **kwargs))
        return app
    module.build = measured_build
    import link.startup as link_startup
    forget = link_startup.forget_boot_modules

    def measured_forget():
        built["forgotten"] = _kept(forget)[1]
    link_startup.forget_boot_modules = measured_forget
    wiring = mp_firmware.Wiring(prop, folder, None, meters.meter)
    store = wiring.store
    store.save = meters.meter("saves: encode", store.save)
    store.steps = meters.steps("saves: flash writes", store.steps)
    _meter_prop(found, meters)
    for _ in found.heap_round(wiring, pack):
        pass
    module.build = build
    link_startup.forget_boot_modules = forget
    out["build"] = built.get("kept", 0)
    out["forgotten"] = built.get("forgotten", 0)
    gc.collect()
    out["held_after"] = gc.mem_alloc() - start
    out["work"] = [[kind, meters.total[kind], meters.largest[kind], meters.calls[kind]]
                   for kind in sorted(meters.total)]
    return out


def _meter_prop(found, meters) -> None:
    """The runtime's passes, and the prop's own kinds of work: its workload's meter(meters)
    (vprops/PROP/workload.py) meters them on its classes (the card, the scoreboard...)."""
    import runtime
    runtime.Runtime.step = meters.meter("ticks: runtime passes", runtime.Runtime.step)
    own = getattr(found, "meter", None)
    if own is not None:
        own(meters)


def main():
    prop, pack, folder, mode = sys.argv[1:5]
    vboard.new_board(0, 1)
    if mode == "order":
        print(json.dumps({"prop": prop, "order": order(prop)}))
    else:
        with open(sys.argv[5]) as f:
            names = json.load(f)["order"]
        print(json.dumps(measure(prop, pack, folder, names)))


if __name__ == "__main__":
    main()
