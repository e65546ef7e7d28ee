"""The terminal sims driven through a pseudo-terminal as a person would, at 80x24 and 120x40.

The screen is replayed with the small VT model of tests/pty_terminal.py, so the tests see
what the person sees: nothing drawn past the terminal, nothing scrolled away, no stale borders."""
import os
import re
import select
import subprocess
import sys
import time

import pytest
from pty_terminal import Terminal, after_power_up, read_until, spawn, stop

from propctl.props.clock.plan import plan_points, round_svg, svg, table
from propctl.shared.rules.geisteruhr import plan_motion


@pytest.mark.parametrize("cols,rows", [(80, 24), (120, 40)])
def test_clock_sim_in_a_terminal(cols, rows):
    term = Terminal(cols, rows)
    pid, fd = spawn(cols, rows, "sim", "clock", "--speed", "16", "--mute", "--seed", "3",
                    "--set", 'clock.limits={"round_min_ms": 3000, "round_max_ms": 5000}')
    try:
        assert read_until(fd, term, after_power_up, 60), term.text()
        screen = term.text()
        assert "12" in screen and " 6" in screen and "idle" in screen
        assert "time left" not in screen  # the plan stays hidden without --show-plan
        os.write(fd, b" ")
        assert read_until(fd, term, lambda t: "round 1" in t.text(), 30), term.text()
        assert not re.search(r"segments|\d s$", term.text().split("hand starts: round 1")[-1].split("\n")[0])
        assert read_until(fd, term, lambda t: "CHIME" in t.text(), 60), term.text()
        assert term.scrolled == 0 and term.overlong == 0, term.text()
        os.write(fd, b"q")
        read_until(fd, term, lambda t: "done:" in t.text(), 30)
        _, status = os.waitpid(pid, 0)
        assert os.WEXITSTATUS(status) == 0, term.text()
        assert "done:" in term.text()
        assert term.overlong == 0
    finally:
        stop(pid, fd)


def test_holding_space_is_the_emergency_stop():
    term = Terminal(80, 24)
    pid, fd = spawn(80, 24, "sim", "clock", "--speed", "2", "--mute", "--seed", "3")
    try:
        assert read_until(fd, term, after_power_up, 60), term.text()
        os.write(fd, b" ")
        assert read_until(fd, term, lambda t: "hand starts: round 1" in t.text(), 30), term.text()
        # the start press let go (no repeat came: the sim says "up"), then a held key repeats
        assert read_until(fd, term, lambda t: "button released" in t.text(), 30), term.text()
        # (a space every 50 ms at most) until the box stops, as a person holds
        # it: the hold ends when the estop shows, not after a fixed time (a loaded host may stretch
        # one gap past a repeat, which the sim takes for a release, and the hold starts again)
        end = time.monotonic() + 60
        while "estop" not in term.text():
            assert time.monotonic() < end, term.text()
            os.write(fd, b" ")
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                term.feed(os.read(fd, 65536))
        read_until(fd, term, lambda t: False, 1)  # a board second on: still no chime
        assert "CHIME" not in term.text()
        os.write(fd, b"q")
        assert read_until(fd, term, lambda t: "done:" in t.text(), 30), term.text()
    finally:
        stop(pid, fd)


def test_plan_table_and_svg(tmp_path):
    done = subprocess.run([sys.executable, "-m", "propctl.cli", "plan", "--seed", "3",
                           "--svg", str(tmp_path / "p.svg")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    plan = plan_motion(3)
    assert done.stdout.splitlines()[:len(plan) + 2] == table(plan)
    picture = (tmp_path / "p.svg").read_text()
    stop = sum(d for d, _ in plan)
    assert picture.startswith("<svg") and "stop and chime" in picture
    assert "stop after %.2f s" % (stop / 1000) in done.stdout
    speed, angle, end = plan_points(plan)
    assert end == stop and angle[-1][0] == stop


def test_a_played_round_makes_the_same_kind_of_picture():
    frames = [{"t": 1000 + 100 * i, "angle_mdeg": 12000 * i} for i in range(20)]
    events = [{"event": "start", "t": 1000, "seed": 9}, {"event": "stop", "t": 2900},
              {"event": "chime", "t": 3000}]
    picture = round_svg(frames, events)
    assert picture.count('class="mark"') == 2 and "seed 9" in picture
    assert svg([(0, 0)], [(0, 0)], [], "x").count("<polyline") == 2


class _Tty:
    def isatty(self):
        return True


def test_a_dumb_terminal_gets_the_event_log_not_a_drawn_screen(monkeypatch):
    # Before: TERM=dumb (Emacs' shell, some IDE consoles) got the full-screen drawing, cursor
    # moves and clears the terminal cannot do, printed as garbage
    from propctl.sim import runner
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setattr(runner.sys, "stdin", _Tty())
    monkeypatch.setattr(runner.sys, "stdout", _Tty())
    monkeypatch.setenv("TERM", "xterm-256color")
    assert runner.interactive_default() is True
    monkeypatch.setenv("TERM", "dumb")
    assert runner.interactive_default() is False
