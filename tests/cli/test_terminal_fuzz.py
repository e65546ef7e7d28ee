"""Every interactive command through a pseudo-terminal, typed at by a key fuzzer: random bytes,
bytes that are not UTF-8, escape sequences (arrows, function keys, a bracketed paste, a mouse
report, a title), pasted floods and resizes. No traceback, no exit but the user's, and once the
terminal holds still, nothing drawn past its edge or scrolled away (the sims draw in place).

Bounded and seeded: each command is typed at for FUZZ_S seconds with a seed of its own."""
import fcntl
import os
import random
import select
import struct
import termios
import time

import pytest
from pty_terminal import Terminal, read_until, spawn, stop
from waits import WAIT_S

FUZZ_S = 2.0
SIZES = [(80, 24), (120, 40)]
RESIZES = [(80, 24), (120, 40), (60, 18), (100, 30)]

# Keys a person uses to leave, and keys a cooked terminal turns into signals (the game masters:
# Ctrl-C asks to save, Ctrl-Z would suspend, Ctrl-\ quit): the fuzzer never types them; the tests
# of each command press them on purpose.
NEVER = set(b"qQ\x03\x04\x1a\x1c")
SEQUENCES = [b"\x1b[A", b"\x1b[B", b"\x1b[1;5C", b"\x1bOP", b"\x1b[15~", b"\x1b[2~", b"\x1b[H",
             b"\x1b[200~pasted 1,3 text\x1b[201~", b"\x1b[<0;10;5M", b"\x1b]0;title\x07", b"\x1b",
             b"\x1b\x1b", b"\x1b[", b"\x1b[99999999999999999999999999999999999999m",
             # the keys of line editing: arrows, Home/End (CSI and SS3 forms), Ctrl-U, Ctrl-W
             b"\x1b[D", b"\x1b[C", b"\x1b[F", b"\x1bOH", b"\x1bOF", b"\x1b[1~", b"\x1b[4~", b"\x15",
             b"\x17", b"12\x1b[D\x1b[D3\x1b[F4\r"]
INVALID = [b"\xc3(", b"\xff\xfe", b"\xed\xa0\x80", b"\xc2", b"\xf0\x28\x8c\x28", b"\xc0\xaf", "²³".encode()]

COMMANDS = {
    "sim clock": (["sim", "clock", "--mute", "--seed", "3", "--speed", "2"], "q: quit"),
    "sim fusebox": (["sim", "fusebox", "--lang", "en", "--mute"], "g new game"),
    "sim football": (["sim", "football", "--mute", "--seed", "4"], "q  quit"),
    "play pimaldaumen": (["play", "pimaldaumen", "--players", "Ann,Bo", "--lang", "en", "--seed", "3"],
                         "your answer"),
    "play fingerfootball": (["play", "fingerfootball", "--seed", "4"], "Referee"),
}


class ResizableTerminal(Terminal):
    """The VT model, resized as a terminal window is (its content kept where it fits)."""

    def resize(self, cols, rows):
        grid = [[" "] * cols for _ in range(rows)]
        for y in range(min(rows, self.rows)):
            grid[y][:min(cols, self.cols)] = self.grid[y][:min(cols, self.cols)]
        self.grid, self.cols, self.rows = grid, cols, rows
        self.x, self.y = min(self.x, cols - 1), min(self.y, rows - 1)


def chunk(rng):
    """One burst of typing."""
    kind = rng.random()
    if kind < 0.35:
        data = bytes(rng.randrange(0x20, 0x7f) for _ in range(rng.randint(1, 6)))
    elif kind < 0.5:
        data = bytes(rng.randrange(0, 256) for _ in range(rng.randint(1, 6)))
    elif kind < 0.7:
        data = rng.choice(SEQUENCES)
    elif kind < 0.8:
        data = rng.choice(INVALID)
    elif kind < 0.9:
        data = rng.choice([b"\r", b"\n", b"\x7f", b"\x15", b"\t"])
    else:  # a pasted flood
        data = bytes(rng.randrange(0x20, 0x7f) for _ in range(rng.randint(40, 120)))
    return bytes(b for b in data if b not in NEVER)


def set_size(fd, cols, rows):
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


def drain(fd, term, seconds):
    read_until(fd, term, lambda t: False, seconds)


ENDED: dict = {}  # pid -> wait status, once reaped


def alive(pid):
    if pid not in ENDED:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            ENDED[pid] = status
    return pid not in ENDED


@pytest.mark.parametrize("cols,rows", SIZES, ids=["%dx%d" % s for s in SIZES])
@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_key_fuzzer_ends_nothing(name, cols, rows, tmp_path):
    argv, ready = COMMANDS[name]
    if name.startswith("play"):
        argv = argv + ["--save", str(tmp_path / "save.json")]
    sim = name.startswith("sim")
    rng = random.Random("%s %dx%d" % (name, cols, rows))
    term = ResizableTerminal(cols, rows)
    raw = []
    pid, fd = spawn(cols, rows, *argv)
    try:
        assert read_until(fd, term, lambda t: ready in t.text(), 60), term.text()
        end = time.monotonic() + FUZZ_S
        while time.monotonic() < end:
            if rng.random() < 0.08:
                size = rng.choice(RESIZES)
                set_size(fd, *size)
                term.resize(*size)
            else:
                os.write(fd, chunk(rng))
            ready_now, _, _ = select.select([fd], [], [], rng.choice([0, 0.01, 0.05]))
            if ready_now:
                data = os.read(fd, 65536)
                raw.append(data)
                term.feed(data)
            assert alive(pid), "%s ended under the fuzzer:\n%s" % (name, term.text())
        # the terminal holds still at its own size: from here on nothing may pass its edge
        set_size(fd, cols, rows)
        term.resize(cols, rows)
        drain(fd, term, 0.6)
        term.scrolled = term.overlong = 0
        os.write(fd, b"\x1b")  # out of any prompt
        drain(fd, term, 0.6)
        assert alive(pid), "%s ended under the fuzzer:\n%s" % (name, term.text())
        if sim:
            assert term.overlong == 0 and term.scrolled == 0, term.text()
            os.write(fd, b"q")
        else:
            os.write(fd, b"\x11\x15\nquit\n")  # XON: a Ctrl-S among the bytes stopped the output
            assert read_until(fd, term, lambda t: "[Y/n]" in t.text(), 20), term.text()
            os.write(fd, b"n\n")
        deadline = time.monotonic() + WAIT_S
        while alive(pid) and time.monotonic() < deadline:
            drain(fd, term, 0.2)
        status = ENDED.get(pid)
        if status is None:
            _, status = os.waitpid(pid, 0)
        text = b"".join(raw).decode("utf-8", "replace") + term.text()
        assert "Traceback" not in text, text[-3000:]
        if not sim:  # an answer is echoed escaped when refused: no escape byte may reach one
            assert "\\u001b" not in text and "\\x1b" not in text, text[-3000:]
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, (status, term.text())
    finally:
        stop(pid, fd)
