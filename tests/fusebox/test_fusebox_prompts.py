"""The fuse-box sim's screen and prompts at an 80x24 terminal, as a family meets them: the card's
eight statements readable from the start, the title kept while discs are awaited, and every
prompt left with Esc, Ctrl-C or an empty Enter, whatever bytes are typed into it."""
import os
import time

from pty_terminal import Terminal, read_until, spawn, stop
from test_fusebox_sim import bolt_window, sim

CARD = "GEO-01"
STATEMENTS = ("Lebanon", "Montenegro", "Tunisia", "Albania", "Bulgaria", "Libya", "Slovenia", "Malta")


def prompt_row(term):
    return term.text().split("\n")[term.rows - 2]


def settle(fd, term, seconds=0.4):
    read_until(fd, term, lambda t: False, seconds)


def test_prompts_can_be_left_and_the_board_plays_on():
    term = Terminal(80, 24)
    pid, fd = spawn(80, 24, "sim", "fusebox", "--lang", "en", "--mute")
    try:
        assert read_until(fd, term, lambda t: "g new game" in t.text(), 60), term.text()
        # Esc leaves the question, is not echoed and eats nothing: the next g asks again
        os.write(fd, b"g")
        assert read_until(fd, term, lambda t: "players (2-8):" in prompt_row(t), 10), term.text()
        os.write(fd, b"\x1b")
        assert read_until(fd, term, lambda t: "players" not in prompt_row(t), 10), term.text()
        assert "^[" not in term.text()
        os.write(fd, b"g")
        assert read_until(fd, term, lambda t: "players (2-8):" in prompt_row(t), 10), term.text()
        os.write(fd, b"3\r")
        assert read_until(fd, term, lambda t: "3 players, player 1 starts" in t.text(), 10), term.text()
        # Ctrl-C leaves a question, not the sim; an empty Enter sends nothing
        for leave in (b"\x03", b"\r"):
            os.write(fd, b"s")
            assert read_until(fd, term, lambda t: "card id:" in prompt_row(t), 10), term.text()
            os.write(fd, leave)
            assert read_until(fd, term, lambda t: "card id" not in prompt_row(t), 10), term.text()
        # bytes that are not UTF-8 (c3 28) are dropped, the rest is typed; an arrow key is no letter
        os.write(fd, b"s")
        assert read_until(fd, term, lambda t: "card id:" in prompt_row(t), 10), term.text()
        os.write(fd, b"\xc3(\x1b[D\r")
        settle(fd, term)
        assert "refused" in term.text() and "(" in term.text()
        os.write(fd, b"s" + CARD.encode() + b"\r")
        assert read_until(fd, term, lambda t: "card %s in the box" % CARD in t.text(), 10), term.text()
        # every statement is readable through the closed windows
        screen = term.text()
        assert all(s in screen for s in STATEMENTS), screen
        assert "####" not in screen
        assert screen.count("refused") == 1  # only the "(" typed at the first card id
        safe = 1 if bolt_window(CARD) != 1 else 2
        os.write(fd, str(safe).encode())
        assert read_until(fd, term, lambda t: "waiting for the discs" in t.text(), 10), term.text()
        settle(fd, term)
        # the title stays on top and nothing scrolled or ran past the edge
        assert term.text().startswith("Finger weg! fuse box"), term.text()
        assert term.scrolled == 0 and term.overlong == 0
        # a refusal in the players' words: player 1 chose the statement
        os.write(fd, b"r1\r")
        assert read_until(fd, term, lambda t: "player 1 chose this statement" in t.text(), 10), term.text()
        assert "seat" not in term.text()
        os.write(fd, b"q")
        _, status = os.waitpid(pid, 0)
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, term.text()
        assert "stopped" not in term.text()
    finally:
        stop(pid, fd)


def test_sensor_chatter_on_a_shut_window_leaves_it_shut():
    done = sim("--script", "-", stdin="game 3\nselect %s\nchatter 4\nstate\n" % CARD)
    assert done.returncode == 0, done.stderr
    assert "window 4 opened" not in done.stdout and "window 4 is safe" not in done.stdout
    assert "waiting for the discs" not in done.stdout
    assert "  4 closed " in done.stdout


def test_chatter_on_an_open_window_leaves_it_open():
    safe = 1 if bolt_window(CARD) != 1 else 2
    done = sim("--script", "-", stdin="game 3\nselect %s\nopen %d\nchatter %d\nstate\n" % (CARD, safe, safe))
    assert done.returncode == 0, done.stderr
    assert "  %d open " % safe in done.stdout
    assert done.stdout.count("window %d closed" % safe) == 0


def test_a_prompt_waits_while_board_time_stands_still():
    term = Terminal(80, 24)
    pid, fd = spawn(80, 24, "sim", "fusebox", "--lang", "en", "--mute")
    try:
        assert read_until(fd, term, lambda t: "g new game" in t.text(), 60), term.text()
        os.write(fd, b"c")
        assert read_until(fd, term, lambda t: "window (1-8):" in prompt_row(t), 10), term.text()
        before = term.text()
        time.sleep(1.5)
        settle(fd, term, 0.3)
        assert term.text() == before  # nothing moved: board time stands still while asked
        os.write(fd, b"\x1b")
        assert read_until(fd, term, lambda t: "window (1-8)" not in prompt_row(t), 10), term.text()
        os.write(fd, b"\x03")  # Ctrl-C outside a prompt leaves, as q does
        _, status = os.waitpid(pid, 0)
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, term.text()
    finally:
        stop(pid, fd)


def test_the_log_shows_no_code_names():
    from propctl.props.clock import sim as clock
    from propctl.props.football import sim as football
    from propctl.props.fusebox import sim as fusebox
    lines = [fusebox.describe({"type": "event", "event": "fuse_blown", "t": 1000, "window": 3}),
             fusebox.describe({"type": "event", "event": "sensor_fault", "t": 1000, "window": 3,
                               "fault": "flicker"}),
             football.describe({"type": "event", "event": "kick_result", "t": 1000, "kind": "field_goal",
                                "good": True}),
             clock.describe({"type": "event", "event": "battery_low", "t": 1000, "mv": 3000, "min_mv": 3600})]
    assert all("_" not in line for line in lines), lines
