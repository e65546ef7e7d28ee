"""Damaged save files for both game masters: `--resume` says "cannot be resumed: <why>" or plays on.

Valid saves are taken at many points of real games (every prompt, by typing
`save`); hypothesis then damages them: any value replaced by other JSON, keys
and list items dropped or doubled, numbers shifted, or the file replaced by
random bytes. The resumed game is then played with a fixed script. Nothing may
raise: the exit code is 0 (played on, saved at the end) or 1 with the message.
"""
import argparse
import copy
import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from propctl.games import fingerfootball, pimaldaumen
from propctl.games import table as table_module

EXAMPLES = 1500  # the standard: 1 500 damaged saves, 0 crashes
NAMES = "Ann,Bo,Cy"


class Table:
    """Answers prompts from a script, then ends the input; records the text and every save seen."""

    def __init__(self, lines, save_path=None) -> None:
        self.lines = list(lines)
        self.said: list = []
        self.saves: list = []
        self.save_path = save_path
        self.last = None

    def ask(self, prompt):
        if self.save_path is not None and self.save_path.exists():  # autosaves and `save`
            saved = json.loads(self.save_path.read_text())
            if saved not in self.saves:
                self.saves.append(saved)
        if not self.lines:
            raise EOFError
        self.last = self.lines.pop(0)
        return self.last

    def say(self, text=""):
        self.said.append(str(text))

    @property
    def text(self):
        return "\n".join(self.said)


def with_saves(lines):
    """The script with `save` typed before every line."""
    out = []
    for line in lines:
        out += ["save", line]
    return out


# --- Pi mal Daumen -----------------------------------------------------------------

PIMAL_GAME = ["12", "y", "175", "13", "175", "240", "y", "vielleicht", "600", "5", "175", "330",
              "n", "2", "240", "175", "12", "175", "175", "175"]
PIMAL_AFTER = ["240", "y", "12", "2", "175", "n", "13", "600", "track", "3", "175", "175", "help"]


def pimal_args(*argv):
    parser = argparse.ArgumentParser()
    pimaldaumen.register(parser.add_subparsers())
    return parser.parse_args(["pimaldaumen"] + [str(a) for a in argv])


@pytest.fixture(scope="module")
def pimal_saves(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pimal")
    side = {c: {"text": "How long?", "unit": "years", "answer": 175, "source": "rulebook",
                "scale": [12, 3, 120, 6, 175, 6, 240, 4, 330, 3, 520, 2, 600]}
            for c in ("yellow", "green", "salmon")}
    deck = folder / "deck.json"
    deck.write_text(json.dumps({"kind": "questions", "cards": [
        {"id": "D%d" % i, "white": side, "violet": side} for i in range(3)]}))
    fields = [{"kind": "start"}] + [{"colour": "green"} for _ in range(14)] + [{"kind": "goal"}]
    fields[2] = {"colour": "yellow", "bonus": True}
    fields[8] = {"colour": "salmon", "minus": -2}
    board = folder / "board.json"
    board.write_text(json.dumps({"fields": fields}))
    save = folder / "save.json"
    table = Table(with_saves(PIMAL_GAME), save)
    code = pimaldaumen.run(pimal_args("--players", NAMES, "--deck", deck, "--board", board, "--seed", 1,
                                      "--save", save), ask=table.ask, say=table.say)
    assert code == 0
    phases = set(s["game"]["phase"] for s in table.saves)
    assert {"question", "guess", "choose", "bonus_guess"} <= phases, phases
    return folder, table.saves


# --- Finger Football ------------------------------------------------------------------

FOOTBALL_GAME = ["toss Red", "kick", "north", "end_zone", "roll 1-run left", "made", "roll", "missed",
                 "roll", "flag", "accept", "roll", "fumble 40", "roll", "1", "touchdown", "extra_point",
                 "good", "roll", "punt", "in_field 30"]
FOOTBALL_AFTER = ["roll", "made", "1", "missed", "undo", "board", "roll 2-run left", "touchdown", "2",
                  "good", "in_field 35", "roll"]


@pytest.fixture(scope="module")
def football_saves(tmp_path_factory):
    folder = tmp_path_factory.mktemp("football")
    save = folder / "save.json"
    table = Table(with_saves(FOOTBALL_GAME), save)
    parser = argparse.ArgumentParser()
    fingerfootball.register(parser.add_subparsers())
    args = parser.parse_args(["fingerfootball", "--names", "Red,Blue", "--seed", "2", "--save", str(save)])
    assert fingerfootball.run(args, ask=table.ask, say=table.say) == 0
    assert len(set(json.dumps(s) for s in table.saves)) >= 10
    return folder, table.saves


# --- damage -----------------------------------------------------------------------------

WORDS = ["guess", "choose", "question", "bonus_guess", "bonus_question", "over", "yellow", "green",
         "salmon", "white", "violet", "D0", "D1", "D9", "guess", "bonus", "questioner", "scrimmage",
         "kickoff", "north", "Red", "", "\udcff"]
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 20) | st.integers() | st.sampled_from(WORDS)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6)


