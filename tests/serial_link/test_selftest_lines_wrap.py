"""Every line the self-test prints fits the terminal, broken between words.

Before: at 80x24 the summary table wrapped, but the lines said during the steps ran to 145
columns, e.g. "window 3: no change seen on GP6 (pin 9), but window 4's input GP7 (pin 10)
changed: the wires of window 3 and window 4 are swapped at the board".
"""
import pytest
from test_selftest_vboard import MISWIRED_CLOCK, MISWIRED_FUSEBOX, compiled, run_selftest  # noqa: F401

from propctl.serial_link import selftest
from propctl.termtext import cells

pytestmark = pytest.mark.slow


# each miswired board once (a self-test run takes 12-18 s), at 80 columns and at a narrower 60
@pytest.mark.parametrize("prop, world, columns",
                         [("fusebox", MISWIRED_FUSEBOX, 80), ("clock", MISWIRED_CLOCK, 60)])
def test_every_line_fits_the_terminal(compiled, tmp_path, capsys, monkeypatch, prop, world,  # noqa: F811
                                      columns):
    monkeypatch.setattr(selftest, "width_now", lambda: columns - 1)
    code, out, _ = run_selftest(compiled, tmp_path, capsys, prop, world)
    assert code == 1
    lines = out.splitlines()
    assert max(cells(line) for line in lines) <= columns - 1, "\n".join(
        line for line in lines if cells(line) > columns - 1)
    words = " ".join(out.split())
    if prop == "fusebox":  # broken between words: the sentence reads whole when joined
        assert ("window 3: no change seen on GP6 (pin 9), but window 4's input GP7 (pin 10) changed: "
                "the wires of window 3 and window 4 are swapped at the board") in words
    else:
        assert "the motor's leads are reversed" in words


def test_say_wraps_with_a_hanging_indent(capsys, monkeypatch):
    monkeypatch.setattr(selftest, "width_now", lambda: 30)
    selftest.say("  window 3: no change seen on GP6 (pin 9), but window 4's input changed")
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) > 1 and all(cells(line) <= 30 for line in lines)
    assert lines[0].startswith("  window 3:") and all(line.startswith("    ") for line in lines[1:])
