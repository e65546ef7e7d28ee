"""Printed text fits its box in both directions or the card is refused
by name; right-to-left text is refused by name; a soft hyphen shows only where a line breaks;
a layout file with a BOM is read like a deck."""
import csv
import io
import json
import re
import shutil
import subprocess

import pytest
from needed_tools import missing

from propctl.cards import print_layout
from propctl.cards.print_sheet import Grid
from propctl.cards.print_text import fit, syllables
from propctl.cli import main

pypdf = pytest.importorskip("pypdf", reason="pypdf (requirements-dev.txt) reads the printed PDF")

HEADER = ["id", "category", "text"] + ["s%d" % k for k in range(1, 9)] + ["bolt"]
STATEMENTS = ["Apfel", "Birne", "Pflaume", "Feige", "Kiwi", "Limette", "Dattel", "Karotte"]
LONG = "Rechtsschutzversicherungsgesellschaften"


def deck(tmp_path, rows, name="deck.de.csv"):
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(HEADER)
    for card_id, text, statements in rows:
        writer.writerow([card_id, "Haushalt", text] + statements + [8])
    path = tmp_path / name
    path.write_text(buffer.getvalue(), encoding="utf-8")
    return path


def with_statement(k, statement):
    out = list(STATEMENTS)
    out[k] = statement
    return out


def print_deck(capsys, path, out, *extra):
    code = main(["cards", "print", str(path), "-o", str(out), "-q", "--blank-backs"] + list(extra))
    return code, capsys.readouterr()


def words_of(pdf):
    """[(page, word, xmin, ymin, xmax, ymax)] in pt from the top left, as pdftotext boxes them."""
    if shutil.which("pdftotext") is None:
        missing("the printed cards' box check",
                "pdftotext is not installed (Debian: apt-get install poppler-utils; .ci/run installs it)")
    html = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout

    out, page = [], -1
    for line in html.splitlines():
        if "<page " in line:
            page += 1
        match = re.search(r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*)</word>',
                          line)
        if match:
            out.append((page, match.group(5)) + tuple(float(match.group(k)) for k in range(1, 5)))
    return out


NARROW = {"window_left": 36.0}  # 29 mm for a statement: a long compound must break


def narrow_layout(tmp_path):
    path = tmp_path / "narrow.json"
    path.write_text(json.dumps(NARROW), encoding="utf-8")
    return path


def assert_inside_boxes(pdf, layout):
    """Every word lies inside its card, left of the windows or above window 1, and in the page."""
    reader = pypdf.PdfReader(str(pdf))
    width, height = float(reader.pages[0].mediabox.width), float(reader.pages[0].mediabox.height)
    mm = 72 / 25.4

    class Paper:
        pass
    paper = Paper()
    paper.width, paper.height = width / mm, height / mm
    grid = Grid(paper, (layout.card_width, layout.card_height), layout.gap, layout.margin)
    words = words_of(pdf)
    assert words
    for _page, word, x0, y0, x1, y1 in words:
        assert 0 <= x0 and x1 <= width and 0 <= y0 and y1 <= height, word
        placed = [grid.place(k) for k in range(grid.per_page)]
        cards = [(x, top) for x, top in placed
                 if x * mm - 0.5 <= x0 and x1 <= (x + layout.card_width) * mm + 0.5
                 and top * mm - 0.5 <= y0 and y1 <= (top + layout.card_height) * mm + 0.5]
        assert len(cards) == 1, (word, x0, x1)
        x, top = cards[0]
        for window in range(1, 9):  # no word reaches into a window's opening
            wx0 = (x + layout.window_left) * mm
            wy0 = (top + layout.window_middle(window) - layout.window_height / 2) * mm
            wx1, wy1 = wx0 + layout.window_width * mm, wy0 + layout.window_height * mm
            assert x1 <= wx0 or x0 >= wx1 or y1 <= wy0 or y0 >= wy1, (word, window)


def test_a_long_german_compound_breaks_at_a_syllable_and_stays_out_of_the_windows(tmp_path, capsys):
    text = "Finger weg von der Firma, die keine " + LONG + " ist, " + "und so weiter " * 9
    text = text[:200].rsplit(" ", 1)[0]
    path = deck(tmp_path, [("L-1", "Finger weg von " + LONG, with_statement(0, LONG)),
                           ("L-2", text, with_statement(3, "Donau" + LONG[:20]))])
    assert len(text.encode()) > 180
    out = tmp_path / "cards.pdf"
    code, said = print_deck(capsys, path, out)  # the default layout: shrinking is enough
    assert code == 0, said.err
    assert_inside_boxes(out, print_layout.defaults())
    code, said = print_deck(capsys, path, out, "--layout", str(narrow_layout(tmp_path)))
    assert code == 0, said.err
    assert_inside_boxes(out, print_layout.from_values(NARROW))
    lines = [line.strip() for line in pypdf.PdfReader(str(out)).pages[0].extract_text().splitlines()]
    syllable = syllables(LONG)
    heads = ["".join(syllable[:k]) + "-" for k in range(1, len(syllable))]
    broken = [line for line in lines if line in heads]
    assert broken, lines  # broken after a syllable, with a hyphen
    rest = LONG[len(broken[0]) - 1:]
    assert any(line.startswith(rest[:6]) for line in lines)


