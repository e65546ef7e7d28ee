"""German number formats (propctl.cards.numbers_de): what a German reader would misread is found."""
import pytest

from propctl.cards.numbers_de import problems

# The examples: English formats in a German deck's sources.
MISREAD = [
    ("Hammer: 7.26 kg", "7,26"),
    ("Container: 6,058 mm", "6.058"),
    ("Äquator: 40,075 km", "40.075"),
    ("Spannweite 1,280 m", "1.280"),
    ("40075 km", "40.075"),
    ("267570 Inseln", "267.570"),
    ("Wahlperiode 2024-2029", "2024\u20132029"),
    ("1,234.5 t", "1.234,5"),
    ("7,500,000 Menschen", "7.500.000"),
    ("ISO/IEC 7810: 85.60 mm", "85,60"),
]

FINE = [
    "Hammer: 7,26 kg", "6.058 mm", "40.075 km", "40\u202f075 km", "1.280 m", "1903",
    "Wahlperiode 2024\u20132029", "ISO 3166-1", "DIN EN 13698-1", "am 6.8.1791 eröffnet",
    "Stand 2024-05-01", "0,125 l", "110-m-Hürdenlauf", "Op. 6", "EPAL 1", "um 1900. Danach",
    "1.234,5 t", "3,5 Tage", "20 %", "ITTF-Handbuch, Regel 2.3", "§ 4.1 StVO",
    "Boeing 747-400",
]


@pytest.mark.parametrize("text, fix", MISREAD)
def test_a_number_a_german_reader_misreads_is_named_with_its_german_form(text, fix):
    found = problems(text)
    assert len(found) == 1, found
    assert fix in found[0]


@pytest.mark.parametrize("text", FINE)
def test_german_numbers_dates_and_norm_numbers_pass(text):
    assert problems(text) == []


def test_every_wrong_number_in_a_text_is_reported():
    assert len(problems("7.26 kg, 40075 km und 2024-2029")) == 3
