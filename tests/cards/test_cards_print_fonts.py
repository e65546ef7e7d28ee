"""`cards print` with a damaged font file: one line, exit 1, no PDF.

A file named DejaVuSans.ttf that is no TrueType font (a truncated download, a foreign format
under the name) made `cards print` end in reportlab's TTFError traceback.
"""
import pytest

from propctl.cards import print_sheet
from propctl.cli import main

DECK = ("id,category,text,s1,s2,s3,s4,s5,s6,s7,s8,bolt\n"
        "T1,Kitchen,Keep your fingers off the vegetable,Apple,Pear,Plum,Fig,Kiwi,Lime,Date,"
        "Carrot,8\n")


@pytest.fixture
def fresh_fonts(monkeypatch):
    monkeypatch.setattr(print_sheet.Fonts, "_cache", {})


def broken_fonts(folder):
    folder.mkdir()
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"):
        (folder / name).write_bytes(b"garbage, not a font\n")
    return folder


def test_a_damaged_dejavu_falls_back_to_the_next_font(tmp_path, monkeypatch, capsys, fresh_fonts):
    monkeypatch.setattr(print_sheet, "_FONT_DIRS", (str(broken_fonts(tmp_path / "fonts")),))
    deck = tmp_path / "d.en.csv"
    deck.write_text(DECK, encoding="utf-8")
    assert main(["cards", "print", str(deck), "-o", str(tmp_path / "d.pdf"), "-q"]) == 0
    assert (tmp_path / "d.pdf").read_bytes().startswith(b"%PDF")


def test_no_readable_font_is_one_line_and_no_pdf(tmp_path, monkeypatch, capsys, fresh_fonts):
    fonts = broken_fonts(tmp_path / "fonts")
    monkeypatch.setattr(print_sheet, "_FONT_DIRS", (str(fonts),))
    import reportlab
    monkeypatch.setattr(reportlab, "__file__", str(tmp_path / "reportlab" / "__init__.py"))
    deck = tmp_path / "d.en.csv"
    deck.write_text(DECK, encoding="utf-8")
    for argv in (["cards", "print", str(deck), "-o", str(tmp_path / "d.pdf")],
                 ["cards", "print", "--calibration", "-o", str(tmp_path / "d.pdf")]):
        assert main(argv) == 1
        err = capsys.readouterr().err.strip().splitlines()
        assert err[-1].startswith("no font to print with: %s" % (fonts / "DejaVuSans.ttf")), err
        assert "nothing written" in err[-1]
        assert not (tmp_path / "d.pdf").exists()
