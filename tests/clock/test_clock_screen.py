"""The clock sim's screen: redrawn for a resized terminal (grown or shrunk), the log beside the face
where there is room, one clock per log line."""
import fcntl
import io
import os
import re
import struct
import termios
from types import SimpleNamespace

from pty_terminal import Terminal, after_power_up, read_until, spawn, stop

from propctl.props.clock import sim as clock


def resize(fd, cols, rows):
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


def face_rows(term):
    """Rows of the screen that hold the face's 12 and 6 (the top and bottom of the face)."""
    lines = term.text().split("\n")
    top = [i for i, line in enumerate(lines) if re.search(r"(^|\s)12(\s|$)", line)]
    bottom = [i for i, line in enumerate(lines) if re.search(r"\s6(\s|$)", line) and "board time" not in line]
    return top, bottom


def test_a_resized_terminal_is_drawn_anew():
    term = Terminal(80, 24)
    pid, fd = spawn(80, 24, "sim", "clock", "--speed", "4", "--mute", "--seed", "3")
    try:
        assert read_until(fd, term, after_power_up, 60), term.text()
        for cols, rows in ((60, 18), (120, 40), (80, 24)):
            resize(fd, cols, rows)
            term = Terminal(cols, rows)  # the sim clears the screen for a new size
            assert read_until(fd, term, lambda t: "q: quit" in t.text() and face_rows(t)[1], 20), term.text()
            # a frame drawn just before the sim saw the new size may land in it: from now on
            # every frame is drawn for the new size
            read_until(fd, term, lambda t: False, 0.5)
            term.scrolled = term.overlong = 0
            read_until(fd, term, lambda t: False, 0.5)
            top, bottom = face_rows(term)
            assert top and bottom, term.text()  # the whole face: its top is not cut
            assert term.overlong == 0 and term.scrolled == 0, term.text()
            assert all(len(line) < cols for line in term.text().split("\n"))
            status = [line for line in term.text().split("\n") if "board time" in line]
            assert len(status) == 1 and status[0].startswith("  idle"), term.text()
            if rows == 40:
                assert bottom[0] - top[0] > 15  # grown: a bigger face
        os.write(fd, b"\x03")  # Ctrl-C is quit: the summary, exit 0
        assert read_until(fd, term, lambda t: "done:" in t.text(), 30), term.text()
        _, status = os.waitpid(pid, 0)
        assert os.WEXITSTATUS(status) == 0
    finally:
        stop(pid, fd)


def screen_with_events(count):
    screen = clock.Screen(io.StringIO(), "ghost clock, virtual pico: dc motor, piezo chime", False)
    screen.events = [clock.describe({"event": "reverse", "t": 1000 * i, "direction": 1, "at_ms": 500 * i})
                     for i in range(count)]
    return screen


def test_at_80x24_the_log_shows_more_than_five_events():
    screen = screen_with_events(30)
    lines = screen.lines(80, 24)
    shown = [line for line in lines if "reverses" in line]
    assert len(shown) >= 12, "\n".join(lines)
    assert len(lines) == 23 and all(len(line) < 80 for line in lines)
    assert "29.00 s" in lines[-3] or any("29.00 s" in line for line in lines)  # the newest is shown


def test_a_small_terminal_still_shows_a_whole_face_and_three_events():
    lines = screen_with_events(30).lines(60, 18)
    assert len(lines) == 17 and all(len(line) < 60 for line in lines)
    assert sum("reverses" in line for line in lines) >= 3
    assert any("12" in line for line in lines[:3])


def test_a_reverse_line_has_one_clock():
    line = clock.describe({"event": "reverse", "t": 23600, "direction": 1, "at_ms": 15000})
    assert line.count(" s") == 1 and "23.60 s" in line and "15.0" not in line, line


def test_the_sims_summary_is_unchanged_by_the_layout():
    args = SimpleNamespace(seed=3, speed=0)
    assert clock.info_lines({"board": "pico", "motor": "dc", "bridge": "drv8833", "chime": "piezo"},
                            args)[0].startswith("ghost clock on a virtual pico board")
