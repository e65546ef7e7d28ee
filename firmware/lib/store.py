"""Game state that survives a power cut: write to a temp file, then rename.

    box = Store("state.json")
    box.save({"round": 3, "banked": [1, 0, 2]})
    state = box.load()          # None if nothing was ever saved

A save writes `PATH.tmp` completely, then renames it over `PATH`. Each file
carries a checksum, so a torn write is recognised and never loaded. After a
power cut at any moment, load() returns the old or the new state: the main
file if it is whole, else a whole temp file (a cut between removing the old
file and renaming, on filesystems whose rename cannot replace), else None.

The filesystem is injectable (`fs`: open, rename, remove) so tests can cut
the power between any two operations.

Writing flash stalls a chip (tens to hundreds of ms with interrupts off), so
on a board the store writes later: `Store(path, later=True)` keeps what
save() or clear() asks for in `waiting` (the encoded file, b"" to clear) and
the runtime runs `steps()` when the prop has no deadline near, one flash
operation per step, with the prop ticking in between (runtime.Runtime).
"""
import json


class _OsFs:
    """The real filesystem (the board's flash, or a folder on the desktop)."""

    def __init__(self) -> None:
        import os
        self._os = os

    def open(self, path: str, mode: str):
        return open(path, mode)

    def rename(self, old: str, new: str) -> None:
        self._os.rename(old, new)

    def remove(self, path: str) -> None:
        self._os.remove(path)


def checksum(data: bytes) -> int:
    """FNV-1a, 32 bits: cheap on a microcontroller, catches a torn write.

    Kept in two 16-bit halves: a 32-bit value times the prime would be a big int
    (heap) on every byte on a board, whose small ints have 31 bits. The prime is
    2**24 + 0x193, so value * prime mod 2**32 is value * 0x193 plus the low byte
    of value shifted up by 24.
    """
    high = 0x811C
    low = 0x9DC5
    for byte in data:
        low ^= byte
        product = low * 0x193
        high = (high * 0x193 + (product >> 16) + ((low & 0xFF) << 8)) & 0xFFFF
        low = product & 0xFFFF
    return (high << 16) | low


def encode(state) -> bytes:
    """File contents for a state: the JSON, a newline, the checksum in hex."""
    body = json.dumps(state).encode()
    return body + b"\n" + ("%08x\n" % checksum(body)).encode()


def decode(data):
    """The state in a file's contents, or None if they are incomplete or damaged."""
    body, sep, tail = data.rpartition(b"\n")
    if sep and not tail:  # drop the final newline, then split off the checksum
        body, sep, tail = body.rpartition(b"\n")
    if not sep or len(tail) != 8:
        return None
    try:
        if int(tail.decode(), 16) != checksum(body):
            return None
        return json.loads(body.decode())
    except (ValueError, UnicodeError):
        return None


class Store:
    """One state file on the board with atomic replacement."""

    def __init__(self, path: str, fs=None, later: bool = False) -> None:
        self.path = path
        self.temp = path + ".tmp"
        self._fs = fs if fs is not None else _OsFs()
        self.later = later
        self.waiting: bytes | None = None  # later: the file to write (b"": remove it) until written

    def _read(self, path: str):
        try:
            with self._fs.open(path, "rb") as f:
                return decode(f.read())
        except OSError:
            return None

    def load(self, default=None):
        """The last completely saved state (or the one waiting to be written), else `default`."""
        waiting = self.waiting
        if waiting is not None:
            return decode(waiting) if waiting else default
        state = self._read(self.path)
        if state is None:
            state = self._read(self.temp)
        return default if state is None else state

    def save(self, state) -> None:
        """Replace the saved state; the old one stays loadable until the new one is whole."""
        self._put(encode(state))

    def clear(self) -> None:
        """Forget the saved state."""
        self._put(b"")

    def _put(self, data: bytes) -> None:
        if self.later:
            self.waiting = data
            return
        for _ in self._writing(data):
            pass

    def steps(self):
        """Write what waits, one flash operation per step (a generator; see the module docstring)."""
        data = self.waiting
        if data is None:
            return
        yield from self._writing(data)
        if self.waiting is data:  # a save made between two steps still waits
            self.waiting = None

    def _writing(self, data: bytes):
        fs = self._fs
        if not data:
            try:
                fs.remove(self.path)
                yield
            except OSError:
                pass
            try:
                fs.remove(self.temp)
            except OSError:
                pass
            return
        with fs.open(self.temp, "wb") as f:
            f.write(data)
        yield
        try:
            fs.rename(self.temp, self.path)
        except OSError:
            # FAT cannot rename over an existing file: remove first. Until the
            # rename lands, load() finds the whole temp file.
            fs.remove(self.path)
            yield
            fs.rename(self.temp, self.path)
