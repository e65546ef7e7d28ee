"""The play history across games (propctl.cards.history): kept, merged, forgotten, never fatal."""
import json
import os

from propctl.cards.history import History, default_path


def test_the_file_lives_in_the_users_data_directory(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_path() == tmp_path / "data" / "propctl" / "history.json"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_path() == tmp_path / "home" / ".local" / "share" / "propctl" / "history.json"


def test_what_one_game_played_the_next_game_knows(tmp_path):
    path = tmp_path / "propctl" / "history.json"
    history = History.load(path)
    deck = history.deck("pmd")
    assert deck.begin_game() == 1
    deck.mark("A")
    deck.mark("B")
    assert history.save() is None
    later = History.load(path).deck("pmd")
    assert later.games == 1 and later.last_played("A") == 1 and later.last_played("C") is None
    assert later.begin_game() == 2
    later.mark("A")
    assert later.fresh_first(["A", "B", "C", "D"]) == ["C", "D", "B", "A"]
    assert later.unplayed(["A", "B", "C"]) == ["C"]


def test_fresh_forgets_one_deck_and_keeps_the_others(tmp_path):
    path = tmp_path / "history.json"
    history = History.load(path)
    history.deck("pmd").mark("A")
    history.deck("fusebox").mark("GEO-01")
    history.save()
    again = History.load(path)
    again.deck("pmd").forget()
    assert again.save() is None
    last = History.load(path)
    assert last.deck("pmd").played == {} and last.deck("fusebox").last_played("GEO-01") == 1


def test_two_games_saving_one_after_the_other_both_count(tmp_path):
    path = tmp_path / "history.json"
    one, two = History.load(path), History.load(path)
    one.deck("pmd").mark("A")
    two.deck("pmd").mark("B")
    assert one.save() is None and two.save() is None
    assert sorted(History.load(path).deck("pmd").played) == ["A", "B"]


def test_a_damaged_file_is_reported_ignored_and_kept_aside(tmp_path):
    path = tmp_path / "history.json"
    path.write_text('{"format": "propctl play history", "version": 1, "decks": {"pmd": {"games": "x"')
    said = []
    history = History.load(path, warn=said.append)
    assert len(said) == 1 and "damaged" in said[0] and str(path) in said[0]
    assert history.deck("pmd").played == {}
    history.deck("pmd").mark("A")
    assert history.save() is None
    assert History.load(path).deck("pmd").last_played("A") == 1
    assert (tmp_path / "history.json.damaged").read_text().startswith('{"format"')


def test_wrong_shapes_are_damage_not_a_crash(tmp_path):
    path = tmp_path / "history.json"
    for data in ([], {"format": "x"}, {"format": "propctl play history", "version": 1, "decks": []},
                 {"format": "propctl play history", "version": 1, "decks": {"d": {"games": 1,
                                                                                  "played": {"A": 5}}}},
                 {"format": "propctl play history", "version": 1, "decks": {"d": {"games": True,
                                                                                  "played": {}}}}):
        path.write_text(json.dumps(data))
        said = []
        assert History.load(path, warn=said.append).decks == {}
        assert len(said) == 1


def test_an_unreadable_or_unwritable_place_is_a_message_not_an_error(tmp_path):
    path = tmp_path / "history.json"
    path.mkdir()  # a folder where the file should be: neither read nor write can work
    said = []
    history = History.load(path, warn=said.append)
    assert said and "cannot be read" in said[0]
    history.deck("pmd").mark("A")
    problem = history.save()
    assert problem and str(path) in problem


def test_a_file_from_a_newer_propctl_is_left_alone(tmp_path):
    path = tmp_path / "history.json"
    newer = {"format": "propctl play history", "version": 9, "decks": {}}
    path.write_text(json.dumps(newer))
    history = History.load(path, warn=lambda _: None)
    history.deck("pmd").mark("A")
    assert "newer" in history.save()
    assert json.loads(path.read_text()) == newer


def test_the_save_is_atomic_no_temp_file_is_left(tmp_path):
    path = tmp_path / "history.json"
    history = History.load(path)
    history.deck("pmd").mark("A")
    history.save()
    assert os.listdir(tmp_path) == ["history.json"]
