"""The question checks of `propctl cards check` (propctl.cards.question_mix, numbers_de): each fails
its sample deck in tests/data/decks, and the base deck the samples were made from passes them all.

The samples are 12 shipped cards with one thing broken each, as the issue found it in the old deck.
These checks are house rules: warnings that fail only with --strict, and a rule broken
on several cards is grouped into one line unless --all; the samples are checked with both flags.
When the shipped deck changes a card, rebuild the samples' copies of it
(test_the_samples_are_made_of_shipped_cards names each stale slot).
"""
import json
from pathlib import Path

import pytest

from propctl.cli import main

SAMPLES = Path(__file__).resolve().parents[1] / "data" / "decks"
SHIPPED = Path(__file__).resolve().parents[2] / "host_tools" / "propctl" / "data" / "decks"

# sample file -> (how many problems, a piece of each problem's message)
FAILS = {
    "one-ratio.en.json": (1, "scales have a 6-point window of about the same width relative to the answer"),
    "small-answers.en.json": (8, "is too wide for the small answer"),
    "topic-caps.en.json": (1, "10 of 72 questions are about games (game equipment); allowed: at most 10 %"),
    "few-estimates.en.json": (1, "15 of 72 questions ask for estimates"),
    "topic-missing.en.json": (2, "_topic: "),
    "family-none.en.json": (1, "0 of 12 cards are family cards"),
    "english-numbers.de.json": (6, "_source: "),
}


def check(capsys, path, *flags):
    code = main(["cards", "check", *flags, str(path)])
    out = capsys.readouterr().out
    return code, [line for line in out.splitlines() if line.startswith(str(path))]


def read(path):
    return json.loads(path.read_text("utf-8"))["cards"]


def strict(capsys, path):
    """Every problem on its own line, and a house rule fails the check."""
    return check(capsys, path, "--strict", "--all")


def test_the_base_deck_passes_every_check(capsys):
    code, problems = strict(capsys, SAMPLES / "base.en.json")
    assert code == 0 and problems == []


@pytest.mark.parametrize("name", ["base.en.json", *sorted(FAILS)])
def test_the_samples_are_made_of_shipped_cards(name):
    """Each slot a sample does not break is the shipped deck's, so the shipped deck's strict pass
    is what the base shows, and a check that flags a shipped card is not hidden by a stale copy."""
    lang = name.split(".")[-2]
    shipped = {card["id"]: card for card in read(SHIPPED / ("questions.%s.json" % lang))}
    cards = read(SAMPLES / name)
    base = {card["id"]: card for card in read(SAMPLES / "base.en.json")}
    assert [card["id"] for card in cards] == list(base)
    for card in cards:
        for frame in ("white", "violet"):
            for colour in ("salmon", "yellow", "green"):
                mine, theirs = card[frame][colour], shipped[card["id"]][frame][colour]
                if lang == "en":
                    old = base[card["id"]][frame][colour]
                    broken = {key for key in set(mine) | set(old) if mine.get(key) != old.get(key)}
                else:
                    broken = {"source"} if card["id"] == "PMD-01" else set()
                changed = {key for key in set(mine) | set(theirs) if mine.get(key) != theirs.get(key)}
                assert changed <= broken, (card["id"], frame, colour, sorted(changed - broken))


@pytest.mark.parametrize("name", sorted(FAILS))
def test_each_check_fails_its_sample_deck(capsys, name):
    count, words = FAILS[name]
    code, problems = strict(capsys, SAMPLES / name)
    assert code == 1
    assert len(problems) == count, problems
    assert all(words in line for line in problems), problems


@pytest.mark.parametrize("name", sorted(FAILS))
def test_without_strict_each_sample_is_warned_but_passes(capsys, name):
    code, problems = check(capsys, SAMPLES / name)
    assert code == 0
    assert problems and all(": warning: " in line for line in problems), problems


def test_the_german_sample_names_each_number_in_its_german_form(capsys):
    _, problems = strict(capsys, SAMPLES / "english-numbers.de.json")
    text = "\n".join(problems)
    for german in ("7,26", "6.058", "40.075", "1.280", "2024\u20132029", "267.570"):
        assert german in text


def test_small_answers_may_have_the_answer_alone_or_plus_minus_one():
    from propctl.cards.question_mix import question_problems
    from propctl.cards.questions import SourcedQuestion

    def problems(scale, answer):
        question = SourcedQuestion("How many?", "", scale, answer, "src", "2025", "animals")
        return question_problems(question, "")

    assert problems(["0", 3, "1.5", 6, "2", 6, "2.5", 3, "5"], "2") == []      # the answer alone
    assert problems(["0", 3, "1", 6, "2", 6, "3", 3, "5"], "2") == []          # +-1
    assert problems(["0", 3, "1", 6, "2", 6, "4", 3, "5"], "2") != []          # +2 on one side
    assert problems(["5", 3, "10", 6, "15", 6, "22", 3, "40"], "15") == []     # 15 is not small


def test_the_topic_sample_names_a_missing_topic_and_an_unknown_one(capsys):
    _, problems = strict(capsys, SAMPLES / "topic-missing.en.json")
    assert [line.split(": warning: ", 1)[1].split(";")[0] for line in problems] == [
        "card PMD-01, white_salmon_topic: is missing",
        "card PMD-03, white_yellow_topic: 'trivia' is not a topic",
    ], problems
