"""The game masters as a family meets them at an 80-column terminal: sentences wrapped between
words, English only in the English game, no "deck shuffled" note while no question repeats, no
--resume offered for a finished game, and Finger Football's menu numbers and plays that work."""
import os
import re

from pty_terminal import Terminal, read_until, spawn, stop
from test_fingerfootball_cli import OPENING, Table, run

from propctl.games.pimaldaumen_pile import Pile
from propctl.termtext import cells, wrap


def test_a_finished_game_offers_no_resume(tmp_path):
    path = tmp_path / "ff.json"
    table = Table(OPENING[:3] + ["in_field 90", "go_for_td", "touchdown", "extra_point", "good", "kick",
                                 "end_zone", "roll 1-run left", "missed"])
    assert run(["--names", "Red,Blue", "--seed", "1", "--plays", "1", "--quarters", "2",
                "--save", str(path)], table) == 0
    assert "Game over: Blue wins." in table.text
    assert "--resume" not in table.text and "continue with" not in table.text
    assert "The finished game is saved in %s." % path in table.text


def test_the_menu_takes_the_number_it_shows_and_asks_for_the_yard_line(tmp_path):
    table = Table(OPENING[:3] + ["1", "35"])
    run(["--names", "Red,Blue", "--seed", "4", "--save", str(tmp_path / "g.json")], table)
    assert "1) in field" in table.text
    assert any(p.startswith("in field: the yard line 1..99") for p in table.prompts), table.prompts
    assert "Blue ball, 1st down on the own 35" in table.text
    assert not [line for line in table.said if line.startswith("  ")]  # nothing refused


def test_the_number_then_enter_goes_back_to_the_menu(tmp_path):
    table = Table(OPENING[:3] + ["1", "", "in field 40"])
    run(["--names", "Red,Blue", "--seed", "4", "--save", str(tmp_path / "g.json")], table)
    assert "Blue ball, 1st down on the own 40" in table.text
    assert not [line for line in table.said if line.startswith("  ")]


def test_an_announced_play_that_is_none_lists_the_plays(tmp_path):
    # Blue on its own 20; a roll of zone 2 pass "choice" lets Blue announce the play
    table = Table(OPENING + ["roll 2-pass choice", "moon", "opp2 run left"])
    run(["--names", "Red,Blue", "--seed", "4", "--lane-die", "left,middle,right,choice,td,choice",
         "--save", str(tmp_path / "g.json")], table)
    refusals = [line for line in table.said if line.startswith("  ")]
    assert refusals, table.text
    assert "'moon' is not a play" in refusals[0] and "run or pass" in refusals[0], refusals[0]
    assert "announce the play:" in table.text and "target:" not in table.text


def test_the_deck_is_not_said_to_be_shuffled_while_no_question_repeats():
    pile = Pile({}, "white", ["A", "B", "C"], seed=7)
    notes = []
    for colour in ("yellow", "yellow", "yellow", "green", "green", "green"):
        notes += pile.draw(colour)
    assert notes == []  # every card read once per colour: nothing repeated, nothing to say
    assert pile.draw("yellow") != []  # now a yellow question would repeat: the table is told


def test_wrap_breaks_between_words_by_display_width():
    text = "Note: the board is a STAND-IN (stand-in): the printed board's layout is not known, so " * 2
    for line in wrap(text, 79):
        assert cells(line) <= 79
    assert " ".join(wrap(text, 79)) == " ".join(text.split())  # no word was broken
    wide = "日本語 " * 30
    assert all(cells(line) <= 20 for line in wrap(wide, 20))


def test_pimaldaumen_at_an_80_column_terminal_wraps_at_words(tmp_path):
    term = Terminal(80, 24)
    pid, fd = spawn(80, 24, "play", "pimaldaumen", "--players", "Ann,Bo", "--lang", "en", "--seed", "3",
                    "--save", str(tmp_path / "s.json"))
    try:
        assert read_until(fd, term, lambda t: "Ann, your answer" in t.text() or "Bo, your answer" in t.text(),
                          30), term.text()
        assert term.overlong == 0, term.text()
        flat = " ".join(term.text().split())
        assert "the printed board's layout is not known" in flat
        assert not re.search(r"\bboard'\s*\n\s*s\b", term.text())
        os.write(fd, b"quit\n")
        assert read_until(fd, term, lambda t: "[Y/n]" in t.text(), 10), term.text()
        os.write(fd, b"n\n")
        _, status = os.waitpid(pid, 0)
        assert os.WEXITSTATUS(status) == 0
    finally:
        stop(pid, fd)
