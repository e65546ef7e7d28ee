"""A sim run as a person runs it: a pseudo-terminal of a given size, and a small VT model
(cursor moves, erase, scrolling) of what that person sees on it, for the tests that drive
`propctl sim ...` through a terminal."""
import codecs
import fcntl
import os
import pty
import re
import select
import struct
import sys
import termios
import time

ESCAPE = re.compile(r"\x1b\[([?0-9;]*)([A-Za-z])|\x1b.|([^\x1b])", re.S)
UNFINISHED = re.compile(r"\x1b(\[[?0-9;]*)?\Z")  # an escape sequence the next read goes on with


class Terminal:
    """Just enough of a VT100 for the sims' output: text, CR, LF, CSI H/A/J/K, cursor show/hide.

    It reads the output as one stream, as a terminal does: a read may end inside a character's
    bytes or an escape sequence, and the next read goes on with it."""

    def __init__(self, cols, rows):
        self.cols, self.rows = cols, rows
        self.grid = [[" "] * cols for _ in range(rows)]
        self.x = self.y = 0
        self.scrolled = 0       # lines pushed off the top (into scrollback)
        self.overlong = 0       # characters written past the right edge
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self.pending = ""       # the start of an escape sequence a read ended in

    def feed(self, data: bytes):
        text = self.pending + self.decoder.decode(data)
        unfinished = UNFINISHED.search(text)
        self.pending = unfinished.group(0) if unfinished else ""
        text = text[:len(text) - len(self.pending)]
        for m in ESCAPE.finditer(text):
            if m.group(3) is not None:
                self.char(m.group(3))
                continue
            args, cmd = m.group(1) or "", m.group(2)
            n = int(args) if args.isdigit() else 1
            if cmd == "H":
                parts = [int(p) if p else 1 for p in args.split(";")] if args else [1, 1]
                # a terminal keeps the cursor on its screen, as a real one does
                self.y = max(0, min(self.rows - 1, parts[0] - 1))
                self.x = max(0, min(self.cols - 1, parts[1] - 1 if len(parts) > 1 else 0))
            elif cmd == "A":
                self.y = max(0, self.y - n)
            elif cmd == "J" and args in ("2", "3"):
                self.grid = [[" "] * self.cols for _ in range(self.rows)]
            elif cmd == "K":
                self.grid[self.y][self.x:] = [" "] * (self.cols - self.x)

    def char(self, ch):
        if ch == "\r":
            self.x = 0
        elif ch == "\n":
            self.y += 1
            if self.y == self.rows:
                self.grid.pop(0)
                self.grid.append([" "] * self.cols)
                self.y -= 1
                self.scrolled += 1
        elif ch == "\a" or ch < " ":
            pass
        else:
            if self.x >= self.cols:
                self.overlong += 1
                return
            self.grid[self.y][self.x] = ch
            self.x += 1

    def text(self):
        return "\n".join("".join(row).rstrip() for row in self.grid)


def spawn(cols, rows, *args):
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe(sys.executable, [sys.executable, "-m", "propctl.cli", *args],
                   dict({k: v for k, v in os.environ.items() if k != "CI"}, TERM="xterm"))  # CI: log mode
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    return pid, fd


def chunks(fd, timeout, poll=0.1):
    """What the sim writes to `fd`, as it comes (b"" when nothing came within `poll` seconds),
    until `timeout` seconds (a failsafe bound) have passed or the sim has closed the terminal."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], poll)
        if not ready:
            yield b""
            continue
        try:
            data = os.read(fd, 65536)
        except OSError:
            return
        if not data:
            return
        yield data


def read_until(fd, term, done, timeout):
    """Feed `term` what the sim writes until done(term); False if it never was (or the sim ended)."""
    for data in chunks(fd, timeout):
        term.feed(data)
        if done(term):
            return True
    return False


def after_power_up(term):
    """The board has run a second: the firmware takes a button held since power-up for no press."""
    found = re.search(r"board time (\d+\.\d) s", term.text())
    return found is not None and float(found.group(1)) >= 1.0


def stop(pid, fd):
    try:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    except (ProcessLookupError, ChildProcessError):
        pass
    os.close(fd)
