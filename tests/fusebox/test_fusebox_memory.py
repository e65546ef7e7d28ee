"""The fuse box's memory across games: a household plays many evenings before a task card repeats."""
import argparse
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from propctl.cards import lang as langs
from propctl.cards.deal import Memory, deck_name, fresh_order, repeat_notice
from propctl.cards.history import DeckHistory
from propctl.cards.load import load_deck
from propctl.props.fusebox import sim as fusebox

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = 4


def shipped(lang):
    path = langs.shipped("taskcards", lang)
    return path, load_deck([path]).cards


def play_evening(cards, name, history_file, players=PLAYERS, fresh=False):
    """One game as `propctl sim fusebox` plays it at a terminal: a new run loads the history,
    the box offers its pack in the memory's order, each player starts one round with the next card."""
    said = []
    memory = Memory(cards, name, said.append, fresh=fresh, path=history_file)
    offered = memory.order()            # the pack's order: `n` steps through it
    memory.begin_game(players)
    game = [card.id for card in offered[:players]]
    for card_id in game:
        memory.played(card_id)          # its round ended: the table saw the bolt
    return game, offered, said


@pytest.mark.parametrize("lang", langs.LANGS)
def test_a_household_of_four_plays_25_games_before_any_task_card_repeats(tmp_path, lang):
    path, cards = shipped(lang)
    history_file = tmp_path / "history.json"
    seen = []
    for evening in range(25):
        game, _, said = play_evening(cards, deck_name(path), history_file)
        assert said == [], (evening, said)
        assert len(set(card.split("-")[0] for card in game)) == PLAYERS  # four categories a game
        seen += game
    assert len(seen) == 100 and len(set(seen)) == 100
    # game 26 still finds 4 of the 5 left fresh enough; game 27 has 1 and says so
    game, _, said = play_evening(cards, deck_name(path), history_file)
    assert said == [] and not set(game) & set(seen)
    game, _, said = play_evening(cards, deck_name(path), history_file)
    assert said == ["only 1 of the %d cards has not been played before; this game of 4 rounds repeats "
                    "cards, the longest ago first (--fresh forgets the history)" % len(cards)]
    assert game[0] not in seen and game[1:] == seen[:3]  # then the longest ago first


def test_fresh_forgets_the_household(tmp_path):
    path, cards = shipped("en")
    history_file = tmp_path / "history.json"
    first, _, _ = play_evening(cards, deck_name(path), history_file)
    again, _, _ = play_evening(cards, deck_name(path), history_file)
    assert not set(first) & set(again)
    forgot, offered, said = play_evening(cards, deck_name(path), history_file, fresh=True)
    assert forgot == first and said == []  # as if never played: the deck's first turn again


def test_the_shipped_deck_has_one_memory_in_every_language(tmp_path):
    # A card is the same card (id, bolt) in German and English: a household that
    # alternates languages must not meet the same card again.
    de_path, de_cards = shipped("de")
    en_path, en_cards = shipped("en")
    assert deck_name(de_path) == deck_name(en_path) == "fusebox/shipped"
    history_file = tmp_path / "history.json"
    german, _, _ = play_evening(de_cards, deck_name(de_path), history_file)
    english, _, _ = play_evening(en_cards, deck_name(en_path), history_file)
    assert len(english) == PLAYERS and not set(german) & set(english)


def test_a_damaged_history_is_said_and_the_game_goes_on(tmp_path):
    path, cards = shipped("en")
    history_file = tmp_path / "history.json"
    history_file.write_text("{not json")
    game, _, said = play_evening(cards, deck_name(path), history_file)
    assert len(game) == PLAYERS and "is damaged" in said[0]


def test_order_puts_unplayed_first_with_categories_taking_turns():
    _, cards = shipped("en")
    deck = DeckHistory("x")
    order = fresh_order(cards, deck)
    assert sorted(c.id for c in order) == sorted(c.id for c in cards)
    assert len(set(c.category for c in order[:7])) == 7
    deck.begin_game()
    for card in order[:10]:
        deck.mark(card.id)
    again = fresh_order(cards, deck)
    assert [c.id for c in again[-10:]] == [c.id for c in order[:10]]  # the played ones last
    assert repeat_notice(cards, deck, 4) is None


def test_reveal_shows_the_note_once_per_round_and_marks_the_card(tmp_path):
    _, cards = shipped("de")
    marked = []

    class FakeMemory:
        def played(self, card_id):
            marked.append(card_id)

        def begin_game(self, players):
            marked.append("game of %d" % players)

    reveal = fusebox.Reveal(cards, FakeMemory())
    assert reveal.lines({"type": "reply", "cmd": "new_game", "ok": {"players": 3}}) == []
    assert reveal.lines({"type": "event", "event": "card", "id": "GEO-04"}) == []
    assert reveal.lines({"type": "event", "event": "safe", "window": 2}) == []
    shown = reveal.lines({"type": "event", "event": "fuse_blown", "window": 8})
    assert len(shown) == 1 and "solution GEO-04: Korsika gehört seit 1768 zu Frankreich" in shown[0]
    assert reveal.lines({"type": "event", "event": "scored", "round_over": True}) == []
    assert marked == ["game of 3", "GEO-04"]


def test_at_a_terminal_the_sim_packs_the_deck_in_the_memorys_order(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    args = argparse.Namespace(pack=None, lang="en", fresh=False)
    reveal, first = fusebox._memory(args, interactive=True)
    assert reveal.memory is not None and first[-1].startswith("105 of 105 cards not played before")
    reveal.memory.begin_game(2)
    order = reveal.memory.order()
    reveal.memory.played(order[0].id)
    reveal2, first2 = fusebox._memory(args, interactive=True)
    assert first2[-1].startswith("104 of 105")
    assert reveal2.memory.order()[-1].id == order[0].id
    assert (tmp_path / "propctl" / "history.json").is_file()
    scripted, lines = fusebox._memory(args, interactive=False)
    assert scripted.memory is None and lines == []  # a script plays the deck's own order


def test_a_scripted_round_ends_with_the_cards_solution():
    _, cards = shipped("en")
    card = next(c for c in cards if c.id == "SCI-02")
    done = subprocess.run([sys.executable, "-m", "propctl.cli", "sim", "fusebox", "--non-interactive",
                           "--lang", "en", "--script", "-"],
                          input="select SCI-02\ngame 2\nopen %d\n" % (card.bolt + 1),
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "solution SCI-02: %s" % card.note in done.stdout
    assert Counter(done.stdout.split()).get("solution") == 1

