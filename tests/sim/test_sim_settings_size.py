"""Every sim takes settings of any size: a config.json that writes out every setting is over 255
bytes, and the unix port dies on a command-line argument that long (it interns each as a qstr),
so the settings reach the virtual board in a file."""
import json
import subprocess
import sys

import pytest

from propctl.build import FIRMWARE_DIR
from propctl.overrides import parse_sets
from propctl.settings import firmware_settings

PROPCTL = [sys.executable, "-m", "propctl.cli", "sim"]


@pytest.fixture(scope="module")
def defaults():
    return firmware_settings(FIRMWARE_DIR / "lib").defaults()


def every_setting_of(defaults: dict, prop: str) -> dict:
    return {"board": defaults["board"], prop: defaults[prop]}


@pytest.mark.parametrize("prop, extra", [("clock", ["--seed", "1"]), ("fusebox", [])])
def test_a_config_with_every_setting_written_out_runs(tmp_path, defaults, prop, extra):
    config = every_setting_of(defaults, prop)
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config, indent=1))
    assert len(json.dumps(config)) > (255 if prop == "clock" else 200)  # the fuse box's adds its pack
    done = subprocess.run(PROPCTL + [prop, "--non-interactive", "--config", str(path), *extra],
                          input="", capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, (done.stdout[-500:], done.stderr[-500:])
    assert "config:" not in done.stdout  # every value is the firmware's own default


def test_football_takes_every_setting_through_set(defaults):
    section = defaults["football"]
    sets = []
    for key, value in sorted(section.items()):
        sets += ["--set", "football.%s=%s" % (key, json.dumps(value))]
    sets += ["--set", "football.plays_per_quarter=2",
             "--set", 'football.names=["Longnamed 12", "Other name 3"]',
             "--set", "football.seed=4000000000", "--set", "board=pico_w"]
    assert len(json.dumps(parse_sets(sets[1::2]))) > 255
    done = subprocess.run(PROPCTL + ["football", "--non-interactive", "--seed", "3", *sets],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, (done.stdout[-500:], done.stderr[-500:])
    assert done.stdout.splitlines()[-1].startswith("done: Longnamed 12")
