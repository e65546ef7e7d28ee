"""House-rule warnings of a family's own deck fit an 80x24 terminal.

A 12-card deck without sources, notes, dates or the game's wording broke four house rules on
every card: `pack` printed 50 warnings (126 rows at 80 columns). Now each rule is one line with
its cards' count and lines; errors stay one per line; `--all` and `--strict` list each warning
in the issue's order (line, then field in the file's column order).
"""
import pytest
from test_cards_levels import run, twelve_family_cards

from propctl.cards.deckfile import Problem
from propctl.cards.report import grouped, rule, spans
from propctl.cli import main


def rows(text, width=80):
    """Terminal rows the text takes at `width` columns."""
    return sum(max(1, -(-len(line) // width)) for line in text.splitlines())


def test_a_twelve_card_family_deck_packs_with_a_screen_of_warnings(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    twelve_family_cards(tmp_path)
    deck = "twelve.en.csv"
    code, out, err = run(capsys, "cards", "pack", deck, "-o", tmp_path / "t.bin")
    assert code == 0 and (tmp_path / "t.bin").exists()
    assert rows(out + err) <= 20, out + err
    lines = out.splitlines()
    assert "twelve.en.csv: warning: no source on 12 cards (lines 2-13)" in lines
    assert "twelve.en.csv: warning: no as_of on 12 cards (lines 2-13)" in lines
    assert "twelve.en.csv: warning: no notes on 12 cards (lines 2-13)" in lines
    assert ("twelve.en.csv: warning: task not worded 'Keep your fingers off ...' on 12 cards "
            "(lines 2-13)") in lines
    assert any("0 of 12 cards are family cards" in line for line in lines)
    assert "50 warnings" in err and "--all lists each" in err


@pytest.mark.parametrize("flag", ["--all", "--strict"])
def test_check_all_and_strict_list_each_warning_by_line_and_column(tmp_path, capsys, flag):
    deck = twelve_family_cards(tmp_path)
    code, out, err = run(capsys, "cards", "check", flag, deck)
    assert code == (1 if flag == "--strict" else 0)
    detailed = [line for line in out.splitlines() if ":warning" not in line and "card F" in line]
    assert len(detailed) == 48  # 4 rules x 12 cards
    # Line 2's four, in the file's columns: text (3rd column), then source, as_of, notes.
    assert [line.split("card F1, ")[1].split(":")[0] for line in detailed[:4]] == \
        ["text", "source", "as_of", "notes"]
    assert [int(line.split(":")[1]) for line in detailed] == sorted(
        int(line.split(":")[1]) for line in detailed)
    assert "--all lists each" not in err


def test_errors_stay_one_per_line_among_grouped_warnings(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    deck = twelve_family_cards(tmp_path)
    text = deck.read_text().splitlines()
    text[3] = text[3].rsplit(",", 1)[0] + ",three"    # card F3: a bad bolt
    text[6] = text[6].rsplit(",", 1)[0] + ",9"        # card F6: no window 9
    deck.write_text("\n".join(text) + "\n")
    code, out, err = run(capsys, "cards", "pack", "twelve.en.csv", "-o", tmp_path / "t.bin")
    assert code == 1 and not (tmp_path / "t.bin").exists()
    errors = [line for line in out.splitlines() if ": warning: " not in line]
    assert len(errors) == 2
    assert errors[0].startswith("twelve.en.csv:4: card F3, bolt:")
    assert errors[1].startswith("twelve.en.csv:7: card F6, bolt:")
    # The rows that could not be read still count for the house rules.
    assert "twelve.en.csv: warning: no source on 12 cards (lines 2-13)" in out
    assert "2 errors and 50 warnings" in err


def test_one_card_breaking_a_rule_is_shown_as_it_is():
    one = Problem("d.csv", 5, "source", "is missing; allowed: a source", card="X", level="warning")
    assert grouped([one]) == [str(one)]


def test_question_rules_group_over_frames_and_colours():
    problems = [Problem("q.json", 3 + k, "%s_salmon_source" % frame, "is missing; allowed: x",
                        card="Q%d" % k, level="warning")
                for k in range(3) for frame in ("white", "violet")]
    assert grouped(problems) == ["q.json: warning: no source on 6 questions (lines 3-5)"]
    assert rule(Problem("q.json", 1, "white_green_as_of", "'2020-13' is not a date; allowed: x",
                        level="warning")) == "as_of not a date"


def test_spans_stay_short():
    assert spans([2]) == "line 2"
    assert spans([2, 3, 4, 7, 9, 10]) == "lines 2-4, 7, 9-10"
    assert spans(list(range(1, 40, 2))) == "lines 1, 3, 5, 7, ..."


def test_help_names_all(capsys):
    with pytest.raises(SystemExit):
        main(["cards", "check", "--help"])
    assert "--all" in capsys.readouterr().out
