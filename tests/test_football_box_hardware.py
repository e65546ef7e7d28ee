"""The pins in hardware/football/ (wiring table and picture) are the firmware's board profiles."""
import re
import sys
from pathlib import Path

import pytest
from micropython_harness import FIRMWARE_LIB

sys.path.insert(0, str(FIRMWARE_LIB))

import boards  # noqa: E402

DOCS = Path(__file__).resolve().parent.parent / "hardware" / "football"
BOARD_COLUMNS = {"pico": "Pico GPIO", "esp32": "ESP32 GPIO"}
# The firmware's own names for what it drives (props.football.build, drivers.display).
FIRMWARE_SIGNALS = {"btn_roll", "btn_kick", "btn_good", "btn_miss", "piezo", "oled_sda", "oled_scl",
                    "led_home", "led_away", "led_kick", "led_down1", "led_down2", "led_down3",
                    "led_down4", "led"}


def wiring_table(readme: Path) -> dict:
    """{board: {signal: pin}} from the README's table with a `signal` column."""
    lines = readme.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| signal |"))
    header = [cell.strip() for cell in lines[start].strip("|").split("|")]
    table: dict = {board: {} for board in BOARD_COLUMNS}
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        row = dict(zip(header, [cell.strip() for cell in line.strip("|").split("|")]))
        signal = row["signal"].strip("`")
        for board, column in BOARD_COLUMNS.items():
            if row[column] not in ("", "-"):
                assert signal not in table[board], "%s listed twice" % signal
                table[board][signal] = int(row[column])
    return table


def profile(board):
    return {k: v for k, v in boards.profile(board, "football").items() if v is not None}


def test_wiring_table_equals_the_board_profiles():
    table = wiring_table(DOCS / "README.md")
    assert set(table) == set(boards.PROFILES)
    for board, pins in table.items():
        assert pins == profile(board), board


def test_profiles_name_every_signal_the_firmware_uses_and_no_pin_twice():
    for board in boards.PROFILES:
        pins = profile(board)
        assert set(pins) == FIRMWARE_SIGNALS, board
        assert len(set(pins.values())) == len(pins), "a GPIO used twice on %s" % board


def test_wiring_picture_labels_match_the_pico_profile():
    svg = (DOCS / "wiring.svg").read_text()
    found = {}
    for a_pin, a_sig, b_sig, b_pin in re.findall(r">(?:GP(\d+) (\w+)|(\w+) GP(\d+))", svg):
        found[a_sig or b_sig] = int(a_pin or b_pin)
    assert found == profile("pico")


@pytest.mark.parametrize("signal,wrong", [("btn_kick", 9), ("oled_scl", 7)])
def test_the_check_notices_a_wrong_pin(tmp_path, signal, wrong):
    # The comparison must be able to fail: a table with one Pico pin changed does not match.
    right = profile("pico")[signal]
    text = (DOCS / "README.md").read_text().replace("| `%s` | %d |" % (signal, right),
                                                     "| `%s` | %d |" % (signal, wrong))
    (tmp_path / "README.md").write_text(text)
    pins = wiring_table(tmp_path / "README.md")["pico"]
    assert pins[signal] == wrong and pins != profile("pico")
