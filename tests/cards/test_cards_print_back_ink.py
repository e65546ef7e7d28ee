"""The category's name on a task card's back reads on paper.

The name was printed in its category's colour on a white band: `language` in yellow on white
has a contrast of 1.9:1, well under WCAG's 4.5:1 for text (3:1 even for large text), and was
hard to read in the page image. The name now takes its colour darkened to at least 4.5:1.
"""
from pathlib import Path

import pytest

from propctl.cards import print_layout, print_pdf, print_taskcards
from propctl.cards.load import load_deck

pypdf = pytest.importorskip("pypdf", reason="pypdf (requirements-dev.txt) reads the printed PDF")

DECKS = Path(__file__).resolve().parents[2] / "host_tools/propctl/data/decks"


def on_white(rgb):
    """WCAG 2 contrast ratio of an sRGB colour against white paper, computed here on its own."""
    lin = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in rgb]
    return 1.05 / (0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2] + 0.05)


def test_every_back_colour_gets_ink_that_reads_on_white():
    for colour in print_taskcards.BACK_COLOURS:
        assert on_white(print_taskcards.ink(colour)) >= 4.5
        assert abs(print_taskcards.contrast(colour) - on_white(colour)) < 1e-9
    blue = print_taskcards.BACK_COLOURS[0]
    assert print_taskcards.ink(blue) == blue  # dark enough already: unchanged


def test_the_category_names_on_the_backs_are_drawn_in_readable_ink(tmp_path):
    cards = load_deck([DECKS / "taskcards.en.csv"]).cards
    data, pages = print_pdf.taskcards_pdf(cards, print_layout.defaults(), "a4", None, "long")
    path = tmp_path / "t.pdf"
    path.write_bytes(data)
    reader = pypdf.PdfReader(str(path))
    names = set(card.category for card in cards)
    drawn = {}
    for page in reader.pages[1::2]:  # the pages of backs
        fill = [None]

        def before(op, args, cm, tm, fill=fill):
            if op == b"rg":
                fill[0] = tuple(float(v) for v in args)

        def text(t, cm, tm, font, size, fill=fill):
            if t.strip() in names:
                drawn[t.strip()] = fill[0]

        page.extract_text(visitor_operand_before=before, visitor_text=text)
    assert set(drawn) == names
    for name, colour in drawn.items():
        assert colour is not None and on_white(colour) >= 4.5, (name, colour)
