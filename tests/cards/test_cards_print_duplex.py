"""Printed question cards play like the rulebook's.

Each side holds one frame's three questions with their scales; the questioner turns the card
over and reads from the back, so while one frame is asked the players see the other side. So no
side may show an answer of the other frame's questions, and the back of card i (printed duplex,
long or short edge) must be card i's other frame.
"""
import re

import pytest

from propctl.cards import print_pdf, print_questions
from propctl.cards.load import load_deck
from propctl.cards.print_sheet import Grid
from propctl.cli import main

pypdf = pytest.importorskip("pypdf", reason="pypdf (requirements-dev.txt) reads the printed PDF")
from pathlib import Path  # noqa: E402

DECKS = Path(__file__).resolve().parents[2] / "host_tools/propctl/data/decks"
MM = 72 / 25.4
NUMBER = re.compile(r"-?\d[\d.,]*")


def cells_of(page, grid, height_mm):
    """{(col, row): [(text, bold)]} of every text drawn on the page, by the grid cell it lies in."""
    found = {}

    def visit(text, cm, tm, font, size):
        if not text.strip():
            return
        x, top = tm[4] / MM, height_mm - tm[5] / MM
        col = int((x - grid.left) // (grid.w + grid.gap))
        row = int((top - grid.top) // (grid.h + grid.gap))
        bold = "Bold" in str((font or {}).get("/BaseFont", ""))
        found.setdefault((col, row), []).append((text.strip(), bold))

    page.extract_text(visitor_text=visit)
    return found


def header(pieces):
    for text, _ in pieces:
        match = re.match(r"(\S+) · (white|violet) frame", text)
        if match:
            return match.group(1), match.group(2)
    raise AssertionError("no card id and frame on this card: %r" % pieces[:3])


def printed(value):
    return print_questions._decimal(value, "en")


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_each_side_is_one_frame_and_its_back_is_the_same_cards_other_frame(tmp_path, capsys, duplex):
    cards = load_deck([DECKS / "questions.en.json"]).cards[:12]
    data, pages = print_pdf.questions_pdf(cards, "en", "a4", duplex, 8.0, 10.0)
    out = tmp_path / "q.pdf"
    out.write_bytes(data)
    reader = pypdf.PdfReader(str(out))
    by_id = dict((c.id, c) for c in cards)
    height = float(reader.pages[0].mediabox.height) / MM
    width = float(reader.pages[0].mediabox.width) / MM

    class Page:
        pass
    fake = Page()
    fake.width, fake.height = width, height
    grid = Grid(fake, print_questions.QUESTION_CARD, 8.0, 10.0)
    assert pages == len(reader.pages) == 2 * 3
    seen = set()
    for p in range(0, pages, 2):
        front = cells_of(reader.pages[p], grid, height)
        back = cells_of(reader.pages[p + 1], grid, height)
        assert len(front) == len(back) == grid.per_page
        for (col, row), pieces in front.items():
            card_id, frame = header(pieces)
            assert frame == "white"
            # Duplex: long edge mirrors the columns, short edge the rows.
            behind = (grid.cols - 1 - col, row) if duplex == "long" else (col, grid.rows - 1 - row)
            assert header(back[behind]) == (card_id, "violet")
            seen.add(card_id)
        for side in (front, back):
            for pieces in side.values():
                card_id, frame = header(pieces)
                card = by_id[card_id]
                other = "violet" if frame == "white" else "white"
                words = " ".join(" ".join(t for t, _ in pieces).split())
                # Point values (|6|) are no answers; the card id is none either.
                numbers = set(NUMBER.findall(re.sub(r"\|\d+\||" + re.escape(card_id), " ", words)))
                own = set()
                for colour in ("salmon", "green", "yellow"):
                    mine, theirs = card.question(frame, colour), card.question(other, colour)
                    assert " ".join(mine.text.split())[:25] in words
                    assert " ".join(theirs.text.split())[:25] not in words
                    own |= set(NUMBER.findall(mine.text + " " + mine.unit))
                    own |= set(printed(v) for v in mine.scale[0::2])
                    # The exact answer of each of this side's questions is marked (bold) here.
                    assert (printed(mine.answer), True) in pieces
                for colour in ("salmon", "green", "yellow"):
                    answer = printed(card.question(other, colour).answer)
                    # The other frame's answers are what is asked while this side faces the
                    # players: none may show here (unless this side prints that number anyway).
                    assert answer not in numbers or answer in own, (card_id, frame, colour, answer)
    assert seen == set(by_id)


def test_the_command_line_prints_question_sides(tmp_path, capsys):
    out = tmp_path / "q.pdf"
    code = main(["cards", "print", "--kind", "questions", "--lang", "de", "--duplex", "short",
                 "-o", str(out), "-q"])
    assert code == 0, capsys.readouterr().err
    text = pypdf.PdfReader(str(out)).pages[1].extract_text()
    assert "violetter Rahmen" in text and "weißer Rahmen" not in text
