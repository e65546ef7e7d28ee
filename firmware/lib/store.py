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
    """FNV-1a, 32 bits: cheap on a microcontroller, catches a torn write."""
    value = 0x811C9DC5
    for byte in data:
        value = ((value ^ byte) * 0x01000193) & 0xFFFFFFFF
    return value


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

    def __init__(self, path: str, fs=None) -> None:
        self.path = path
        self.temp = path + ".tmp"
        self._fs = fs if fs is not None else _OsFs()

    def _read(self, path: str):
        try:
            with self._fs.open(path, "rb") as f:
                return decode(f.read())
        except OSError:
            return None

    def load(self, default=None):
        """The last completely saved state, else `default`."""
        state = self._read(self.path)
        if state is None:
            state = self._read(self.temp)
        return default if state is None else state

    def save(self, state) -> None:
        """Replace the saved state; the old one stays loadable until the new one is whole."""
        data = encode(state)
        with self._fs.open(self.temp, "wb") as f:
            f.write(data)
        try:
            self._fs.rename(self.temp, self.path)
        except OSError:
            # FAT cannot rename over an existing file: remove first. Until the
            # rename lands, load() finds the whole temp file.
            self._fs.remove(self.path)
            self._fs.rename(self.temp, self.path)

    def clear(self) -> None:
        """Forget the saved state."""
        for path in (self.path, self.temp):
            try:
                self._fs.remove(path)
            except OSError:
                pass
