"""A sim at a terminal ended by SIGTERM or SIGHUP cleans up as a normal end and Ctrl-C do: the
terminal's mode and cursor back, the runner and the piezo's player stopped, no temporary folder
(propctl-sim-*, propctl-sound-*, a packed deck's) left behind.

The piezo's player is a fake `aplay` first on PATH: it takes the stream and notes its pid."""
import fcntl
import os
import pty
import select
import signal
import struct
import sys
import termios
import time
from pathlib import Path

import pytest
from pty_terminal import Terminal, read_until, stop
from test_fusebox_sim import bolt_window
from waits import WAIT_S

CARD = "GEO-01"


def spawn(tmp_path, *args):
    """The sim on a pseudo-terminal (80x24), its temporary files in tmp_path/tmp, a fake aplay."""
    (tmp_path / "tmp").mkdir()
    (tmp_path / "bin").mkdir()
    fake = tmp_path / "bin" / "aplay"
    fake.write_text('#!/bin/sh\necho $$ >> "%s"\nexec cat > /dev/null\n' % (tmp_path / "players"))
    fake.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env.update(TERM="xterm", TMPDIR=str(tmp_path / "tmp"),
               PATH=str(tmp_path / "bin") + os.pathsep + env.get("PATH", ""))
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe(sys.executable, [sys.executable, "-m", "propctl.cli", *args], env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    return pid, fd


def children(pid):
    """The pids whose parent is pid (from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path("/proc", entry, "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found


def alive(pid):
    try:
        stat = Path("/proc", str(pid), "stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def ended_by(signum, pid, fd, term, tmp_path):
    """Send signum to the sim; check what it left behind."""
    before = children(pid)
    assert before, "the sim runs no runner"
    termios_in_run = termios.tcgetattr(fd)
    assert not termios_in_run[3] & termios.ICANON  # the sim has the keys one at a time
    os.kill(pid, signum)
    last = b""  # what it writes on its way out
    while True:
        data = b""
        if select.select([fd], [], [], 10)[0]:
            try:
                data = os.read(fd, 65536)
            except OSError:  # the sim has gone: nothing more to read
                data = b""
        if not data:
            break
        last += data
    _, status = os.waitpid(pid, 0)
    assert os.listdir(tmp_path / "tmp") == []
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 128 + signum, status  # after its clean-up
    deadline = time.monotonic() + WAIT_S
    while any(alive(child) for child in before) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [child for child in before if alive(child)]  # runner and player
    attrs = termios.tcgetattr(fd)
    assert attrs[3] & termios.ICANON and attrs[3] & termios.ECHO  # the terminal's mode is back
    assert last.rfind(b"\x1b[?25h") > last.rfind(b"\x1b[?25l"), last[-200:]  # the cursor is shown


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_the_fuse_box_buzzing_ended_by_a_signal_leaves_nothing(signum, tmp_path):
    bolt = bolt_window(CARD)
    term = Terminal(80, 24)
    pid, fd = spawn(tmp_path, "sim", "fusebox", "--lang", "en")
    try:
        assert read_until(fd, term, lambda t: "keys: 1-8" in t.text(), 60), term.text()
        os.write(fd, b"s")
        assert read_until(fd, term, lambda t: "card id:" in t.text(), 20), term.text()
        os.write(fd, CARD.encode() + b"\n")
        assert read_until(fd, term, lambda t: "card %s in the box" % CARD in t.text(), 20), term.text()
        os.write(fd, str(bolt).encode())
        assert read_until(fd, term, lambda t: "FUSE BLOWN" in t.text(), 20), term.text()
        players = tmp_path / "players"
        assert read_until(fd, term, lambda t: players.exists() and players.read_text().strip(), 10)
        ended_by(signum, pid, fd, term, tmp_path)
    finally:
        stop(pid, fd)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")
@pytest.mark.parametrize("prop,shown", [("clock", "board time"), ("football", "Finger Football box")])
def test_the_clock_and_football_ended_by_sigterm_leave_nothing(prop, shown, tmp_path):
    term = Terminal(80, 24)
    pid, fd = spawn(tmp_path, "sim", prop)
    try:
        assert read_until(fd, term, lambda t: shown in t.text(), 60), term.text()
        ended_by(signal.SIGTERM, pid, fd, term, tmp_path)
    finally:
        stop(pid, fd)
