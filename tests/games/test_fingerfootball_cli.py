"""`propctl play fingerfootball`: scripted input, saved files, resume, Ctrl-C, bad input."""
import json
import os

import pytest

from propctl import cli
from propctl.games import fingerfootball as ff
from propctl.games import fingerfootball_words as words
from propctl.shared.rules.fingerfootball import FingerFootball
from propctl.shared.rules.rng import Rng

OPENING = ["toss Red", "kick", "north", "end_zone"]  # Red kicks, Blue at its own 20


class Table:
    """Scripted players: answers prompts from a list, records everything said."""

    def __init__(self, lines, interrupt_at=None) -> None:
        self.lines = list(lines)
        self.said = []
        self.prompts = []
        self.interrupt_at = interrupt_at

    def ask(self, prompt):
        self.prompts.append(prompt)
        if self.interrupt_at is not None and len(self.prompts) == self.interrupt_at:
            raise KeyboardInterrupt
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)

    def say(self, text=""):
        self.said.append(str(text))

    @property
    def text(self):
        return "\n".join(self.said)


def run(argv, table):
    args = cli.build_parser().parse_args(["play", "fingerfootball"] + argv)
    return ff.run(args, ask=table.ask, say=table.say)


def saved(path):
    data = json.loads(path.read_text())
    assert data["format"] == ff.SAVE_FORMAT
    return data["game"]


