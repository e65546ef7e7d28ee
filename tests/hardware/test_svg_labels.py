"""No label of a picture prints over another or runs past its edge: the wiring pictures of every
prop, and the motion plan's picture (plan --seed N --svg, the clock sim's --picture)."""
import subprocess
import sys
from pathlib import Path

import pytest
from svg_labels import crossing, outside, overlaps

from propctl.props.clock.plan import round_svg

ROOT = Path(__file__).resolve().parents[2]
PICTURES = sorted((ROOT / "hardware").glob("*/wiring.svg"))


@pytest.mark.parametrize("path", PICTURES, ids=[p.parent.name for p in PICTURES])
def test_wiring_picture_labels_do_not_overlap(path):
    svg = path.read_text(encoding="utf-8")
    assert overlaps(svg) == []
    assert outside(svg) == []
    assert crossing(svg) == []  # no label runs out of its box (the LED list once did, by 24 px)


def test_the_checker_finds_an_overlap():
    svg = ('<svg width="200" height="100" font-size="12"><text x="10" y="20">GP14 button</text>'
           '<text x="120" y="20" text-anchor="end">motor_in1 GP16</text>'
           '<text x="150" y="60">stop and chime</text></svg>')
    assert overlaps(svg) == [("GP14 button", "motor_in1 GP16")]
    assert outside(svg) == ["stop and chime"]


def test_the_checker_finds_a_label_running_out_of_its_box():
    svg = ('<svg width="400" height="100" font-size="11"><rect x="100" y="10" width="120" height="40"/>'
           '<text x="110" y="30">down1: yellow-green, 220 ohm</text>'
           '<text x="110" y="45">down1: green</text></svg>')
    assert crossing(svg) == [("down1: yellow-green, 220 ohm", 100.0)]


@pytest.mark.parametrize("seed", [3, 42, 7])
def test_the_plan_picture_keeps_stop_and_chime_whole(tmp_path, seed):
    path = tmp_path / "plan.svg"
    done = subprocess.run([sys.executable, "-m", "propctl.cli", "plan", "--seed", str(seed),
                           "--svg", str(path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    svg = path.read_text()
    assert "stop and chime" in svg
    assert outside(svg) == [] and overlaps(svg) == []


def test_a_played_round_picture_keeps_its_marks_inside():
    frames = [{"t": 1000 + 100 * i, "angle_mdeg": 12000 * i} for i in range(200)]
    events = [{"event": "start", "t": 1000, "seed": 9}, {"event": "stop", "t": 20900},
              {"event": "chime", "t": 21000}]
    svg = round_svg(frames, events)
    assert outside(svg) == [] and overlaps(svg) == []
