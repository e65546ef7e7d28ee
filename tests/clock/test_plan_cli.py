"""`propctl plan`: bad seeds and unwritable pictures are said in one line, never a traceback."""
import os

import pytest

from propctl.cli import main
from propctl.shared.rules.geisteruhr import plan_motion


def test_a_plan_prints_its_table_and_writes_its_picture(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["plan", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == "picture: plan-seed3.svg"
    assert (tmp_path / "plan-seed3.svg").read_text(encoding="utf-8").startswith("<svg")
    assert "%d " % len(plan_motion(3)) in out


@pytest.mark.parametrize("seed", ["-5", "4294967296", "99999999999999999999"])
def test_a_seed_the_clock_cannot_draw_is_a_command_line_error(seed, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit:
        main(["plan", "--seed", seed])
    assert exit.value.code == 2
    err = capsys.readouterr().err
    assert "argument --seed: %s is outside 0..4294967295" % seed in " ".join(err.split())
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("where, reason", [("folder", "is a directory, not a regular file"),
                                           ("missing/plan.svg", "the folder {tmp}/missing does not exist")])
def test_an_unwritable_picture_is_one_line_naming_it(where, reason, tmp_path, capsys):
    # refused before anything is printed: a command-line error (exit 2), as in propctl sim
    (tmp_path / "folder").mkdir()
    target = tmp_path / where
    reason = reason.format(tmp=tmp_path)
    assert main(["plan", "--seed", "3", "--svg", str(target)]) == 2
    captured = capsys.readouterr()
    assert captured.err == "propctl plan: cannot write the picture %s: %s; nothing written\n" % (
        target, reason)
    assert "Traceback" not in captured.out
