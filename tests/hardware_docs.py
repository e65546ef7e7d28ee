"""Reading pins out of hardware/<prop>/ docs, for the tests that hold them equal to boards.py."""
import re
import sys
from pathlib import Path

from micropython_harness import FIRMWARE_LIB

sys.path.insert(0, str(FIRMWARE_LIB))  # boards.py is plain Python, importable here too

import boards  # noqa: E402

HARDWARE = Path(__file__).resolve().parent.parent / "hardware"
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
    """{board: {signal: pin}} from the `| signal | Pico GPIO | ESP32 GPIO | ...` table ("-": not wired)."""
    table: dict = {board: {} for board in BOARD_COLUMNS}
    for row in table_rows(text, "signal"):
        signal = row["signal"].strip("`")
        for board, column in BOARD_COLUMNS.items():
            if row[column] not in ("", "-"):
                assert signal not in table[board], "%s listed twice" % signal
                table[board][signal] = int(row[column])
    return table


def picture_pins(svg: str) -> dict:
    """{signal: pin} from the wiring picture's labels, written "GP14 button" or "motor_in1 GP16"."""
    found: dict = {}
    for a_pin, a_sig, b_sig, b_pin in re.findall(r">(?:GP(\d+) (\w+)|(\w+) GP(\d+))", svg):
        signal = a_sig or b_sig
        assert signal not in found, "%s labelled twice" % signal
        found[signal] = int(a_pin or b_pin)
    return found


def profile_pins(board: str, prop: str) -> dict:
    """The board profile's wired pins for a prop (signals set to None are not wired)."""
    return {k: v for k, v in boards.profile(board, prop).items() if v is not None}
