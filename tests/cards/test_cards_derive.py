"""No answer can be worked out instead of estimated.

tests/decks/questions-derivable.en.json holds the cards of the English deck as they were before
the fix: the check must find the known cases there (same number about the same thing, a
quotient and a product of two answers, four differences of two years) and nothing in the
shipped decks now. The facts of item 6 stay fixed in both languages.
"""
import json
from fractions import Fraction
from pathlib import Path

import pytest

from propctl.cards import derive, quality
from propctl.cards import lang as langs
from propctl.cards.load import load_deck
from propctl.cards.questions import SLOTS, Question

ROOT = Path(__file__).resolve().parents[2]
DECKS = ROOT / "host_tools/propctl/data/decks"
SAMPLE = ROOT / "tests/decks/questions-derivable.en.json"


def found(deck, texts=()):
    return set((deck.cards[i].id, field) for i, field, _ in derive.problems(deck, SLOTS, quality._words,
                                                                           texts) if i is not None)


def test_the_known_cases_of_todays_deck_are_found():
    deck = load_deck([SAMPLE])
    assert not deck.problems
    problems = derive.problems(deck, SLOTS, quality._words)
    by_field = dict(((deck.cards[i].id, field), message) for i, field, message in problems)
    assert set(by_field) == {
        ("PMD-21", "violet_yellow_answer"),   # 7 neck vertebrae, giraffe and human
        ("PMD-55", "violet_yellow_answer"),   # 4 kcal, protein and carbohydrate
        ("PMD-50", "violet_salmon_answer"),   # Sun's distance / light speed = sunlight's 499 s
        ("PMD-59", "white_salmon_answer"),    # 106 g sugar x 4 kcal/g = 420 kcal in a litre
        ("PMD-38", "violet_green_answer"),    # 2022 - 1952: Elizabeth II
        ("PMD-44", "violet_salmon_answer"),   # 1453 - 1337: the Hundred Years' War
        ("PMD-47", "violet_salmon_answer"),   # 1880 - 1248: Cologne Cathedral
        ("PMD-60", "white_green_answer"),     # 1832 - 1749: Goethe
        ("PMD-21", "violet_green_answer"),    # 1997 - 1875: Jeanne Calment (her source's dates)
    }
    assert "PMD-42 white/salmon / PMD-50 violet/salmon = PMD-07 violet/salmon" in \
        by_field[("PMD-50", "violet_salmon_answer")]
    assert "PMD-04 white/salmon" in by_field[("PMD-59", "white_salmon_answer")]
    assert "1453 - 1337 = 116" in by_field[("PMD-44", "violet_salmon_answer")]


def test_check_reports_them_as_house_rule_warnings(capsys):
    from propctl.cli import main
    assert main(["cards", "check", str(SAMPLE)]) == 0  # house rules: warnings
    out = capsys.readouterr().out
    assert "card PMD-21, violet_yellow_answer: 7 is also the answer of PMD-13" in out
    assert main(["cards", "check", "--strict", str(SAMPLE)]) == 1
    capsys.readouterr()


@pytest.mark.parametrize("lang", langs.LANGS)
def test_the_shipped_decks_have_no_answer_that_can_be_worked_out(lang):
    deck = load_deck([DECKS / ("questions.%s.json" % lang)])
    tasks = load_deck([DECKS / ("taskcards.%s.csv" % lang)])
    texts = [(c.id, t) for c in tasks.cards for t in [c.text, c.note] + list(c.statements)]
    assert found(deck, texts) == set()


def test_units_and_what_a_text_says_it_is_per():
    def q(text, unit):
        return Question(text, unit, [1, 6, 2, 6, 3], "2", "")
    assert derive.dimension(q("How many kilocalories does one gram of fat provide?", "kcal")) == \
        (Fraction(1), (("E", 1), ("M", -1)))
    assert derive.dimension(q("How many kilometres does light travel in one second?", "km")) == \
        (Fraction(1000), (("L", 1), ("T", -1)))
    assert derive.dimension(q("How far is it?", "million km")) == (Fraction(10 ** 9), (("L", 1),))
    assert derive.dimension(q("How much?", "%")) is None
    assert derive.dimension(q("How many?", "")) is None


def test_a_deck_too_large_for_the_pairs_says_so(monkeypatch):
    monkeypatch.setattr(derive, "MAX_ARITHMETIC", 50)
    deck = load_deck([SAMPLE])
    problems = derive.problems(deck, SLOTS, quality._words)
    assert [m for i, _, m in problems if i is None][0].startswith("has 84 questions;")
    assert ("PMD-50", "violet_salmon_answer") not in found(deck)  # the quotient, unchecked
    assert ("PMD-21", "violet_yellow_answer") in found(deck)      # the other checks still run


def test_a_year_followed_by_a_comma_is_a_year():
    assert [int(m) for m in derive.YEAR.findall("Old Billy, 1760–1822, 62 years; 1,234 m")] == \
        [1760, 1822]


@pytest.mark.parametrize("lang, card, frame, colour, wrong", [
    ("en", "PMD-32", "white", "yellow", "Minster, the tallest church tower"),
    ("de", "PMD-32", "white", "yellow", "Münsters, der höchste Kirchturm"),
    ("en", "PMD-22", "white", "yellow", "to either side"),
    ("de", "PMD-22", "white", "yellow", "zu jeder Seite"),
    ("de", "PMD-54", "violet", "yellow", "ARD"),
    ("en", "PMD-34", "violet", "salmon", "the deepest hole ever drilled?"),
    ("de", "PMD-34", "violet", "salmon", "Kola-Bohrung, das tiefste"),
])
def test_the_facts_of_item_6_stay_fixed(lang, card, frame, colour, wrong):
    doc = json.loads((DECKS / ("questions.%s.json" % lang)).read_text(encoding="utf-8"))
    text = next(c for c in doc["cards"] if c["id"] == card)[frame][colour]["text"]
    assert wrong not in text


@pytest.mark.parametrize("lang", langs.LANGS)
def test_task_cards_of_item_6_stay_fixed(lang):
    cards = dict((c.id, c) for c in load_deck([DECKS / ("taskcards.%s.csv" % lang)]).cards)
    assert "Queen's Park" not in cards["SPO-11"].statements  # reads aloud as QPR, a London club
    assert "King of Prussia" not in cards["HIS-10"].text      # Frederick I was King *in* Prussia
