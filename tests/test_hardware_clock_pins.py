"""The pins in hardware/clock/ (wiring table and picture) are the firmware's board profiles."""
import re
import sys
from pathlib import Path

from micropython_harness import FIRMWARE_LIB

sys.path.insert(0, str(FIRMWARE_LIB))

import boards  # noqa: E402

DOCS = Path(__file__).resolve().parent.parent / "hardware" / "clock"
BOARD_COLUMNS = {"pico": "Pico GPIO", "esp32": "ESP32 GPIO"}


def wiring_table() -> dict:
    """{board: {signal: pin}} from the README's wiring table (the one with a `signal` column)."""
    lines = (DOCS / "README.md").read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| signal |"))
    header = [cell.strip() for cell in lines[start].strip("|").split("|")]
    table = {board: {} for board in BOARD_COLUMNS}
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        row = dict(zip(header, cells))
        signal = row["signal"].strip("`")
        for board, column in BOARD_COLUMNS.items():
            if row[column] not in ("", "-"):
                assert signal not in table[board], "%s listed twice" % signal
                table[board][signal] = int(row[column])
    return table


def test_wiring_table_equals_the_board_profiles():
    table = wiring_table()
    assert set(table) == set(boards.PROFILES)
    for board, pins in table.items():
        profile = {k: v for k, v in boards.profile(board, "clock").items() if v is not None}
        assert pins == profile, board


def test_wiring_picture_labels_match_the_pico_profile():
    svg = (DOCS / "wiring.svg").read_text()
    labels = re.findall(r">(?:GP(\d+) (\w+)|(\w+) GP(\d+))", svg)
    found = {}
    for a_pin, a_sig, b_sig, b_pin in labels:
        found[a_sig or b_sig] = int(a_pin or b_pin)
    profile = {k: v for k, v in boards.profile("pico", "clock").items() if v is not None}
    assert found == profile


def test_table_parser_notices_a_wrong_pin(tmp_path, monkeypatch):
    # The check must be able to fail: a doc with one pin changed does not match.
    text = (DOCS / "README.md").read_text().replace("| `button` | 14 |", "| `button` | 13 |")
    fake = tmp_path / "clock"
    fake.mkdir()
    (fake / "README.md").write_text(text)
    monkeypatch.setattr(sys.modules[__name__], "DOCS", fake)
    assert wiring_table()["pico"]["button"] == 13 != boards.profile("pico", "clock")["button"]