def paths(value, here=()):
    """Every place in a JSON tree, as a tuple of keys and indexes."""
    found = [here]
    if isinstance(value, dict):
        for key in value:
            found += paths(value[key], here + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += paths(item, here + (i,))
    return found


def damage(data, save):
    """Draw 1-3 changes to a copy of `save`."""
    save = copy.deepcopy(save)
    for _ in range(data.draw(st.integers(1, 3))):
        places = [p for p in paths(save) if p]
        if not places:
            break
        place = data.draw(st.sampled_from(places))
        parent = save
        for key in place[:-1]:
            parent = parent[key]
        last = place[-1]
        how = data.draw(st.sampled_from(["replace", "drop", "double", "shift", "swap"]))
        if how == "replace":
            parent[last] = data.draw(JSON)
        elif how == "drop":
            del parent[last]
        elif how == "double" and isinstance(parent, list):
            parent.insert(last, copy.deepcopy(parent[last]))
        elif how == "shift" and isinstance(parent[last], int) and not isinstance(parent[last], bool):
            parent[last] += data.draw(st.sampled_from([-2, -1, 1, 2, 7]))
        elif how == "swap":  # a value from elsewhere in the same save
            source = data.draw(st.sampled_from(places))
            value = save
            for key in source:
                value = value[key]
            parent[last] = copy.deepcopy(value)
    return save


def check_resume(run, folder, text_or_bytes, table_lines):
    path = folder / "damaged.json"
    out = folder / "out.json"
    if isinstance(text_or_bytes, bytes):
        path.write_bytes(text_or_bytes)
    else:
        path.write_text(text_or_bytes, encoding="utf-8")
    table = Table(table_lines)
    code = run(path, out, table)  # must not raise
    if code == 1:
        assert "cannot be resumed: " in table.text, table.text
    else:
        assert code == 0, table.text
        assert "Resuming the game" in table.text
        json.loads(out.read_text())  # the end of input saved a readable game


def run_pimal(path, out, table):
    return pimaldaumen.run(pimal_args("--resume", path, "--save", out), ask=table.ask, say=table.say)


def run_football(path, out, table):
    parser = argparse.ArgumentParser()
    fingerfootball.register(parser.add_subparsers())
    args = parser.parse_args(["fingerfootball", "--resume", str(path), "--save", str(out)])
    return fingerfootball.run(args, ask=table.ask, say=table.say)


SLOW_FIXTURE = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large]


@pytest.mark.slow
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=SLOW_FIXTURE)
@given(data=st.data())
def test_damaged_pimaldaumen_saves_never_crash(pimal_saves, data):
    folder, saves = pimal_saves
    save = damage(data, data.draw(st.sampled_from(saves)))
    check_resume(run_pimal, folder, json.dumps(save), PIMAL_AFTER)


@pytest.mark.slow
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=SLOW_FIXTURE)
@given(data=st.data())
def test_damaged_fingerfootball_saves_never_crash(football_saves, data):
    folder, saves = football_saves
    save = damage(data, data.draw(st.sampled_from(saves)))
    check_resume(run_football, folder, json.dumps(save), FOOTBALL_AFTER)


