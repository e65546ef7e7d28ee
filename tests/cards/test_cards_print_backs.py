"""Task cards get a back with their category (name and colour), duplex behind
the front, for the rulebook's seven face-down stacks; --blank-backs prints fronts only."""
import re
from pathlib import Path

import pytest

from propctl.cards import print_layout, print_pdf, print_taskcards
from propctl.cards.load import load_deck
from propctl.cards.print_sheet import Grid
from propctl.cli import main

pypdf = pytest.importorskip("pypdf", reason="pypdf (requirements-dev.txt) reads the printed PDF")

DECKS = Path(__file__).resolve().parents[2] / "host_tools/propctl/data/decks"
MM = 72 / 25.4


def cells_of(page, grid, height_mm):
    """{(col, row): [text]} of the texts drawn on a page, by grid cell."""
    found = {}

    def visit(text, cm, tm, font, size):
        if text.strip():
            x, top = tm[4] / MM, height_mm - tm[5] / MM
            col = int((x - grid.left) // (grid.w + grid.gap))
            row = int((top - grid.top) // (grid.h + grid.gap))
            found.setdefault((col, row), []).append(text.strip())

    page.extract_text(visitor_text=visit)
    return found


def fill_colours(page):
    """The fill colours (rg operands) a page sets."""
    ops = pypdf.generic.ContentStream(page.get_contents(), page.pdf).operations
    return set(tuple(round(float(v), 2) for v in operands) for operands, op in ops if op == b"rg")


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_each_back_shows_its_fronts_category_behind_it(tmp_path, duplex):
    deck = load_deck([DECKS / "taskcards.en.csv"]).cards
    cards = deck[::13][:8]  # several categories
    assert len(set(c.category for c in cards)) >= 5
    layout = print_layout.defaults()
    data, pages = print_pdf.taskcards_pdf(cards, layout, "a4", None, duplex)
    path = tmp_path / "t.pdf"
    path.write_bytes(data)
    reader = pypdf.PdfReader(str(path))
    assert pages == len(reader.pages) == 4
    width = float(reader.pages[0].mediabox.width) / MM
    height = float(reader.pages[0].mediabox.height) / MM

    class Paper:
        pass
    paper = Paper()
    paper.width, paper.height = width, height
    grid = Grid(paper, (layout.card_width, layout.card_height), layout.gap, layout.margin)
    colours = print_taskcards.category_colours(cards)
    by_id = dict((c.id, c) for c in cards)
    for p in (0, 2):
        front = cells_of(reader.pages[p], grid, height)
        back = cells_of(reader.pages[p + 1], grid, height)
        assert len(front) == len(back) == 4
        for (col, row), texts in front.items():
            card_id = next(m.group(1) for m in (re.match(r"(\S+) · ", t) for t in texts) if m)
            card = by_id[card_id]
            behind = (grid.cols - 1 - col, row) if duplex == "long" else (col, grid.rows - 1 - row)
            words = " ".join(back[behind])
            assert words == card.category, (card_id, words)
            # Nothing of the front shows on the back: not the task, no statement.
            assert all(s not in words for s in card.statements) and card.text not in words
        page_colours = fill_colours(reader.pages[p + 1])
        for texts in back.values():
            assert tuple(round(v, 2) for v in colours[" ".join(texts)]) in page_colours
    assert len(set(colours.values())) == len(colours)  # every category its own colour


def test_german_and_english_backs_share_colours_and_blank_backs_print_fronts_only(tmp_path, capsys):
    en = print_taskcards.category_colours(load_deck([DECKS / "taskcards.en.csv"]).cards)
    de = print_taskcards.category_colours(load_deck([DECKS / "taskcards.de.csv"]).cards)
    assert list(en.values()) == list(de.values()) and len(en) == 7
    one, two = tmp_path / "one.pdf", tmp_path / "two.pdf"
    assert main(["cards", "print", "--lang", "en", "-q", "-o", str(two)]) == 0
    assert main(["cards", "print", "--lang", "en", "-q", "--blank-backs", "-o", str(one)]) == 0
    capsys.readouterr()
    fronts = len(pypdf.PdfReader(str(one)).pages)
    assert fronts == 27 and len(pypdf.PdfReader(str(two)).pages) == 2 * fronts
    assert pypdf.PdfReader(str(two)).pages[1].extract_text().split() == ["geography"] * 4
