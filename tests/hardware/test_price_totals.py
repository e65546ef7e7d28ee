"""The parts lists' totals add up, and the guides quote them.

Before: the fuse box's parts came to 16.30 EUR under a total of "about 17"; the football box's
"about 19" counted the optional battery parts.
"""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# the rows each total names (a row's part starts with these words)
TOTALS = {
    "fusebox": (["Raspberry Pi Pico", "glass reed switch", "neodymium disc magnet", "LED 5 mm",
                 "resistors 220 ohm", "passive piezo buzzer", "tactile push buttons", "3 x AA battery box",
                 "thin stranded wire"], "16.30", "about 16 EUR"),
    "football": (["Raspberry Pi Pico", "SSD1306 OLED module", "arcade push buttons", "piezo disc",
                  "resistor 100 ohm", "enclosure"], "17.05", "about 17 EUR"),
}


def rows(prop):
    text = (ROOT / "hardware" / prop / "README.md").read_text()
    lines = [line for line in text.splitlines() if line.startswith("| ")]
    table = [[c.strip() for c in line.strip("|").split("|")] for line in lines]
    return {cells[0]: cells[2] for cells in table if len(cells) >= 3}


@pytest.mark.parametrize("prop", sorted(TOTALS))
def test_a_total_is_the_sum_of_its_rows_and_the_guides_say_it(prop):
    parts, total, rounded = TOTALS[prop]
    table = rows(prop)
    cost = 0.0
    for start in parts:
        found = [part for part in table if part.startswith(start)]
        assert len(found) == 1, (start, found)
        cost += float(table[found[0]])
    shown = [value for part, value in table.items() if part.startswith("**total")]
    assert shown == ["**%s**" % total] and "%.2f" % cost == total
    guide = (ROOT / "docs" / ("build-%s.md" % prop)).read_text()
    readme = (ROOT / "README.md").read_text()
    assert rounded in " ".join(guide.split()) and rounded in " ".join(readme.split())
    assert "%d" % round(cost) == re.search(r"about (\d+)", rounded).group(1)
