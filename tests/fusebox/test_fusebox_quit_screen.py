"""Reported: "after q the fuse-box sim's header scrolls off". Not reproduced (12-03): in
tmux at 80x24 (a shell with 40 lines above, direct and through `make sim-fusebox`, keys 1, n,
2, b, a game with a card chosen by id and reports up to the bolt, then q or Ctrl-C) and over a
pseudo-terminal, the panel stays and the shell's prompt comes on the last row. This holds what
was seen: after q the sim writes only the cursor's move to the last row (cleared) and the
cursor back, so nothing it prints pushes the header up; the next line the shell writes does,
as after any program that draws the whole screen without the alternate screen.
"""
import os

from pty_terminal import Terminal, chunks, read_until, spawn, stop
from waits import WAIT_S


def test_after_q_the_fuse_box_panel_stays_whole_at_80x24():
    term = Terminal(80, 24)
    pid, fd = spawn(80, 24, "sim", "fusebox", "--mute")
    try:
        assert read_until(fd, term, lambda t: "board time" in t.text(), 60), term.text()
        for key in (b"1", b"n", b"g", b"3\r", b"2", b"\x1b[A", b"x"):
            os.write(fd, key)
            read_until(fd, term, lambda t: False, 0.5)
        header = term.text().split("\n")[0]
        assert header.startswith("Finger weg! fuse box on a virtual pico board")
        os.write(fd, b"q")
        after = b"".join(chunks(fd, WAIT_S))  # all it writes until it closes the pty
        _, status = os.waitpid(pid, 0)
        pid = None
        assert os.waitstatus_to_exitcode(status) == 0
        term.feed(after)
        assert after.endswith(b"\x1b[24;1H\x1b[K\x1b[?25h"), after[-200:]
        assert b"\n" not in after, after[-200:]
        assert term.scrolled == 0 and term.text().split("\n")[0] == header
    finally:
        if pid is not None:
            stop(pid, fd)
        else:
            os.close(fd)
