"""hardware/fusebox/ (wiring table, MCP23017 table, picture) says what the firmware's board profiles say."""
import re

import settings  # noqa: E402  (firmware/lib is on the path through hardware_docs)
from hardware_docs import HARDWARE, boards, picture_pins, table_rows, wiring_table

DOCS = HARDWARE / "fusebox"


def readme() -> str:
    return (DOCS / "README.md").read_text(encoding="utf-8")


def test_wiring_table_equals_the_board_profiles():
    table = wiring_table(readme())
    assert set(table) == set(boards.PROFILES)
    for board, pins in table.items():
        assert pins == boards.profile(board, "fusebox"), board


def test_no_pin_is_used_twice_on_a_board():
    for board in boards.PROFILES:
        pins = list(boards.profile(board, "fusebox").values())
        assert len(pins) == len(set(pins)), board


def test_esp32_buttons_on_input_only_pins_are_documented_with_pull_ups():
    # GPIO 34-39 have no internal pull-ups: every button there needs the resistor the table names.
    rows = {row["signal"].strip("`"): row for row in table_rows(readme(), "signal")}
    for signal, pin in boards.profile("esp32", "fusebox").items():
        if signal.startswith("btn_") and 34 <= pin <= 39:
            assert "10k pull-up to 3V3" in rows[signal]["connects to"], signal


def test_mcp23017_table_maps_gpa0_to_window_1_in_order():
    rows = table_rows(readme(), "MCP23017 pin")
    windows = {}
    for row in rows:
        found = re.fullmatch(r"GPA(\d) \(pin (\d+)\)", row["MCP23017 pin"])
        if found:
            bit, chip_pin = int(found.group(1)), int(found.group(2))
            assert chip_pin == 21 + bit  # GPA0..7 are pins 21..28 of the DIP/SOIC package
            windows[bit] = int(re.search(r"window (\d)", row["connects to"]).group(1))
    # the firmware reads GPIOA as bits 0-7 = windows 1-8 (top first)
    assert windows == {bit: bit + 1 for bit in range(8)}
    address = settings.DEFAULTS["fusebox"]["mcp_address"]
    assert "0x%02x" % address in readme() and '"mcp_address": %d' % address in readme()


def test_wiring_picture_labels_match_the_pico_profile():
    svg = (DOCS / "wiring.svg").read_text(encoding="utf-8")
    assert picture_pins(svg) == boards.profile("pico", "fusebox")


def test_the_check_can_fail():
    # One pin changed in the doc no longer equals the profile.
    text = readme().replace("| `led_red` | 13 |", "| `led_red` | 12 |")
    assert wiring_table(text)["pico"]["led_red"] == 12 != boards.profile("pico", "fusebox")["led_red"]
