"""Errors (what the box or game cannot play) and house rules (warnings).

A family's own deck packs with warnings; --strict refuses it; the shipped decks pass --strict;
`cards check` lists every problem of every kind in one run, by line and then column order.
"""
import csv
import io

import pytest

from propctl.cards import lang as langs
from propctl.cli import main

FRUIT = ["Apple", "Pear", "Plum", "Fig", "Kiwi", "Lime", "Date", "Carrot"]


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def twelve_family_cards(tmp_path):
    """12 cards, no family column, no sources, notes or dates, free wording, bolts anywhere."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["id", "category", "text"] + ["s%d" % k for k in range(1, 9)] + ["bolt"])
    for i in range(12):
        statements = ["%s %d" % (word, i) for word in FRUIT]
        writer.writerow(["F%d" % (i + 1), "Kitchen", "Which one is no fruit?"] + statements + [8])
    path = tmp_path / "twelve.en.csv"
    path.write_text(buffer.getvalue(), encoding="utf-8")
    return path


def test_a_familys_own_deck_packs_with_warnings_and_strict_refuses_it(tmp_path, capsys):
    deck = twelve_family_cards(tmp_path)
    out_file = tmp_path / "t.bin"
    code, out, err = run(capsys, "cards", "pack", "--all", deck, "-o", out_file)
    assert code == 0, out + err
    assert out_file.exists() and "12 Finger weg! task cards" in out
    warnings = [line for line in out.splitlines() if ": warning: " in line]
    assert any("0 of 12 cards are family cards" in line for line in warnings)
    assert any("does not start with 'Keep your fingers off'" in line for line in warnings)
    assert any("source: is missing" in line for line in warnings)
    assert any("bolts are unevenly spread" in line for line in warnings)
    assert "warnings" in err and "--strict" in err
    out_file.unlink()
    code, out, err = run(capsys, "cards", "pack", "--strict", deck, "-o", out_file)
    assert code == 1 and not out_file.exists() and "nothing written" in err
    code, out, err = run(capsys, "cards", "check", deck)
    assert code == 0 and "no errors" in out
    assert run(capsys, "cards", "check", "--strict", deck)[0] == 1
    code, out, err = run(capsys, "cards", "print", deck, "-o", tmp_path / "t.pdf")
    assert code == 0 and (tmp_path / "t.pdf").exists(), err
    code, out, err = run(capsys, "cards", "print", "--strict", deck, "-o", tmp_path / "u.pdf")
    assert code == 1 and not (tmp_path / "u.pdf").exists()


def test_the_four_problem_deck_lists_all_four_in_one_run_in_column_order(tmp_path, capsys):
    path = tmp_path / "four.en.csv"
    # Columns in the family's own order: notes before source.
    path.write_text("id,category,text,s1,s2,s3,s4,s5,s6,s7,s8,notes,bolt,as_of,source\n"
                    "T1,Geo,Keep your fingers off the capitals,Paris,Rome,Oslo,Bern,Lima,Riga,Quito,"
                    "Sydney,,three,20x4,\n", encoding="utf-8")
    code, out, err = run(capsys, "cards", "check", path)
    assert code == 1
    lines = out.strip().splitlines()
    assert len(lines) == 4, lines
    fields = [line.split("card T1, ")[1].split(":")[0] for line in lines]
    assert fields == ["notes", "bolt", "as_of", "source"]
    assert "'three' is not a window number" in lines[1] and ": warning: " not in lines[1]
    assert all(": warning: " in lines[k] for k in (0, 2, 3))
    assert "1 error and 3 warnings" in err
    code, out, err = run(capsys, "cards", "pack", path, "-o", tmp_path / "four.bin")
    assert code == 1 and not (tmp_path / "four.bin").exists()


def test_problems_of_several_cards_come_by_line(tmp_path, capsys):
    path = tmp_path / "two.en.csv"
    path.write_text("id,category,text,s1,s2,s3,s4,s5,s6,s7,s8,bolt\n"
                    "A,Geo,Keep your fingers off x,a,b,c,d,e,f,g,h,9\n"
                    "A,Geo,Free wording,a,b,c,d,e,f,g,h,1\n", encoding="utf-8")
    code, out, _ = run(capsys, "cards", "check", path)
    lines = out.strip().splitlines()
    numbers = [int(line.split(":")[1]) for line in lines]
    assert numbers == sorted(numbers) and set(numbers) == {2, 3}, lines
    assert any("duplicate id" in line and ": warning: " not in line for line in lines)


@pytest.mark.parametrize("lang", langs.LANGS)
def test_the_shipped_decks_pass_strict(capsys, lang):
    code, out, err = run(capsys, "cards", "check", "--strict", "--lang", lang)
    assert code == 0, out
    assert out.count("no problems") == 2
