"""Power cuts during saves, on both interpreters: the state loads and is the old or the new one.

A simulated flash keeps only what reached it. The power fails just before
operation number `cut` (open, write, close, rename, remove); a write the cut
lands in is torn at a seeded random length.
"""
from store import Store

from rules.rng import Rng


class PowerCut(Exception):
    pass


class _File:
    def __init__(self, flash, path, mode):
        self.flash = flash
        self.path = path
        self.writing = "w" in mode
        if self.writing:
            flash.files[path] = b""  # truncation reaches the flash at once (worst case)
        elif path not in flash.files:
            raise OSError(2)
        self.data = flash.files.get(path, b"")

    def read(self):
        return self.data

    def write(self, data):
        self.flash.step(self.path, data)
        self.flash.files[self.path] += data
        return len(data)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if not exc[0]:
            self.flash.step()
        return False


class Flash:
    """In-memory flash that cuts the power at operation `cut` (None: never)."""

    def __init__(self, files, cut=None, seed=1, fat=False):
        self.files = dict(files)
        self.cut = cut
        self.ops = 0
        self.rng = Rng(seed)
        self.fat = fat  # FAT: rename cannot replace an existing file

    def step(self, path=None, data=None):
        self.ops += 1
        if self.cut is not None and self.ops == self.cut:
            if data:
                self.files[path] += data[:self.rng.below(len(data) + 1)]
            raise PowerCut()

    def open(self, path, mode):
        self.step()
        return _File(self, path, mode)

    def rename(self, old, new):
        if old not in self.files:
            raise OSError(2)
        if self.fat and new in self.files:
            raise OSError(17)
        self.step()
        self.files[new] = self.files.pop(old)

    def remove(self, path):
        if path not in self.files:
            raise OSError(2)
        self.step()
        del self.files[path]


def _ops_for_save(files, state, fat):
    flash = Flash(files, fat=fat)
    Store("state.json", flash).save(state)
    return flash.ops


def power_cuts(states, seed, fat):
    """Save `states` one after another, cutting the power at every operation of every save.

    Returns, per save, the outcome after each cut: "old", "new" or a
    description of what else was loaded (which would be a bug).
    """
    durable = {}
    old = None
    report = []
    for number, new in enumerate(states):
        outcomes = []
        ops = _ops_for_save(durable, new, fat)
        # cut + 1 past the end: the power holds, the save completes
        for cut in range(1, ops + 2):
            flash = Flash(durable, cut=cut, seed=seed + cut * 7919 + number, fat=fat)
            try:
                Store("state.json", flash).save(new)
            except PowerCut:
                pass
            loaded = Store("state.json", Flash(flash.files)).load()
            if loaded == new:
                outcomes.append("new")
            elif loaded == old:
                outcomes.append("old")
            else:
                outcomes.append("broken: %r" % (loaded,))
        report.append(outcomes)
        flash = Flash(durable, fat=fat)
        Store("state.json", flash).save(new)
        durable = flash.files
        old = new
    return report


def checksum_garbage(size):
    """[checksum, bytes allocated] for store.checksum over `size` bytes, the GC held off."""
    import gc

    from store import checksum
    data = bytes(i * 7 & 0xFF for i in range(size))
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    value = checksum(data)
    spent = gc.mem_alloc() - before
    gc.enable()
    return [value, spent]