def test_help_teaches(capsys):
    with pytest.raises(SystemExit) as done:
        cli.main(["play", "fingerfootball", "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    for phrase in ("roll 2-run left", "target opp2 pass left", "--resume", "--lane-die", "undo",
                   "Ctrl-C", "Exit codes", "Zone 3"):
        assert phrase in out


def test_listed_under_play(capsys):
    with pytest.raises(SystemExit):
        cli.main(["play", "--help"])
    assert "fingerfootball" in capsys.readouterr().out


def test_scripted_drive_to_a_touchdown_and_the_saved_file(tmp_path):
    path = tmp_path / "game.json"
    table = Table(OPENING + ["roll 2-pass left", "opp2", "made", "go_for_td",
                             "roll 1-run td", "touchdown", "two_point", "good"])
    assert run(["--names", "Red,Blue", "--seed", "1", "--save", str(path)], table) == 0
    text = table.text
    assert "Red wins the toss" in text
    assert "Blue ball, 1st down on the own 20" in text
    assert "Made it: 1st down on the opp 30" in text
    assert "Touchdown Blue! 0-6" in text and "Two-point try is good. 0-8" in text
    assert "Red 0 : 8 Blue" in text
    game = saved(path)  # end of input saves
    assert game["score"] == [0, 8] and game["phase"] == "kickoff" and game["plays"] == 2


def test_bad_input_never_ends_or_changes_the_game(tmp_path):
    clean, noisy = tmp_path / "clean.json", tmp_path / "noisy.json"
    script = OPENING + ["roll 1-run left", "made", "roll 1-pass td", "missed"]
    run(["--names", "Red,Blue", "--seed", "4", "--save", str(clean)], Table(script))
    junk = ["", "dance", "99", "in_field", "in_field fifty", "roll 7-run left", "roll 1-run sideways",
            "field_goal", "made 3", "punt now", "toss Green", "\x00\x1b[A", "target moon"]
    mixed = []
    for i, line in enumerate(script):
        mixed += [junk[i % len(junk)], junk[(i + 5) % len(junk)], line]
    table = Table(mixed)
    run(["--names", "Red,Blue", "--seed", "4", "--save", str(noisy)], table)
    assert saved(noisy) == saved(clean)
    refusals = [line for line in table.said if line.startswith("  ")]
    assert len(refusals) >= 12  # every non-empty junk line got an answer
    text = table.text
    assert "a punt must be announced first" in text and "'punt' takes no value" in text
    assert "the second die shows one of" in text and "no roll is due now" in text


def test_save_and_resume_continue_the_same_game(tmp_path):
    path = tmp_path / "g.json"
    first = Table(OPENING + ["roll", "save"])
    run(["--names", "Red,Blue", "--seed", "9", "--save", str(path)], first)
    assert "Saved to %s" % path in first.text
    at_save = saved(path)
    assert at_save["plays"] == 1 and at_save["dice"] is not None
    again = Table(["board"])
    assert run(["--resume", str(path)], again) == 0
    assert "Resuming the game saved in" in again.text
    assert "Red 0 : 0 Blue" in again.text
    assert saved(path) == at_save  # nothing happened, nothing lost


def test_resumed_dice_continue_the_seeded_sequence(tmp_path):
    whole, half = tmp_path / "whole.json", tmp_path / "half.json"
    opening = ["toss", "kick", "south", "end_zone"]
    run(["--seed", "5", "--save", str(whole)], Table(opening + ["roll", "missed", "roll"]))
    run(["--seed", "5", "--save", str(half)], Table(opening + ["roll"]))
    run(["--resume", str(half)], Table(["missed", "roll"]))
    assert saved(half) == saved(whole)


def test_ctrl_c_asks_and_saves(tmp_path):
    path = tmp_path / "c.json"
    table = Table(OPENING + ["y"], interrupt_at=5)
    assert run(["--names", "Red,Blue", "--seed", "2", "--save", str(path)], table) == 0
    assert "before stopping? [Y/n]" in table.prompts[-1]
    assert saved(path)["phase"] == "scrimmage"


def test_ctrl_c_can_decline_to_save(tmp_path):
    path = tmp_path / "c.json"
    table = Table(OPENING + ["n"], interrupt_at=5)
    assert run(["--seed", "2", "--save", str(path)], table) == 0
    assert "Not saved." in table.text and not path.exists()


def test_quit_asks_like_ctrl_c(tmp_path):
    path = tmp_path / "q.json"
    table = Table(["toss", "quit", ""])
    assert run(["--seed", "2", "--save", str(path)], table) == 0
    assert saved(path)["phase"] == "toss_choice"


def test_undo_takes_back_the_last_entry(tmp_path):
    path = tmp_path / "u.json"
    table = Table(OPENING + ["roll 1-run left", "made", "undo", "missed"])
    run(["--names", "Red,Blue", "--seed", "2", "--save", str(path)], table)
    game = saved(path)
    assert game["ball"] == 20 and game["down"] == 2
    assert "Undone." in table.text


def test_autosave_keeps_every_entry(tmp_path):
    path = tmp_path / "a.json"
    lines = ["toss Red", "kick"]

    class Watcher(Table):
        def ask(self, prompt):
            if path.exists():
                self.phases.append(saved(path)["phase"])
            return super().ask(prompt)

    table = Watcher(lines)
    table.phases = []
    run(["--names", "Red,Blue", "--seed", "2", "--save", str(path), "--autosave"], table)
    assert table.phases == ["toss_choice", "goal_choice"]


def test_save_is_atomic(tmp_path, monkeypatch):
    path = tmp_path / "s.json"
    ff.save(FingerFootball(1), str(path))
    before = path.read_bytes()

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    game = FingerFootball(1)
    game.act("toss")
    with pytest.raises(OSError):
        ff.save(game, str(path))
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.json"]  # no temp file left


def test_failed_save_keeps_the_game_going_and_a_failed_last_save_exits_1(tmp_path, monkeypatch):
    def full_disk(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    table = Table(["toss", "save", "kick"])
    code = run(["--seed", "2", "--save", str(tmp_path / "x.json")], table)
    assert "could not save to %s: No space left on device (the game goes on)" % (tmp_path / "x.json") \
        in table.text
    assert "chooses to kick" in table.text
    # the end of input saves once more; that failing is the last word, not "the game goes on"
    assert table.said[-1].endswith("No space left on device - the game is NOT saved"), table.said[-1]
    assert code == 1


def test_quit_with_a_failed_save_says_the_game_is_not_saved(tmp_path, monkeypatch):
    def refused(src, dst):
        raise OSError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", refused)
    table = Table(["toss", "quit", "y"])
    assert run(["--seed", "2", "--save", str(tmp_path / "x.json")], table) == 1
    assert table.said[-1].endswith("Permission denied - the game is NOT saved")
    assert "goes on" not in table.text


@pytest.mark.parametrize("where, why", [
    ("missing-folder/x.json", "the folder {tmp}/missing-folder does not exist"),
    (".", "is a directory, not a regular file"),
])
def test_a_save_file_that_cannot_be_written_is_refused_before_the_game(tmp_path, where, why):
    table = Table(["toss"])
    target = tmp_path / where
    assert run(["--save", str(target)], table) == 2
    assert table.said == ["error: the game could not be saved to %s: %s; name another file with --save"
                          % (target, why.format(tmp=tmp_path))]
    assert table.prompts == []


def test_unusable_save_files_exit_1(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    table = Table([])
    assert run(["--resume", str(bad)], table) == 1
    assert "cannot be resumed" in table.text
    bad.write_text(json.dumps({"format": "something else"}))
    assert run(["--resume", str(bad)], Table([])) == 1
    bad.write_text(json.dumps({"format": ff.SAVE_FORMAT, "version": 1, "game": {"version": 1}}))
    assert run(["--resume", str(bad)], Table([])) == 1
    assert run(["--resume", str(tmp_path / "nope.json")], Table([])) == 1


def test_bad_settings_exit_2(tmp_path):
    for argv in (["--names", "Red"], ["--names", "Red,red"], ["--lane-die", "left,left"],
                 ["--quarters", "3"], ["--rows", "20,x,40"]):
        table = Table([])
        assert run(argv + ["--save", str(tmp_path / "x.json")], table) == 2
        assert table.text.startswith("error:")
    with pytest.raises(SystemExit) as exit:  # a number outside its range: argparse says so
        run(["--plays", "0"], Table([]))
    assert exit.value.code == 2


def test_settings_reach_the_engine(tmp_path):
    path = tmp_path / "s.json"
    run(["--plays", "5", "--quarters", "2", "--rows", "15,25,45", "--lane-die",
         "td,td,left,middle,right,choice", "--save", str(path)], Table([]))
    settings = saved(path)["settings"]
    assert settings["plays_per_quarter"] == 5 and settings["quarters"] == 2
    assert settings["rows"] == [15, 25, 45] and settings["lane_die"].count("td") == 2


def test_yard_lines_as_players_say_them():
    assert words.parse_yards(["35"]) == 35
    assert words.parse_yards(["own", "35"]) == 35
    assert words.parse_yards(["opp", "45"]) == 55
    assert words.parse_yards(["50"]) == 50
    with pytest.raises(ValueError):
        words.parse_yards(["forty"])


def test_a_yard_line_that_is_not_one_is_answered_with_the_range(tmp_path):
    script = OPENING[:3] + ["in_field -5", "in_field fifty", "in_field", "in_field 0", "in_field opp 0",
                            "in_field 150", "in_field own 35"]
    table = Table(script)
    run(["--names", "Red,Blue", "--seed", "4", "--save", str(tmp_path / "game.json")], table)
    refusals = [line for line in table.said if line.startswith("  ")]
    wanted = "  'in_field' needs a yard line 1..99 (own 1 to opp 1), e.g. in_field 35 or in_field opp 45"
    assert refusals == [wanted] * 6
    assert "Blue ball, 1st down on the own 35" in table.text
    # a narrower range gives its own ends and examples inside it
    with pytest.raises(ValueError) as refused:
        words.parse_yards(["own", "20"], "fumble", (40, 60))
    assert str(refused.value) == ("'fumble' needs a yard line 40..60 (own 40 to opp 40), "
                                  "e.g. fumble 40 or fumble opp 45")


def test_dice_as_players_type_them():
    assert words.parse_dice(["2-run", "left"]) == ["2-run", "left"]
    assert words.parse_dice(["2run", "td"]) == ["2-run", "td"]
    assert words.parse_dice(["3", "pass", "choice"]) == ["3-pass", "choice"]
    with pytest.raises(ValueError):
        words.parse_dice(["left"])


def _typed(action, lone, rng):
    """What a player would type for a legal action."""
    name, kind, options = action
    if kind == "pick":
        choice = rng.choice(options)
        return choice if lone else name + " " + choice
    if kind == "yards":
        yards = rng.between(options[0], options[1])
        return "%s %s" % (name, ff.field.yard_text(yards) if rng.chance(300) else yards)
    return name


@pytest.mark.parametrize("seed", [3, 8])
def test_whole_game_through_the_terminal_ends_with_a_winner(tmp_path, seed):
    path = tmp_path / "whole.json"
    rng = Rng(seed)
    args = cli.build_parser().parse_args(["play", "fingerfootball", "--names", "Red,Blue", "--seed",
                                          str(seed), "--save", str(path)])
    said = []
    holder = {}

    def ask(prompt):
        game = holder["referee"].game
        actions = game.actions()
        lone = len(actions) == 1 and actions[0][1] == "pick"
        if rng.chance(100):
            return "what?"
        return _typed(rng.choice(actions), lone, rng)

    referee = ff.Referee(FingerFootball(seed, ff.settings_from_args(args)), str(path), ask,
                         said.append)
    holder["referee"] = referee
    assert referee.play() == 0
    game = saved(path)
    assert game["phase"] == "over" and game["winner"] in (0, 1)
    assert "Game over: %s wins." % ("Red", "Blue")[game["winner"]] in said
