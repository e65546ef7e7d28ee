"""English question cards print big numbers grouped.

The English scale of PMD-02's violet salmon question printed `267570 |6| 400000 |4| 670000`, and
numbers of seven digits (`2300000`) are hard to read at a glance at 8 pt; German cards grouped
them already (`267.570`).
"""
from propctl.cards import print_questions


def test_english_numbers_are_grouped_from_five_digits():
    assert print_questions._decimal(267570, "en") == "267,570"
    assert print_questions._decimal(2300000, "en") == "2,300,000"
    assert print_questions._decimal(1903, "en") == "1903"       # a year stays whole
    assert print_questions._decimal(12000, "en") == "12,000"
    assert print_questions._decimal("1.5", "en") == "1.5"
    assert print_questions._decimal("-12345.25", "en") == "-12,345.25"


def test_german_numbers_are_unchanged():
    assert print_questions._decimal(267570, "de") == "267.570"
    assert print_questions._decimal("1.5", "de") == "1,5"
    assert print_questions._decimal(1903, "de") == "1903"