@settings(max_examples=200, deadline=None, suppress_health_check=SLOW_FIXTURE)
@given(blob=st.binary(max_size=300))
def test_random_bytes_are_not_a_save(pimal_saves, football_saves, blob):
    check_resume(run_pimal, pimal_saves[0], blob, [])
    check_resume(run_football, football_saves[0], blob, [])


def test_every_valid_save_resumes(pimal_saves, football_saves):
    for run, (folder, saves), lines in ((run_pimal, pimal_saves, PIMAL_AFTER),
                                        (run_football, football_saves, FOOTBALL_AFTER)):
        for save in saves:
            path = folder / "valid.json"
            path.write_text(json.dumps(save))
            table = Table(lines)
            assert run(path, folder / "out.json", table) == 0, table.text


@pytest.mark.parametrize("change,why", [
    (lambda s: s.update(names=["Ann", "Ann", "Cy"]), "appears twice"),
    (lambda s: s.update(order=[]), "card order is damaged"),
    (lambda s: s.update(drawn=99), "it has drawn 99 of"),
    (lambda s: s.update(current="D7"), "the card in play is not in the deck"),
    (lambda s: s.update(frame="blue"), 'its frame is "blue"'),
    (lambda s: s.update(seed="x"), "its seed is missing or damaged"),
    (lambda s: s["game"].update(phase="guess", round=None), "its game: "),
    (lambda s: s.update(read="D0"), "its list of questions read is damaged"),
    (lambda s: s.update(read=[["D9", "green"]]), 'questions read is damaged (["D9", "green"])'),
    (lambda s: s.update(read=[["D0", "blue"]]), 'questions read is damaged (["D0", "blue"])'),
    (lambda s: s.update(read=[["D0"]]), 'questions read is damaged (["D0"])'),
    (lambda s: s.update(read=[[["D0"], "green"]]), "questions read is damaged"),
])
def test_a_bad_pimaldaumen_save_says_why(pimal_saves, change, why):
    folder, saves = pimal_saves
    save = copy.deepcopy([s for s in saves if s["game"]["phase"] == "guess"][0])
    change(save)
    path = folder / "bad.json"
    path.write_text(json.dumps(save))
    table = Table([])
    assert run_pimal(path, folder / "out.json", table) == 1
    assert "bad.json cannot be resumed: " in table.text and why in table.text, table.text


def test_a_save_from_before_the_questions_read_resumes_remembering_none(pimal_saves):
    folder, saves = pimal_saves
    save = copy.deepcopy([s for s in saves if s["game"]["phase"] == "guess"][0])
    assert save["read"], "a save in the guess phase has read the question in play"
    del save["read"]
    path = folder / "old.json"
    path.write_text(json.dumps(save))
    table = Table(PIMAL_AFTER)
    assert run_pimal(path, folder / "out.json", table) == 0, table.text
    assert "Resuming the game" in table.text


@pytest.mark.parametrize("make, why", [
    (lambda p: p.write_text("[" * 100000 + "]" * 100000), "(JSON nested too deeply)"),
    (os.mkfifo, "is a pipe (FIFO), not a regular file"),  # used to wait for a writer forever
    (os.mkdir, "is a directory, not a regular file"),
])
def test_a_save_that_is_no_file_or_nested_too_deeply_says_why(tmp_path, make, why):
    path = tmp_path / "save.json"
    make(path)
    for run in (run_pimal, run_football):
        table = Table([])
        assert run(path, tmp_path / "out.json", table) == 1
        assert "save.json cannot be resumed: " in table.text and why in table.text, table.text


def test_a_save_larger_than_any_game_is_refused_without_reading_it_all(tmp_path, monkeypatch):
    monkeypatch.setattr(table_module, "MAX_SAVE_BYTES", 1000)
    path = tmp_path / "save.json"
    path.write_text(json.dumps({"format": "propctl fingerfootball save", "pad": "x" * 2000}))
    table = Table([])
    assert run_football(path, tmp_path / "out.json", table) == 1
    assert "save.json cannot be resumed: is larger than 1000 bytes" in table.text, table.text
