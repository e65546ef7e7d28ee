"""Simulated households play Pi mal Daumen evening after evening: how long before a question repeats?

The issue's bar: at least 8 games with 3 players and 5 with 6 (white frame
first, then violet, as the rulebook says) before any question is read a
second time. Each household keeps its play history (XDG_DATA_HOME is the
test's own) and plays whole games with players who guess around the answer.
"""
import argparse

import pytest
from test_pimaldaumen_master import simulated_table

from propctl.games.pimaldaumen import register
from propctl.games.pimaldaumen_session import Session


def play_evenings(tmp_path, lang, players, games, extra=()):
    """Play `games` games in one household; the questions read, game by game, and what was said."""
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    evenings = []
    for game in range(games):
        seed = 1000 * len(players) + game
        args = parser.parse_args(["pimaldaumen", "--players", ",".join(players), "--lang", lang,
                                  "--seed", str(seed), "--save", str(tmp_path / "save.json")] + list(extra))
        said = []
        holder, ask = simulated_table(seed)
        session = Session.new(args, ask, said.append)
        holder["session"] = session
        reads = []

        def counting_draw(draw=session.draw, session=session, reads=reads):
            question = draw()
            reads.append((session.pile.current, session.pile.current_frame, session.pile.colour))
            return question
        session.draw = counting_draw
        assert session.play() == 0
        evenings.append((reads, said))
    return evenings


def games_before_a_repeat(evenings) -> int:
    heard = set()
    for number, (reads, _) in enumerate(evenings):
        for question in reads:
            if question in heard:
                return number
            heard.add(question)
    return len(evenings)


@pytest.mark.parametrize("lang, players, games", [("de", ["Ann", "Bo", "Cy"], 8),
                                                  ("en", ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"], 5)])
def test_a_household_plays_many_evenings_before_a_question_repeats(tmp_path, lang, players, games):
    evenings = play_evenings(tmp_path, lang, players, games)
    assert games_before_a_repeat(evenings) == games
    first = evenings[0][0]
    assert all(frame == "white" for _, frame, _ in first), "the rulebook: the white frame first"
    assert not any("repeat" in line for _, said in evenings for line in said)


def test_when_every_question_was_heard_the_table_is_told_and_the_oldest_comes_back(tmp_path):
    evenings = play_evenings(tmp_path, "en", ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"], 14)
    repeats = [line for _, said in evenings for line in said if "heard in earlier games" in line]
    assert repeats, "a household that has heard everything is told so"
    assert "--fresh forgets" in repeats[0]


def test_fresh_forgets_and_family_plays_only_family_cards(tmp_path):
    from propctl.cards import lang as langs
    from propctl.cards.load import load_deck
    family = set(c.id for c in load_deck([langs.shipped("questions", "de")]).cards if c.family)
    evenings = play_evenings(tmp_path, "de", ["Mia", "Leo", "Mum"], 2, ["--family"])
    assert all(card in family for reads, _ in evenings for card, _, _ in reads)
    first = evenings[0][0]
    again = play_evenings(tmp_path, "de", ["Mia", "Leo", "Mum"], 1, ["--family", "--fresh"])
    assert "forgotten (--fresh)" in " ".join(again[0][1])
    assert again[0][0][0] in first  # a question of the first evening is fresh again


def test_a_damaged_or_unwritable_history_is_said_once_and_the_game_goes_on(tmp_path, monkeypatch):
    data = tmp_path / "data"
    (data / "propctl").mkdir(parents=True)
    (data / "propctl" / "history.json").write_text("{not json")
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    said = play_evenings(tmp_path, "en", ["Ann", "Bo"], 1)[0][1]
    assert any("play history" in line and "damaged" in line for line in said)
    # A file where the data folder should be: the history cannot be saved; said once, game ends.
    blocked = tmp_path / "blocked"
    blocked.write_text("")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocked))
    said = play_evenings(tmp_path, "en", ["Ann", "Bo"], 1)[0][1]
    assert sum("could not be saved" in line for line in said) == 1
    assert "wins the game!" in " ".join(said)
