"""`propctl cards print`: the PDF parses, has its pages, and puts text and bolt where the box shows them."""
import json
import math
from pathlib import Path

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from propctl.cards import print_layout
from propctl.cards.load import load_deck
from propctl.cli import main

DECKS = Path(__file__).resolve().parents[2] / "host_tools/propctl/data/decks"
MM = 72 / 25.4
HEADER = "id,category,text,s1,s2,s3,s4,s5,s6,s7,s8,bolt,source,as_of,notes\n"
# Umlauts, ß and the en dash, which a PDF's standard fonts get wrong without care.
SMALL = HEADER + (
    "U-1,Geschichte,\"Finger weg von dem Krieg, der nicht im 20. Jahrhundert begann.\",Koreakrieg,"
    "Erster Weltkrieg (1914–1918),Falklandkrieg,Krimkrieg,Sechstagekrieg,Golfkrieg,Suezkrise,"
    "Vietnamkrieg,4,Britannica,2025,Der Krimkrieg dauerte 1853–1856.\n"
    "U-2,Natur,\"Finger weg von dem Tier, das nicht in Österreich heimisch ist.\",Gämse,Murmeltier,"
    "Steinbock,Känguru,Fuchs,Dachs,Luchs,Igel,4,Britannica,2025,Kängurus leben in Australien.\n")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def texts_with_positions(page):
    """[(text, x pt, y pt)] of every piece of text drawn on the page, in drawing order."""
    found = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            found.append((text.strip(), tm[4], tm[5]))

    page.extract_text(visitor_text=visit)
    return found


def red_shapes(reader, page):
    """The points of every path filled in the bolt's red, one list per shape (pt)."""
    shapes, red, points = [], False, []
    for operands, operator in ContentStream(page.get_contents(), reader).operations:
        if operator == b"rg":
            red = [round(float(v), 2) for v in operands] == [0.85, 0.1, 0.1]
        elif operator in (b"m", b"l"):
            points.append((float(operands[0]), float(operands[1])))
        elif operator in (b"f", b"f*", b"B", b"b"):
            if red and points:
                shapes.append(points)
            points = []
        elif operator in (b"S", b"n"):
            points = []
    return shapes


def test_shipped_deck_prints_one_page_per_four_cards_with_every_statement_in_window_order(tmp_path, capsys):
    out = tmp_path / "karten.pdf"
    code, said, err = run(capsys, "cards", "print", "--lang", "de", "-o", str(out))
    assert code == 0, err
    cards = load_deck([DECKS / "taskcards.de.csv"]).cards
    reader = PdfReader(str(out))
    # 2 x 2 cards of 88 x 125 mm on A4, each page of fronts followed by its backs
    assert len(reader.pages) == 2 * math.ceil(len(cards) / 4)
    assert "%d pages" % len(reader.pages) in said and "laid out" in err
    for number, page in enumerate(reader.pages[0::2]):
        text = " ".join(page.extract_text().split())
        at = 0
        for card in cards[number * 4:number * 4 + 4]:
            for piece in [card.id] + list(card.statements):
                where = text.find(" ".join(piece.split()), at) if piece != card.id else text.find(piece)
                assert where >= 0, (card.id, piece)
                if piece != card.id:
                    at = where + 1


def _card_rows(page, card):
    """The baselines (pt) of the card's eight statements, the x where they start, the task's baseline."""
    found = texts_with_positions(page)
    rows = [next((x, y) for text, x, y in found if text == statement) for statement in card.statements]
    return rows


def test_statements_sit_one_window_pitch_apart_and_the_bolt_only_in_its_window(tmp_path, capsys):
    deck = tmp_path / "deck.de.csv"
    deck.write_text(SMALL, encoding="utf-8")
    layout = {"window_pitch": 12, "first_window": 36, "window_left": 64, "window_width": 16,
              "window_height": 9, "card_height": 130}
    (tmp_path / "box.json").write_text(json.dumps(layout))
    out = tmp_path / "cards.pdf"
    code, _, err = run(capsys, "cards", "print", str(deck), "--layout", str(tmp_path / "box.json"),
                       "-o", str(out), "-q")
    assert code == 0, err
    reader = PdfReader(str(out))
    assert len(reader.pages) == 2  # the fronts, then their backs
    assert not red_shapes(reader, reader.pages[1])  # no bolt on a back
    page = reader.pages[0]
    cards = load_deck([deck]).cards
    shapes = red_shapes(reader, page)
    assert len(shapes) == 2  # one bolt per card, nothing else in red
    for card in cards:
        rows = _card_rows(page, card)
        gaps = [rows[k][1] - rows[k + 1][1] for k in range(7)]
        assert all(abs(gap - 12 * MM) < 0.3 for gap in gaps), gaps
        statement_x = rows[0][0]
        bolt_row = rows[card.bolt][1]
        bolt = [s for s in shapes if abs(sum(p[1] for p in s) / len(s) - bolt_row) < 6 * MM
                and statement_x < s[0][0] < statement_x + 90 * MM]
        assert len(bolt) == 1, card.id
        xs, ys = [p[0] for p in bolt[0]], [p[1] for p in bolt[0]]
        left = statement_x + (64 - 5) * MM      # window_left less the default statement_left
        assert left <= min(xs) and max(xs) <= left + 16 * MM
        # the bolt fills no more than the window's opening around the statement's line
        assert max(ys) - min(ys) <= 9 * MM
        middle = (max(ys) + min(ys)) / 2
        others = [y for k, (x, y) in enumerate(rows) if k != card.bolt]
        assert all(abs(middle - y) > 12 * MM - 9 * MM for y in others)


