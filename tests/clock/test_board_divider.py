"""The clock's battery divider defaults to the one each board's wiring table wires: 100k/100k on
the Picos and the ESP32-S3, 100k over 47k on the ESP32 DevKitC (hardware/clock/README.md). A
builder who wires the ESP32's divider as the table says and sets nothing must not read the pack
a third low (which refuses rounds on a good pack and, read low, raises the motor's duty)."""
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "firmware" / "lib"))

import boardprofiles  # noqa: E402
import settings  # noqa: E402

S = "scenario_board_divider:pack_read"
# the wiring table's dividers: battery V per pin V x 1000
WIRED = {"pico": 2000, "pico_w": 2000, "pico2": 2000, "pico2_w": 2000, "esp32s3": 2000,
         "esp32": round(147000 / 47)}  # 100k over 47k: 3128


def test_each_board_s_default_divider_is_its_wiring_table_s():
    assert settings.defaults()["clock"]["battery_divider_permille"] == 0  # 0: the board's
    assert set(WIRED) == set(boardprofiles.NAMES)
    for board, wired in WIRED.items():
        assert boardprofiles.limits(board)["battery_divider_permille"] == wired, board


def test_the_setting_says_what_0_means():
    text = settings._expected(settings.specs()["clock"]["battery_divider_permille"])
    assert text == "a whole number 1000..20000 or 0 (the board's divider)"
    assert settings._expected(settings.specs()["clock"]["battery_min_mv"]).endswith("or 0 (off)")
    _, errors = settings.merge({"clock": {"battery_divider_permille": 500}})
    assert errors == ["clock.battery_divider_permille: 500 is not a whole number 1000..20000 or 0 "
                      "(the board's divider); using the default 0"]


@pytest.mark.parametrize("board", sorted(WIRED))
def test_a_board_wired_as_its_table_says_reads_the_pack_with_nothing_set(vboard_process, board):
    config = {"board": board, "clock": {"seed": 1, "battery_min_mv": 3600}}
    r = vboard_process.call(S, config, WIRED[board], 4000)
    # the 1/32 margin for low readings aside (drivers.battery), the pack as it is
    assert 3850 <= r["read_mv"] <= 4010, r
    assert r["refused"] is None and r["errors"] == [], r


def test_a_divider_set_in_the_config_still_wins(vboard_process):
    config = {"board": "esp32", "clock": {"seed": 1, "battery_min_mv": 3600,
                                          "battery_divider_permille": 2000}}
    r = vboard_process.call(S, config, 2000, 4000)  # the builder kept 100k/100k and said so
    assert 3850 <= r["read_mv"] <= 4010 and r["refused"] is None, r
