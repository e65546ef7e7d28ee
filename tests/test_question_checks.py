"""The question checks of `propctl cards check` (propctl.cards.question_mix, numbers_de): each fails
its sample deck in tests/data/decks, and the base deck the samples were made from passes them all.

The samples are 12 shipped cards with one thing broken each, as the issue found it in the old deck.
"""
from pathlib import Path

import pytest

from propctl.cli import main

SAMPLES = Path(__file__).resolve().parent / "data" / "decks"

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


def check(capsys, path):
    code = main(["cards", "check", str(path)])
    out = capsys.readouterr().out
    return code, [line for line in out.splitlines() if line.startswith(str(path))]


def test_the_base_deck_passes_every_check(capsys):
    code, problems = check(capsys, SAMPLES / "base.en.json")
    assert code == 0 and problems == []


@pytest.mark.parametrize("name", sorted(FAILS))
def test_each_check_fails_its_sample_deck(capsys, name):
    count, words = FAILS[name]
    code, problems = check(capsys, SAMPLES / name)
    assert code == 1
    assert len(problems) == count, problems
    assert all(words in line for line in problems), problems


def test_the_german_sample_names_each_number_in_its_german_form(capsys):
    _, problems = check(capsys, SAMPLES / "english-numbers.de.json")
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
