"""The pins in hardware/clock/ (wiring table and picture) are the firmware's board profiles."""
from hardware_docs import (
    HARDWARE,
    boards,
    check_header_pins,
    check_picture_header_pins,
    picture_pins,
    profile_pins,
    wiring_table,
)

DOCS = HARDWARE / "clock"


def test_wiring_table_equals_the_board_profiles():
    table = wiring_table((DOCS / "README.md").read_text())
    assert set(table) == set(boards.PROFILES)
    for board, pins in table.items():
        assert pins == profile_pins(board, "clock"), board


def test_wiring_picture_labels_match_the_pico_profile():
    assert picture_pins((DOCS / "wiring.svg").read_text()) == profile_pins("pico", "clock")


def test_table_parser_notices_a_wrong_pin():
    # The check must be able to fail: a doc with one pin changed does not match.
    text = (DOCS / "README.md").read_text().replace("| `button` | 14 |", "| `button` | 13 |")
    assert wiring_table(text)["pico"]["button"] == 13 != boards.profile("pico", "clock")["button"]


def test_physical_pin_column_is_where_each_gpio_sits_on_the_header():
    check_header_pins((DOCS / "README.md").read_text(), "clock")


def test_physical_pin_check_can_fail():
    text = (DOCS / "README.md").read_text()
    gpio = boards.profile("pico", "clock")["piezo"]
    wrong = text.replace("| `piezo` | %d | %s |" % (gpio, boards.header_pin("pico", gpio)),
                         "| `piezo` | %d | 99 |" % gpio)
    assert wrong != text
    try:
        check_header_pins(wrong, "clock")
    except AssertionError:
        return
    raise AssertionError("a wrong physical pin went unnoticed")


def test_picture_labels_name_the_physical_pins():
    svg = (DOCS / "wiring.svg").read_text(encoding="utf-8")
    check_picture_header_pins(svg, "clock")
    try:
        check_picture_header_pins(svg.replace(" (pin 20)", " (pin 21)"), "clock")  # the piezo's pin, wrong
    except AssertionError:
        return
    raise AssertionError("a wrong pin number in the picture went unnoticed")
