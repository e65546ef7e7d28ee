"""The virtual board's battery: fresh 3 x AA unless told otherwise, so `battery_min_mv` works in the sim."""
import re
import sys

from micropython_harness import FIRMWARE_LIB
from test_clock_sim import sim

sys.path.insert(0, str(FIRMWARE_LIB))


def test_the_readmes_battery_setting_plays_on_a_fresh_pack():
    result = sim("--seed", "3", "--set", "clock.battery_min_mv=3600")
    assert result.returncode == 0, result.stdout + result.stderr
    kinds = [m.group(1) for m in re.finditer(r"^ *\d+\.\d+ s +(\w+)", result.stdout, re.M)]
    assert "battery" not in kinds and kinds[-2:] == ["chime", "idle"]


def test_a_flat_pack_is_refused_with_its_voltage():
    result = sim("--seed", "3", "--set", "clock.battery_min_mv=3600", env_extra={"VBOARD_BATTERY_MV": "3000"})
    assert result.returncode == 1
    assert "battery low: 2998 mV, needs 3600 mV" in result.stdout
    # the log names each event in players' words: the press, the refusal, the release
    events = re.findall(r"^ *\d+\.\d+ s +(.*)$", result.stdout, re.M)
    assert len(events) == 3, events
    assert events[0].endswith("button pressed") and events[2].endswith("button released"), events
    assert events[1].startswith("battery low"), events
    assert "done: 0 round(s)" in result.stdout


def test_the_pack_reads_true_through_the_firmwares_own_divider_and_adc(vboard_process):
    for pack_mv in (4650, 3300, 2000):
        trace = vboard_process.call("scenario_settings_props:clock_round",
                                    {"clock": {"battery_min_mv": 3600, "seed": 2}}, pack_mv)
        low = [n for n in trace["names"] if n == "battery_low"]
        assert bool(low) == (pack_mv < 3600), (pack_mv, trace["names"])