def test_umlauts_sharp_s_and_en_dash_survive(tmp_path, capsys):
    deck = tmp_path / "deck.de.csv"
    deck.write_text(SMALL, encoding="utf-8")
    out = tmp_path / "cards.pdf"
    assert run(capsys, "cards", "print", str(deck), "-o", str(out), "-q")[0] == 0
    text = PdfReader(str(out)).pages[0].extract_text()
    for word in ("Österreich", "Gämse", "Känguru", "Erster Weltkrieg (1914–1918)"):
        assert word in text


def test_letter_paper_and_calibration_page(tmp_path, capsys):
    out = tmp_path / "cards.pdf"
    assert run(capsys, "cards", "print", "--lang", "en", "--paper", "letter", "-o", str(out), "-q")[0] == 0
    box = PdfReader(str(out)).pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)
    cal = tmp_path / "cal.pdf"
    code, said, _ = run(capsys, "cards", "print", "--calibration", "--lang", "en", "-o", str(cal))
    assert code == 0 and "calibration page, 1 page" in said
    page = PdfReader(str(cal)).pages[0]
    text = page.extract_text()
    assert "100 mm" in text and "first_window = 40 mm" in text
    labels = [t for t, _, _ in texts_with_positions(page) if t.isdigit()]
    for label in ("10", "50", "80", "120"):  # the rulers along the card's edges
        assert label in labels


def test_question_cards_have_fronts_then_mirrored_backs(tmp_path, capsys):
    out = tmp_path / "q.pdf"
    code, _, err = run(capsys, "cards", "print", "--kind", "questions", "--lang", "en", "-o", str(out), "-q")
    assert code == 0, err
    cards = load_deck([DECKS / "questions.en.json"]).cards
    reader = PdfReader(str(out))
    assert len(reader.pages) == 2 * math.ceil(len(cards) / 4)
    front, back = reader.pages[0], reader.pages[1]
    front_text = " ".join(front.extract_text().split())
    back_text = " ".join(back.extract_text().split())
    for colour in ("salmon", "green", "yellow"):  # one frame a side
        assert " ".join(cards[0].question("white", colour).text.split())[:30] in front_text
        assert " ".join(cards[0].question("violet", colour).text.split())[:30] in back_text

    def x_of(page, card):
        return min(x for text, x, _ in texts_with_positions(page) if text.startswith(card.id + " "))

    width = float(front.mediabox.width)
    for card in cards[:2]:  # left card's back is on the right (long-edge duplex), and the other way
        assert abs((x_of(front, card) + x_of(back, card)) - (width - 88 * MM + 2 * 5 * MM)) < 2 * MM


def test_bad_paths_and_layouts_are_refused_and_nothing_is_written(tmp_path, capsys):
    code, _, err = run(capsys, "cards", "print", "-o", str(tmp_path / "no" / "x.pdf"))
    assert code == 1 and "does not exist; nothing written" in err
    code, _, err = run(capsys, "cards", "print", "-o", str(tmp_path / "x.txt"))
    assert code == 2 and "PDF" in err
    (tmp_path / "x.pdf").mkdir()
    code, _, err = run(capsys, "cards", "print", "-o", str(tmp_path / "x.pdf"))
    assert code == 1 and "cannot write" in err and "nothing written" in err
    (tmp_path / "l.json").write_text('{"window_pitch": "wide", "colour": 1}')
    code, _, err = run(capsys, "cards", "print", "--layout", str(tmp_path / "l.json"), "-o",
                       str(tmp_path / "y.pdf"))
    assert code == 1 and "window_pitch: 'wide' is not a number" in err
    assert "'colour' is not a layout key" in err
    assert not (tmp_path / "y.pdf").exists()


@pytest.mark.parametrize("target", ["/proc/cards.pdf", "FOLDER"])
def test_an_output_that_cannot_be_written_is_refused_before_the_cards_are_laid_out(target, tmp_path, capsys):
    # before: every card was laid out (progress to 100 %), then "cannot write"
    if target == "FOLDER":
        (tmp_path / "x.pdf").mkdir()
        target = str(tmp_path / "x.pdf")
    code, out, err = run(capsys, "cards", "print", "-o", target)
    assert code == 1 and "cannot write %s" % target in err and "nothing written" in err
    assert "laid out" not in out + err


def test_layouts_that_do_not_fit_the_card_say_which_length_to_change():
    with pytest.raises(print_layout.LayoutError, match="window 8 ends 137.0 mm"):
        print_layout.from_values({"first_window": 60, "window_pitch": 10.5})
    with pytest.raises(print_layout.LayoutError, match="outside"):
        print_layout.from_values({"card_width": 500})
    assert print_layout.from_values({"first_window": 41.5}).window_middle(8) == 41.5 + 70


def test_a_character_no_font_can_draw_is_named_before_anything_is_written(tmp_path, capsys):
    deck = tmp_path / "deck.de.csv"
    deck.write_text(SMALL.replace("Koreakrieg", "\u6f22\u5b57"), encoding="utf-8")
    code, _, err = run(capsys, "cards", "print", str(deck), "-o", str(tmp_path / "c.pdf"))
    assert code == 1 and "card U-1" in err and "U+6F22" in err
    assert not (tmp_path / "c.pdf").exists()
