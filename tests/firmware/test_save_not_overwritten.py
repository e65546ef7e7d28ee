"""A new game never overwrites the save of an earlier one.

Before: `propctl play pimaldaumen --players X,Y` in a folder holding last night's
pimaldaumen-save.json autosaved over it at the first question (Finger Football at its
first save): the unfinished game was gone without a word."""
import json
import os
import subprocess
import sys

import pytest

PROPCTL = [sys.executable, "-m", "propctl.cli"]


def play(cwd, *args):
    done = subprocess.run(PROPCTL + ["play", *args], input="", capture_output=True, text=True,
                          timeout=60, cwd=cwd, env=dict(os.environ, CI="1"))
    return done.returncode, " ".join((done.stdout + done.stderr).split())


@pytest.mark.parametrize("game, first, second, default, names", [
    ("pimaldaumen", ["--players", "Ann,Bo"], ["--players", "X,Y"], "pimaldaumen-save.json",
     lambda data: data["names"]),
    ("fingerfootball", ["--names", "Ann,Bo"], ["--names", "X,Y"], "fingerfootball-save.json",
     lambda data: data["game"]["settings"]["names"]),
])
def test_a_new_game_saves_beside_an_earlier_one(tmp_path, game, first, second, default, names):
    code, out = play(tmp_path, game, *first, "--seed", "1")  # input ends: saved
    saved = (tmp_path / default).read_bytes()
    assert names(json.loads(saved)) == ["Ann", "Bo"], out
    code, out = play(tmp_path, game, *second, "--seed", "2")
    assert (tmp_path / default).read_bytes() == saved, out  # the earlier game is still there
    other = tmp_path / default.replace(".json", "-2.json")
    assert names(json.loads(other.read_text())) == ["X", "Y"], out
    assert "%s holds an earlier game" % default in out and other.name in out, out
    code, out = play(tmp_path, game, "--resume", str(tmp_path / default))  # and resumes
    assert "Ann" in out and "cannot be resumed" not in out, out
