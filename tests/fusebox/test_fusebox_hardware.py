"""hardware/fusebox/ (wiring table, MCP23017 table, picture) says what the firmware's board profiles say."""
import re

from hardware_docs import (
    HARDWARE,
    boardprofiles,
    picture_pins,
    settings,
    table_rows,
    wiring_table,
)

DOCS = HARDWARE / "fusebox"


def readme() -> str:
    return (DOCS / "README.md").read_text(encoding="utf-8")


def test_wiring_table_equals_the_board_profiles():
    table = wiring_table(readme())
    assert set(table) == set(boardprofiles.NAMES)
    for board, pins in table.items():
        assert pins == boardprofiles.profile(board, "fusebox"), board


def test_no_pin_is_used_twice_on_a_board():
    for board in boardprofiles.NAMES:
        pins = list(boardprofiles.profile(board, "fusebox").values())
        assert len(pins) == len(set(pins)), board


def test_esp32_buttons_on_input_only_pins_are_documented_with_pull_ups():
    # GPIO 34-39 have no internal pull-ups: every button there needs the resistor the table names.
    rows = {row["signal"].strip("`"): row for row in table_rows(readme(), "signal")}
    for signal, pin in boardprofiles.profile("esp32", "fusebox").items():
        if signal.startswith("btn_") and 34 <= pin <= 39:
            assert "10k pull-up to 3V3" in rows[signal]["connects to"], signal


def mcp23017_table_windows() -> dict:
    """{expander pin 0..15 (GPA0-7, GPB0-7): window 1..8} from the MCP23017 table, chip pins checked."""
    windows = {}
    for row in table_rows(readme(), "MCP23017 pin"):
        found = re.fullmatch(r"GP([AB])(\d) \(pin (\d+)\)", row["MCP23017 pin"])
        if found:
            port, bit, chip_pin = found.group(1), int(found.group(2)), int(found.group(3))
            # DIP/SOIC package: GPB0..7 are pins 1..8, GPA0..7 are pins 21..28
            assert chip_pin == (21 if port == "A" else 1) + bit, row
            window = re.search(r"window (\d)", row["connects to"]).group(1)
            windows[bit + (8 if port == "B" else 0)] = int(window)
    return windows


def test_mcp23017_table_is_the_firmwares_mapping(vboard_process):
    # The firmware's own mapping (drivers.switches.mcp23017_pin, run on MicroPython) decides.
    pins = vboard_process.call("scenario_fusebox_vboard:mcp23017_windows")
    firmware = {pin: int(window) for window, pin in pins.items()}
    assert mcp23017_table_windows() == firmware
    assert 7 not in firmware and 15 not in firmware  # GPA7/GPB7 are output-only
    address = settings.defaults()["fusebox"]["mcp_address"]
    assert "0x%02x" % address in readme() and '"mcp_address": %d' % address in readme()


def test_wiring_picture_labels_match_the_pico_profile():
    svg = (DOCS / "wiring.svg").read_text(encoding="utf-8")
    assert picture_pins(svg) == boardprofiles.profile("pico", "fusebox")


def test_the_check_can_fail():
    # One pin changed in the doc no longer equals the profile.
    text = readme().replace("| `led_red` | 13 |", "| `led_red` | 12 |")
    assert wiring_table(text)["pico"]["led_red"] == 12 != boardprofiles.profile("pico", "fusebox")["led_red"]
