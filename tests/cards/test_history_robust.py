"""The play history is opened like every other input, is shared by
concurrent games without losing any, keeps one memory for the shipped task deck in every
language and a shuffle seed per household."""
import json
import multiprocessing
import os
import subprocess
import sys
from pathlib import Path

import pytest

from propctl.cards import history as history_module
from propctl.cards import lang as langs
from propctl.cards.deal import Memory, deck_name, fresh_order
from propctl.cards.history import DeckHistory, History
from propctl.cards.load import load_deck

ROOT = Path(__file__).resolve().parents[2]


def load_in_a_child(path, timeout=60):
    """History.load in a fresh interpreter: (what it said, what it saved), or a timeout."""
    code = ("import sys; from propctl.cards.history import History\n"
            "said = []\n"
            "h = History.load(sys.argv[1], warn=said.append)\n"
            "h.deck('d').mark('A')\n"
            "print(repr(said)); print(h.save())\n")
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True,
                          timeout=timeout)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
    return done.stdout


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_at_the_history_path_is_refused_and_set_aside(tmp_path):
    path = tmp_path / "history.json"
    os.mkfifo(path)
    out = load_in_a_child(path)  # hung for ever before: reading a FIFO waits for a writer
    assert "is a pipe (FIFO), not a regular file" in out and "starts without it" in out
    assert out.strip().endswith("None")  # saved
    assert (tmp_path / "history.json.damaged").is_fifo()
    assert History.load(path).deck("d").last_played("A") == 1


def test_a_deeply_nested_history_is_reported_and_set_aside(tmp_path):
    path = tmp_path / "history.json"
    path.write_text("[" * 100000 + "]" * 100000)
    said = []
    history = History.load(path, warn=said.append)  # a RecursionError traceback before
    assert len(said) == 1 and "nested too deeply" in said[0]
    history.deck("d").mark("A")
    assert history.save() is None
    assert (tmp_path / "history.json.damaged").stat().st_size == 200000
    assert History.load(path).deck("d").played == {"A": 1}


def test_a_device_or_huge_file_is_refused_with_a_line(tmp_path, monkeypatch):
    path = tmp_path / "history.json"
    if os.path.exists("/dev/zero"):
        path.symlink_to("/dev/zero")
        said = []
        History.load(path, warn=said.append)
        assert len(said) == 1 and "is a device, not a regular file" in said[0]
        path.unlink()
    with open(path, "wb") as stream:  # sparse: costs no disk
        stream.truncate(history_module.MAX_BYTES + 1)
    said = []
    history = History.load(path, warn=said.append)
    assert len(said) == 1 and "is larger than 8 MB" in said[0]
    history.deck("d").mark("A")
    assert history.save() is None and (tmp_path / "history.json.damaged").exists()
    assert path.stat().st_size < 1000


def _game_master(path, number, rounds, barrier):
    history = History.load(path)
    deck = history.deck("pimaldaumen/shipped")
    barrier.wait()
    for k in range(rounds):
        deck.mark("M%d-Q%02d" % (number, k))  # a question answered at this table
        problem = history.save()
        if problem:
            raise SystemExit(problem)


@pytest.mark.skipif(sys.platform == "win32", reason="the save lock needs fcntl")
def test_six_game_masters_answering_at_once_lose_nothing(tmp_path):
    path = tmp_path / "history.json"
    masters, rounds = 6, 15
    context = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    barrier = context.Barrier(masters)
    workers = [context.Process(target=_game_master, args=(str(path), n, rounds, barrier))
               for n in range(masters)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(120)
        assert worker.exitcode == 0
    played = History.load(path).deck("pimaldaumen/shipped").played
    assert len(played) == masters * rounds  # six lost before (read, merge, write, no lock)
    assert [n for n in os.listdir(tmp_path)] == ["history.json"]  # no lock file left behind


def test_the_household_seed_is_kept_and_orders_the_deck(tmp_path):
    cards = load_deck([langs.shipped("taskcards", "en")]).cards
    path = tmp_path / "history.json"
    first = History.load(path)
    seed = first.household_seed()
    assert 0 <= seed < history_module.SEED_LIMIT and History.load(path).household_seed() == seed
    assert first.save() is None
    assert json.loads(path.read_text())["household"] == {"seed": seed}
    # another household (another file) deals another order; this one deals its own every time
    other = History.load(tmp_path / "elsewhere" / "history.json").household_seed()
    assert other != seed
    mine = [c.id for c in fresh_order(cards, DeckHistory("x"), seed)]
    theirs = [c.id for c in fresh_order(cards, DeckHistory("x"), other)]
    assert mine != theirs and sorted(mine) == sorted(theirs)
    assert [c.id for c in Memory(cards, deck_name(langs.shipped("taskcards", "en")), print,
                                 path=path).order()] == mine
    # a seed in the file wins over one another game made before it saved
    path.write_text(json.dumps({"format": history_module.FORMAT, "version": 1,
                                "household": {"seed": 12345}, "decks": {}}))
    assert History.load(path).household_seed() == 12345


def test_the_old_per_language_histories_are_merged_into_one(tmp_path):
    path = tmp_path / "history.json"
    path.write_text(json.dumps({"format": history_module.FORMAT, "version": 1, "decks": {
        "fusebox/shipped.de": {"games": 2, "played": {"GEO-01": 2}},
        "fusebox/shipped.en": {"games": 1, "played": {"NAT-02": 1}}}}))
    cards = load_deck([langs.shipped("taskcards", "de")]).cards
    memory = Memory(cards, deck_name(langs.shipped("taskcards", "de")), print, path=path)
    assert memory.unplayed() == len(cards) - 2
    memory.begin_game(3)
    decks = json.loads(path.read_text())["decks"]
    assert list(decks) == ["fusebox/shipped"]
    assert set(decks["fusebox/shipped"]["played"]) == {"GEO-01", "NAT-02"}
