"""Reading pins out of hardware/<prop>/ docs, for the tests that hold them equal to boardprofiles.py."""
import re
import sys
from pathlib import Path

from micropython_harness import FIRMWARE_LIB

sys.path.insert(0, str(FIRMWARE_LIB))  # boardprofiles.py is plain Python, importable here too

import boardprofiles  # noqa: E402
import settings  # noqa: E402,F401  (for the tests: the firmware's settings)

HARDWARE = Path(__file__).resolve().parent.parent / "hardware"
# board with its own columns in every wiring table: (GPIO column, header pin column)
BOARD_COLUMNS = {"pico": ("Pico GPIO", "Pico pin"), "esp32": ("ESP32 GPIO", "ESP32 pin"),
                 "esp32s3": ("S3 GPIO", "S3 pin")}
WIRED_AS = {"Pico columns": "pico", "ESP32 columns": "esp32", "S3 columns": "esp32s3"}


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


def board_variants() -> dict:
    """{profile: (base board, name, {signal: pin})} from the boards table in hardware/README.md."""
    variants = {}
    for row in table_rows((HARDWARE / "README.md").read_text(encoding="utf-8"), "profile"):
        changes = {}
        for signal, pin in re.findall(r'`(\w+)` is `"?(\w+)"?`', row["differences"]):
            changes[signal] = int(pin) if pin.isdigit() else pin
        variants[row["profile"].strip("`")] = (WIRED_AS[row["wired as"]], row["board"], changes)
    return variants


def wiring_table(text: str) -> dict:
    """{board: {signal: pin}} from the `| signal | Pico GPIO | Pico pin | ESP32 GPIO | ...` table.

    "-" in a GPIO column: not wired on that board. Boards wired like another
    one (hardware/README.md, "Boards") get its column with their differences.
    """
    table: dict = {board: {} for board in BOARD_COLUMNS}
    for row in table_rows(text, "signal"):
        signal = row["signal"].strip("`")
        for board, (column, _) in BOARD_COLUMNS.items():
            if row[column] not in ("", "-"):
                assert signal not in table[board], "%s listed twice" % signal
                table[board][signal] = int(row[column])
    for board, (base, _, changes) in board_variants().items():
        if board not in BOARD_COLUMNS:
            pins = dict(table[base])
            for signal, pin in changes.items():
                if signal in pins:
                    pins[signal] = pin
            table[board] = pins
    return table


def header_cells(text: str) -> dict:
    """{board: {signal: cell}} of the physical-pin columns of the wiring table (wired signals only)."""
    cells: dict = {board: {} for board in BOARD_COLUMNS}
    for row in table_rows(text, "signal"):
        for board, (gpio, pin) in BOARD_COLUMNS.items():
            if row[gpio] not in ("", "-"):
                cells[board][row["signal"].strip("`")] = row[pin]
    return cells


def check_header_pins(text: str, prop: str) -> None:
    """Every physical-pin cell of the wiring table is where the board's header has that GPIO."""
    for board, cells in header_cells(text).items():
        pins = boardprofiles.profile(board, prop)
        for signal, cell in cells.items():
            assert cell == boardprofiles.header_pin(board, pins[signal]), (board, signal, cell)


def picture_pins(svg: str) -> dict:
    """{signal: pin} from the wiring picture's labels, written "GP14 button" or "motor_in1 GP16"."""
    found: dict = {}
    for a_pin, a_sig, b_sig, b_pin in re.findall(r">(?:GP(\d+) (\w+)|(\w+) GP(\d+))", svg):
        signal = a_sig or b_sig
        assert signal not in found, "%s labelled twice" % signal
        found[signal] = int(a_pin or b_pin)
    return found


def check_picture_header_pins(svg: str, prop: str) -> None:
    """Every labelled GPIO in the picture also names its Pico pin, "(pin N)", and the right one."""
    labels = re.findall(r">(?:GP(\d+) (\w+)|(\w+) GP(\d+))([^<]*)<", svg)
    assert labels
    for a_pin, a_sig, b_sig, b_pin, rest in labels:
        gpio = int(a_pin or b_pin)
        where = boardprofiles.header_pin("pico", gpio)
        if where == "-":
            assert "on board" in rest, (gpio, rest)
        else:
            assert " (pin %s)" % where in rest, (a_sig or b_sig, gpio, rest)


def profile_pins(board: str, prop: str) -> dict:
    """The board profile's wired pins for a prop (signals set to None are not wired)."""
    return {k: v for k, v in boardprofiles.profile(board, prop).items() if v is not None}
