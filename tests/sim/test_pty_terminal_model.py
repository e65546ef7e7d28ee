"""The tests' VT model reads a terminal's output as a terminal does: as one stream, however the
reads happen to cut it. A loaded machine cut a clock frame between "\\x1b[" and "H"; the model
then drew the frame from the cursor's row, not from the top, and a test saw 21 lines scroll
that the person at the terminal never saw."""
import io
import os

from hypothesis import given, settings
from hypothesis import strategies as st
from pty_terminal import Terminal

from propctl.props.clock.screen import Screen


def screen_output(events):
    """What the clock sim writes to an 80x24 terminal for a few frames and `events`."""
    out = io.StringIO()
    screen = Screen(out, "ghost clock, virtual pico: dc motor, piezo chime – ½ speed", False,
                    lambda: os.terminal_size((80, 24)))
    for i, line in enumerate(events):
        screen.update({"angle_mdeg": 15000 * i, "state": "turning", "direction": 1, "left_ms": 0,
                       "round": 1, "t": 100 * i})
        screen.event(line)
    return out.getvalue().encode("utf-8")


def fed(data, cuts):
    term = Terminal(80, 24)
    start = 0
    for cut in sorted(set(cuts)) + [len(data)]:
        term.feed(data[start:cut])
        start = cut
    return term


# event lines as the sim gives them to the screen: control characters escaped (describe)
LINES = st.text(st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=60)


@settings(max_examples=150)
@given(st.lists(LINES, min_size=1, max_size=6), st.data())
def test_any_cut_of_the_stream_draws_the_same_screen(events, data):
    stream = screen_output(events)
    cuts = data.draw(st.lists(st.integers(0, len(stream)), max_size=40))
    whole, pieces = fed(stream, []), fed(stream, cuts)
    assert pieces.text() == whole.text()
    assert (pieces.scrolled, pieces.overlong) == (whole.scrolled, whole.overlong) == (0, 0)


def test_a_frame_cut_inside_its_cursor_home_is_still_drawn_from_the_top():
    stream = screen_output(["hand starts: round 1, seed 3"] * 3)
    last_home = stream.rindex(b"\x1b[H")
    for cut in (last_home + 1, last_home + 2):  # after "\x1b", after "\x1b["
        term = fed(stream, [cut])
        assert term.scrolled == 0, cut
        assert term.text() == fed(stream, []).text()


def test_a_character_cut_between_its_bytes_is_one_character():
    term = fed("½ x".encode("utf-8"), [1])
    assert term.text().splitlines()[0] == "½ x"