def test_statement_and_task_that_cannot_fit_are_refused_by_name(tmp_path, capsys):
    path = deck(tmp_path, [("U-1", "Finger weg", with_statement(2, "1234567890" * 6)),
                           ("U-2", "X" * 200, STATEMENTS)])
    out = tmp_path / "cards.pdf"
    code, said = print_deck(capsys, path, out)
    assert code == 1 and not out.exists()
    assert "card U-1, s3 does not fit" in said.err and "card U-2, text does not fit" in said.err
    assert "nothing written" in said.err


def test_right_to_left_text_is_refused_by_name(tmp_path, capsys):
    path = deck(tmp_path, [("R-1", "Finger weg", with_statement(1, "שלום")),
                           ("R-2", "Finger weg", with_statement(1, "سلام"))])
    out = tmp_path / "cards.pdf"
    code, said = print_deck(capsys, path, out)
    assert code == 1 and not out.exists()
    assert "cards R-1, R-2: right-to-left text" in said.err


def test_a_soft_hyphen_shows_only_where_the_line_breaks(tmp_path, capsys):
    short = "Donau\u00addampf"                                 # fits on one line: no hyphen
    long = "Dampf\u00adschiff\u00adfahrts\u00adkapitäns\u00admützen"  # must break: a hyphen there
    path = deck(tmp_path, [("S-1", "Finger weg", [short, long] + STATEMENTS[2:])])
    out = tmp_path / "cards.pdf"
    code, said = print_deck(capsys, path, out, "--layout", str(narrow_layout(tmp_path)))
    assert code == 0, said.err
    text = pypdf.PdfReader(str(out)).pages[0].extract_text()
    assert "\u00ad" not in text
    lines = [line.strip() for line in text.splitlines()]
    assert "Donaudampf" in lines
    broken = [line for line in lines if line.endswith("-")]
    assert broken, lines
    assert len(broken) == 1 and broken[0] in ("Dampf-", "Dampfschiff-", "Dampfschifffahrts-",
                                              "Dampfschifffahrtskapitäns-")
    after = lines[lines.index(broken[0]) + 1]
    assert broken[0][:-1] + after == "Dampfschifffahrtskapitänsmützen"


def test_a_layout_file_with_a_bom_is_read_like_a_deck(tmp_path, capsys):
    layout = tmp_path / "box.json"
    layout.write_bytes(b"\xef\xbb\xbf" + b'{"first_window": 41.5}')
    path = deck(tmp_path, [("B-1", "Finger weg", STATEMENTS)])
    code, said = print_deck(capsys, path, tmp_path / "cards.pdf", "--layout", str(layout))
    assert code == 0, said.err
    assert print_layout.load(layout).first_window == 41.5


def test_fit_never_returns_lines_wider_or_taller_than_the_box():
    def measure(text, size):
        return len(text) * size * 0.2
    for text in (LONG, "a " * 80, "x" * 40, "Wort\u00adteil " * 10):
        found = fit(text, 20, 8, 10, 4, measure)
        if found is not None:
            lines, size = found
            assert all(measure(line, size) <= 20 for line in lines)
            assert len(lines) * size * 1.2 * 25.4 / 72 <= 8
    assert fit("x" * 40, 20, 8, 10, 4, measure) is None


@pytest.mark.parametrize("word, cut", [
    ("Rechtsschutzversicherungsgesellschaften", "Rechts-schutz-ver-si-che-rungs-ge-sell-schaf-ten"),
    ("Zucker", "Zu-cker"), ("Tasche", "Ta-sche"), ("Katze", "Kat-ze"), ("Rose", "Ro-se"),
    ("Geschwindigkeit", "Ge-schwin-dig-keit"), ("Verantwortung", "Ver-ant-wor-tung"),
    ("Entwicklung", "Ent-wick-lung"), ("Bett", "Bett"), ("Gebäude", "Ge-bäu-de"),
])
def test_german_words_break_at_their_syllables(word, cut):
    assert "-".join(syllables(word)) == cut
