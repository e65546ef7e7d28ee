"""`propctl selftest` as a person meets it: the table within 80 columns, Ctrl-C that leaves the
board idle and ready, and a plain served virtual board that says how to test it (--vboard)."""
import argparse
import json
import re
import shutil

import pytest
from test_selftest_vboard import Recording, compiled  # noqa: F401  (compiled: a fixture)
from waits import WAIT_S, wait_until

from propctl.serial_link import selftest
from propctl.serial_link.linkclient import LinkClient
from propctl.serial_link.serve import VirtualBoard

pytestmark = pytest.mark.slow

LONG = ("no change seen on GP6 (pin 9), but window 4's input GP7 (pin 10) changed: the wires of "
        "window 3 and window 4 are swapped at the board")


def test_the_summary_table_fits_80_columns():
    table = selftest.summary([("window3", "FAIL", LONG), ("led_green", "ok", "")])
    lines = table.splitlines()
    assert all(len(line) < 80 for line in lines), table
    assert lines[1].startswith("window 3   FAIL") and lines[2].startswith(" " * 19)
    detail = [line[19:] for line in lines[1:] if line.startswith(("window 3", " "))]
    assert " ".join(" ".join(detail).split()) == " ".join(LONG.split())  # every word, in order


class Interrupting(Recording):
    """A person who presses Ctrl-C at the second question."""

    def __init__(self, flash) -> None:
        super().__init__(flash)
        self.asked = 0

    def ask(self, name, question, choices):
        self.asked += 1
        if self.asked == 2:
            raise KeyboardInterrupt
        return super().ask(name, question, choices)


def serve(compiled, tmp_path, world=True):  # noqa: F811
    flash = tmp_path / "flash"
    shutil.copytree(compiled, flash)
    (flash / "config.json").write_text(json.dumps({"prop": "clock", "board": "pico"}))
    if world:
        (flash / "vboard_world.json").write_text("{}")
    return flash


def args_for(port):
    return argparse.Namespace(port=port, non_interactive=False, answers=None, vboard=None, timeout=3.0)


def test_ctrl_c_during_the_self_test_leaves_the_board_idle_and_ready(compiled, tmp_path, capsys):  # noqa: F811
    flash = serve(compiled, tmp_path)
    with VirtualBoard(flash) as vb:
        try:
            code = selftest.run(args_for(vb.port), Interrupting(flash))
        except KeyboardInterrupt:  # what propctl's main turns into exit 130
            code = 130
        assert code == 130
        wait_until(lambda: vb.boots >= 2, poll=0.1)  # selftest_end resets the board
        assert vb.boots >= 2, "the board did not leave the self-test"
        with LinkClient.open(vb.port, wait_s=5.0) as link:
            link.hello(timeout=WAIT_S)
            states = []
            wait_until(lambda: states.append(link.request("state", timeout=WAIT_S)) or
                       states[-1].get("state") == "idle", poll=0.2)
            assert states[-1].get("state") == "idle", states[-1]
            link.request("start_round", timeout=WAIT_S)  # accepted: no "the bell is still ringing"
    err = capsys.readouterr().err
    assert "interrupted: the self-test is over" in err


def test_a_plain_served_board_says_to_use_vboard(compiled, tmp_path, capsys):  # noqa: F811
    flash = serve(compiled, tmp_path, world=False)
    with VirtualBoard(flash) as vb:
        code = selftest.run(args_for(vb.port), selftest.Terminal())
        assert code == 1
        assert vb.boots == 1  # the self-test never began: the prop runs on
    err = capsys.readouterr().err
    assert "--vboard FLASH" in err and "virtual board" in err and re.search(r"--port \S+ --vboard", err)


def test_an_answer_that_is_not_utf8_is_asked_again(monkeypatch, capsys):
    answers = iter([UnicodeDecodeError("utf-8", b"\xc3(", 0, 1, "invalid continuation byte"), "y"])

    def typed(prompt):
        answer = next(answers)
        if isinstance(answer, Exception):
            raise answer
        return answer

    monkeypatch.setattr("builtins.input", typed)
    assert selftest.Terminal().ask("led", "did it?", "yn") == "y"
    assert "please answer y or n" in capsys.readouterr().out
