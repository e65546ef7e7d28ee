"""The pins in hardware/clock/ (wiring table and picture) are the firmware's board profiles."""
from hardware_docs import (
    HARDWARE,
    boardprofiles,
    picture_pins,
    profile_pins,
    wiring_table,
)

DOCS = HARDWARE / "clock"


def test_wiring_table_equals_the_board_profiles():
    table = wiring_table((DOCS / "README.md").read_text())
    assert set(table) == set(boardprofiles.NAMES)
    for board, pins in table.items():
        assert pins == profile_pins(board, "clock"), board


def test_wiring_picture_labels_match_the_pico_profile():
    assert picture_pins((DOCS / "wiring.svg").read_text()) == profile_pins("pico", "clock")


def test_table_parser_notices_a_wrong_pin():
    # The check must be able to fail: a doc with one pin changed does not match.
    text = (DOCS / "README.md").read_text().replace("| `button` | 14 |", "| `button` | 13 |")
    assert wiring_table(text)["pico"]["button"] == 13 != boardprofiles.profile("pico", "clock")["button"]
