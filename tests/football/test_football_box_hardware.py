"""The pins in hardware/football/ (wiring table and picture) are the firmware's board profiles."""
import pytest
from hardware_docs import (
    HARDWARE,
    boardprofiles,
    picture_pins,
    profile_pins,
    wiring_table,
)

DOCS = HARDWARE / "football"
# The firmware's own names for what it drives (props.football.build, drivers.ssd1306).
FIRMWARE_SIGNALS = {"btn_roll", "btn_kick", "btn_good", "btn_miss", "piezo", "oled_sda", "oled_scl",
                    "led_home", "led_away", "led_kick", "led_down1", "led_down2", "led_down3",
                    "led_down4", "led"}


def profile(board):
    return profile_pins(board, "football")


def test_wiring_table_equals_the_board_profiles():
    table = wiring_table((DOCS / "README.md").read_text())
    assert set(table) == set(boardprofiles.NAMES)
    for board, pins in table.items():
        assert pins == profile(board), board


def test_profiles_name_every_signal_the_firmware_uses_and_no_pin_twice():
    for board in boardprofiles.NAMES:
        pins = profile(board)
        assert set(pins) == FIRMWARE_SIGNALS, board
        assert len(set(pins.values())) == len(pins), "a GPIO used twice on %s" % board


def test_wiring_picture_labels_match_the_pico_profile():
    assert picture_pins((DOCS / "wiring.svg").read_text()) == profile("pico")


@pytest.mark.parametrize("signal,wrong", [("btn_kick", 9), ("oled_scl", 7)])
def test_the_check_notices_a_wrong_pin(tmp_path, signal, wrong):
    # The comparison must be able to fail: a table with one Pico pin changed does not match.
    right = profile("pico")[signal]
    text = (DOCS / "README.md").read_text().replace("| `%s` | %d |" % (signal, right),
                                                     "| `%s` | %d |" % (signal, wrong))
    pins = wiring_table(text)["pico"]
    assert pins[signal] == wrong and pins != profile("pico")
