"""hardware/fusebox/ (wiring table, MCP23017 table, picture) says what the firmware's board profiles say."""
import re
import sys
from pathlib import Path

from micropython_harness import FIRMWARE_LIB

sys.path.insert(0, str(FIRMWARE_LIB))

import boards  # noqa: E402
import settings  # noqa: E402

DOCS = Path(__file__).resolve().parent.parent / "hardware" / "fusebox"
BOARD_COLUMNS = {"pico": "Pico GPIO", "esp32": "ESP32 GPIO"}


def table_rows(text: str, first_header: str) -> list:
    """The rows (dicts by header) of the markdown table whose header starts with first_header."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| %s |" % first_header))
    header = [cell.strip() for cell in lines[start].strip("|").split("|")]
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append(dict(zip(header, [cell.strip() for cell in line.strip("|").split("|")])))
    return rows


def wiring_table(text: str) -> dict:
    """{board: {signal: pin}} from the `| signal | Pico GPIO | ESP32 GPIO |` table."""
    table = {board: {} for board in BOARD_COLUMNS}
    for row in table_rows(text, "signal"):
        signal = row["signal"].strip("`")
        for board, column in BOARD_COLUMNS.items():
            assert signal not in table[board], "%s listed twice" % signal
            table[board][signal] = int(row[column])
    return table


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
    found = {}
    for a_pin, a_sig, b_sig, b_pin in re.findall(r">(?:GP(\d+) (\w+)|(\w+) GP(\d+))<", svg):
        signal = a_sig or b_sig
        assert signal not in found, signal
        found[signal] = int(a_pin or b_pin)
    assert found == boards.profile("pico", "fusebox")


def test_the_check_can_fail():
    # One pin changed in the doc no longer equals the profile.
    text = readme().replace("| `led_red` | 13 |", "| `led_red` | 12 |")
    assert wiring_table(text)["pico"]["led_red"] == 12 != boards.profile("pico", "fusebox")["led_red"]
