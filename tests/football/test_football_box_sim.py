"""`propctl sim football`: a demo game of the real box firmware on the virtual board."""
import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from propctl.props.football import sim as sim_football
from propctl.sim import runner


def runner_lines(seed, *sets):
    args = argparse.Namespace(seed=seed, set=list(sets))
    with tempfile.TemporaryDirectory() as folder:
        command = sim_football.runner_command(args, runner.find_micropython(), Path(folder))
        done = subprocess.run(command, capture_output=True, text=True, timeout=120,
                              env=runner.runner_env(runner.REPO_FIRMWARE_LIB))
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.mark.parametrize("seed,height", [(3, 32), (4, 64)])
def test_demo_game_ends_with_the_score_on_the_display(seed, height):
    lines = runner_lines(seed, "football.oled_height=%d" % height)
    info, end = lines[0], lines[-1]
    assert info["type"] == "info" and info["errors"] == [] and info["rows"] == height // 8
    assert end["type"] == "end" and end["phase"] == "over"
    added = [0, 0]
    for record in lines:
        if record.get("event") == "score":
            added[record["team"]] += record["points"]
    assert added == end["score"]
    screens = [r["lines"] for r in lines if r["type"] == "screen"]
    home, away = [int(n) for n in re.findall(r"\d+", screens[-1][0])]
    assert [home, away] == end["score"] == [int(n) for n in re.findall(r"\d+", end["lines"][0])]
    assert end["lines"][3].startswith("FINAL")
    # Field goals and extra points went through the real count.
    steps = [r["step"] for r in lines if r.get("event") == "kick_count"]
    assert steps.count("go") >= 1 and not [r for r in lines if r.get("event") == "fault"]


def test_same_seed_same_game():
    assert runner_lines(9)[-1] == runner_lines(9)[-1]


def test_sim_football_prints_the_log_and_the_result(capsys):
    args = argparse.Namespace(seed=5, set=[], speed=None, interactive=False, firmware=None)
    assert sim_football.run(args) == 0
    out = capsys.readouterr().out
    assert "dice: zone " in out and "kick count: GO" in out
    final = re.search(r"done: Home (\d+), Away (\d+) .* the box shows '(.*)'", out)
    assert final, out[-500:]
    assert [int(n) for n in re.findall(r"\d+", final.group(3))] == [int(final.group(1)), int(final.group(2))]


def test_propctl_sim_football_command_line():
    propctl = str(Path(sys.executable).with_name("propctl"))
    command = [propctl, "sim", "football", "--seed", "2", "--non-interactive",
               "--set", "football.plays_per_quarter=3", "--set", "board=esp32"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Q4 PLAY 3/3" in done.stdout and done.stdout.splitlines()[-1].startswith("done: Home")


def test_an_unknown_set_key_and_a_negative_speed_exit_2():
    propctl = str(Path(sys.executable).with_name("propctl"))
    for extra in (["--set", "football.plays=3"], ["--set", "football=3"], ["--speed", "-1"]):
        done = subprocess.run([propctl, "sim", "football", "--non-interactive", *extra],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 2, (extra, done.stdout[-300:])
        assert "Traceback" not in done.stderr


def test_score_and_quarter_events_are_sentences():
    names = ["Red", "Blue"]
    score = {"type": "event", "event": "score", "t": 1500, "team": 1, "points": 3, "score": [7, 3]}
    assert sim_football.describe(score, names) == "   1.50 s  score   Blue scores 3; score 7 - 3"
    final = {"type": "event", "event": "quarter", "t": 0, "quarter": 4, "over": True, "winner": 0}
    assert sim_football.describe(final, names).endswith("quarter FINAL: Red wins")
    assert sim_football.describe({"type": "event", "event": "quarter", "t": 0, "quarter": 2,
                                  "over": False, "winner": None}, names).endswith("quarter 2 begins")
