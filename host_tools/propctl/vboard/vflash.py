"""The virtual board's flash: files on the host, and every write stalls board time as a chip's does.

    fs = vflash.FlashFs(root="tmp/")           # anything store.Store and safemode.BootGuard take as fs
    store = Store("state.json", fs, later=True)
    board.flash_stall_ms = 400                 # a sector's erase and program at its worst

On a Pico (W25Q16) erasing a 4 KB sector takes typically 45 ms, at worst 400 ms,
and while MicroPython's rp2 port erases or programs the flash nothing runs from
it and interrupts are off; an ESP32 is alike. Here each flash operation moves
the board's clock on at once, with no tick, no switch scan and no output change
in between, and outputs stay as they were (a relay that was on stays on):

    writing a file        one sector (board.flash_stall_ms) for its first byte and
                          one more for every further 4 KB it grows by
    rename, remove        one sector (the directory's metadata is rewritten)
    reading               no stall

board.flash_stall_ms defaults to 45 ($VBOARD_FLASH_STALL_MS sets it for a
process); tests of deadlines use the worst case, 400. board.stalls lists
[elapsed_ms at the start, ms] of every stall, board.stalled_ms their sum.
"""
import os

import vboard

SECTOR = 4096


class _File:
    """A file opened for writing: each 4 KB it grows into costs one sector's stall."""

    def __init__(self, board, f) -> None:
        self._board = board
        self._f = f
        self._written = 0

    def write(self, data) -> int:
        before = (self._written + SECTOR - 1) // SECTOR
        self._written += len(data)
        after = (self._written + SECTOR - 1) // SECTOR
        if after > before:
            self._board.stall((after - before) * self._board.flash_stall_ms)
        return self._f.write(data)

    def close(self) -> None:
        self._f.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class FlashFs:
    """open/rename/remove on files under `root` (a path prefix), stalling the board on every
    write (see the module docstring): `board`, or the current one (vboard.current()) at each."""

    def __init__(self, root: str = "", board=None) -> None:
        self._root = root
        self._board = board

    def _on(self):
        return self._board if self._board is not None else vboard.current()

    def open(self, path: str, mode: str):
        f = open(self._root + path, mode)
        if "w" in mode or "a" in mode or "+" in mode:
            return _File(self._on(), f)
        return f

    def rename(self, old: str, new: str) -> None:
        os.rename(self._root + old, self._root + new)
        board = self._on()
        board.stall(board.flash_stall_ms)

    def remove(self, path: str) -> None:
        os.remove(self._root + path)  # OSError when there is none: nothing written, no stall
        board = self._on()
        board.stall(board.flash_stall_ms)
