"""The game masters' words at the table.

Before: a lone menu said "choose 1 to 1"; `toss Green` answered "the coin was won by Red or
Blue"; --help showed `Red: roll | punt | field_goal` while the prompt is numbered; `board` and
`save` left a bare prompt; Ctrl-C at the save question printed "^CSaved to ..." on one line; a
new game suggested `--resume` on a save that was finished; "announce opp3 run left" was never
explained; Pi mal Daumen took -3 as an answer.
"""
import os
import subprocess
import sys

import pytest
from test_fingerfootball_cli import OPENING, Table, run

from propctl import cli
from propctl.games import fingerfootball_words as words
from propctl.games.fingerfootball import PLAY_WORDS
from propctl.props.football.reports import PLAY_NOTE, play_note
from propctl.shared.rules.fingerfootball import FingerFootball

PROPCTL = [sys.executable, "-m", "propctl.cli"]


def test_a_lone_choice_says_type_1():
    with pytest.raises(ValueError) as refused:
        words.parse_entry("2", [("toss", "team", (0, 1))], FingerFootball(1))
    assert str(refused.value) == "there is one choice now: type 1 (or toss)"


def test_toss_of_a_team_that_is_not_playing_names_the_teams():
    game = FingerFootball(1, {"names": ["Red", "Blue"]})
    with pytest.raises(ValueError) as refused:
        words.parse_entry("toss Green", game.actions(), game)
    assert "'Green' is not a team here: type toss Red or toss Blue" in str(refused.value)


def test_help_shows_the_menu_numbered_as_the_prompt_does(capsys):
    with pytest.raises(SystemExit):
        cli.main(["play", "fingerfootball", "--help"])
    out = capsys.readouterr().out
    assert "Red: 1) roll | 2) punt | 3) field goal" in out and "roll | punt | field_goal" not in out


@pytest.mark.parametrize("command", ["board", "save", "help"])
def test_a_table_command_says_the_question_again(command, tmp_path):
    table = Table(["toss Red", command, "kick"])
    run(["--names", "Red,Blue", "--seed", "2", "--save", str(tmp_path / "s.json")], table)
    question = "Red: 1) kick | 2) receive"
    asked = [i for i, line in enumerate(table.said) if line == question]
    assert len(asked) == 2, table.text  # before the command, and after it
    assert "chooses to kick" in table.text


def test_ctrl_c_at_the_save_question_ends_its_line(tmp_path):
    table = Table(OPENING, interrupt_at=3)
    seen = []

    def ask(prompt):
        if prompt.startswith("Save the game"):
            seen.append(len(table.said))
            raise KeyboardInterrupt
        return table.ask(prompt)
    args = cli.build_parser().parse_args(["play", "fingerfootball", "--seed", "2",
                                          "--save", str(tmp_path / "s.json")])
    from propctl.games import fingerfootball as ff
    assert ff.run(args, ask=ask, say=table.say) == 0
    at = seen[0]
    assert table.said[at] == "" and table.said[at + 1].startswith("Saved to")


def test_a_new_game_beside_a_finished_one_does_not_offer_to_continue_it(tmp_path):
    finished = ["toss Red", "kick", "north", "in_field 90", "go_for_td", "touchdown", "extra_point", "good",
                "kick", "end_zone", "roll 1-run left", "missed"]
    path = tmp_path / "fingerfootball-save.json"
    assert run(["--names", "Red,Blue", "--seed", "1", "--plays", "1", "--quarters", "2", "--save", str(path)],
               Table(finished)) == 0
    done = subprocess.run(PROPCTL + ["play", "fingerfootball"], input="", capture_output=True, text=True,
                          cwd=tmp_path, timeout=60)
    out = " ".join(done.stdout.split())
    assert "fingerfootball-save.json holds a finished game (kept for the record); this one saves to " \
           "fingerfootball-save-2.json" in out, out
    assert "--resume fingerfootball-save.json" not in out


def test_announcing_a_play_is_explained():
    game = FingerFootball(7, {"names": ["Red", "Blue"]})
    for line in ["toss Red", "receive", "goal north", "end_zone"]:
        game.act(*_entry(game, line))
    game.act("roll", ["2-run", "choice"])  # real dice: the lane die shows CHOICE
    assert "target" in game.action_names()
    state = {"box": "idle", "actions": [list(a) for a in game.actions()]}
    assert play_note(state) == PLAY_NOTE and len(PLAY_NOTE) < 80
    assert "own3" in PLAY_NOTE and "run or pass" in PLAY_NOTE
    assert play_note({"box": "idle", "actions": [["roll", "dice", None]]}) == ""
    assert "zone whose circle it aims at" in PLAY_WORDS


def _entry(game, line):
    return words.parse_entry(line, game.actions(), game)


def test_pi_mal_daumen_refuses_an_answer_below_zero(tmp_path):
    done = subprocess.run(PROPCTL + ["play", "pimaldaumen", "--players", "Ann,Bo", "--lang", "en",
                                     "--seed", "3", "--save", str(tmp_path / "p.json")], input="-3\n",
                          capture_output=True,
                          text=True, timeout=60, env=dict(os.environ, CI="1"))
    out = " ".join(done.stdout.split())
    assert "-3 is below 0, and every answer to this question is 0 or more" in out, out
    assert "Bo says -3" not in out
