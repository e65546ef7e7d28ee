"""`propctl cards check` judges content: each kind of bad card is caught, the shipped decks pass."""
import csv
import io
import json
from collections import Counter
from pathlib import Path

import pytest

from propctl.cards import lang as langs
from propctl.cards.load import load_deck
from propctl.cards.quality import obvious_order, scale_rule
from propctl.cli import main
from propctl.shared.rules.pimaldaumen import exact
from propctl.shared.rules.rng import Rng

DECKS = Path(__file__).resolve().parents[2] / "host_tools/propctl/data/decks"
HEADER = ["id", "category", "text", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "bolt", "source", "as_of",
          "notes"]
MOONS = ["Io", "Thebe", "Europa", "Himalia", "Titan", "Callisto", "Amalthea", "Ganymede"]


def task_row(card_id="T-1", text="Keep your fingers off the moon that does not orbit Jupiter.",
             statements=MOONS, bolt=5, source="NASA", as_of="2025", category="science",
             note="Titan orbits Saturn."):
    return [card_id, category, text] + list(statements) + [bolt, source, as_of, note]


def write_tasks(folder, rows, name="deck.en.csv"):
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(HEADER)
    writer.writerows(rows)
    path = Path(folder) / name
    path.write_text(buffer.getvalue(), encoding="utf-8")
    return path


def check(capsys, *paths, lang=None):
    # --strict: these are house rules, warnings that fail only so (as the shipped decks are checked)
    argv = ["cards", "check", "--strict"] + [str(p) for p in paths] + (["--lang", lang] if lang else [])
    code = main(argv)
    return code, capsys.readouterr().out


def questions_doc(edit=None):
    """The first shipped English question card, edited by `edit(card)`."""
    card = json.loads((DECKS / "questions.en.json").read_text(encoding="utf-8"))["cards"][0]
    if edit:
        edit(card)
    return {"kind": "questions", "cards": [card]}


def write_json(folder, doc, name="q.en.json"):
    path = Path(folder) / name
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return path


# -- the shipped decks ------------------------------------------------------------

@pytest.mark.parametrize("lang", langs.LANGS)
def test_the_shipped_decks_pass_every_check(capsys, lang):
    code, out = check(capsys, lang=lang)
    assert code == 0, out
    assert "105 Finger weg! task cards (%s): no problems" % lang in out
    assert "60 Pi mal Daumen question cards (%s): no problems" % lang in out


def test_german_and_english_task_cards_are_the_same_cards():
    en = load_deck([DECKS / "taskcards.en.csv"]).cards
    de = load_deck([DECKS / "taskcards.de.csv"]).cards
    assert [c.id for c in en] == [c.id for c in de]
    assert [c.bolt for c in en] == [c.bolt for c in de]
    assert all(c.text.startswith("Keep your fingers off ") for c in en)
    assert all(c.text.startswith("Finger weg von ") for c in de)
    categories = dict((a.category, b.category) for a, b in zip(en, de))
    assert len(categories) == 7 and len(set(categories.values())) == 7  # one German word each
    windows = [sum(1 for c in en if c.bolt == w) for w in range(8)]
    assert max(windows) - min(windows) <= 1, windows


# -- statements in an obvious order -------------------------------------------------

def test_statements_in_order_give_the_bolt_away(tmp_path, capsys):
    primes = ["2", "3", "13", "29", "41", "91", "89", "97"]   # ascending, 91 slipped in before 89
    planets = ["Earth", "Mars", "Jupiter", "Saturn", "Venus", "Uranus", "Neptune", "Pluto"]
    units = ["Metre", "Kilogram", "Second", "Ampere", "Kelvin", "Mole", "Candela", "Newton"]
    events = ["100 metres", "Long jump", "Shot put", "Hammer throw", "High jump", "110 metres hurdles",
              "Pole vault", "Javelin throw"]
    abc = ["Bat", "Dolphin", "Hedgehog", "Manta ray", "Platypus", "Echidna", "Walrus", "Whale"]
    rows = [task_row("P-1", statements=primes, bolt=6), task_row("P-2", statements=planets, bolt=5),
            task_row("P-3", statements=units, bolt=8), task_row("P-4", statements=events, bolt=4),
            task_row("P-5", statements=abc, bolt=6)]
    code, out = check(capsys, write_tasks(tmp_path, rows))
    assert code == 1
    assert "card P-1, statements: the statements without the bolt are in ascending numeric order" in out
    assert "card P-2, statements: the statements without the bolt are in the order of the planets" in out
    assert "card P-3, statements: the statements without the bolt are in the order of the SI base" in out
    assert "card P-4, statements: the statements without the bolt are in the order of the decathlon" in out
    assert "card P-5, statements: the statements without the bolt are in ascending alphabetical order" in out


def test_order_heuristic_details():
    assert obvious_order(["97", "89", "83", "71", "53", "37", "17"]) == "in descending numeric order"
    # Six of seven in reverse alphabetical order (Triglav out of place) still count.
    assert obvious_order(["Zugspitze", "Mont Blanc", "Matterhorn", "Großglockner", "Eiger", "Aneto",
                          "Triglav"]) == "in descending alphabetical order"
    assert obvious_order(["Juni", "März", "Januar", "Oktober", "Mai", "Juli"]) is None
    months = ["Januar", "März", "Mai", "Juli", "Oktober", "Dezember"]
    assert obvious_order(months) == "in the order of the months"
    assert obvious_order(["Dreisprung", "Diskuswurf", "Stabhochsprung", "Speerwurf", "Weitsprung"]) is None
    assert obvious_order(["4", "12", "2", "8", "14", "6", "10"]) is None
    assert obvious_order(["a", "b", "c", "d"]) is None  # too few to tell


def test_order_heuristic_rarely_flags_a_shuffled_card():
    # A random order of seven distinct items counts as ordered with probability
    # 2 * 37 / 5040 (about 1.5 %): the author reshuffles such a card.
    rng = Rng(16)
    flagged = 0
    for _ in range(2000):
        items = ["%02d" % n for n in range(7)]
        rng.shuffle(items)
        flagged += obvious_order(["x" + i for i in items]) is not None
    assert 10 <= flagged <= 60, flagged


# -- facts used twice ---------------------------------------------------------------

def test_a_statement_on_two_cards_is_refused(tmp_path, capsys):
    animals = ["Platypus", "Bat", "Dolphin", "Hedgehog", "Manta ray", "Walrus", "Echidna", "Mole"]
    eggs = ["Crocodile", "Platypus", "Ostrich", "Sea turtle", "Salmon", "Echidna", "Dolphin", "Frog"]
    rows = [task_row("N-1", "Keep your fingers off the animal that is not a mammal.", animals, 5),
            task_row("N-3", "Keep your fingers off the animal that does not lay eggs.", eggs, 7)]
    code, out = check(capsys, write_tasks(tmp_path, rows))
    assert code == 1
    for statement in ("Platypus", "Echidna", "Dolphin"):
        window = eggs.index(statement) + 1
        assert "card N-3, s%d: %r is also a statement on card N-1" % (window, statement) in out


def test_a_statement_that_gives_away_a_question_is_refused(tmp_path, capsys):
    events = ["Fall of the Berlin Wall", "Sinking of the Titanic", "Founding of the United Nations",
              "Euro banknotes enter circulation", "First powered flight of the Wright brothers",
              "Russian October Revolution", "Fleming discovers penicillin", "First crewed Moon landing"]
    tasks = write_tasks(tmp_path, [task_row("H-1", "Keep your fingers off the event after 2000.", events, 4)])

    def years(card):
        card["white"]["yellow"]["text"] = "In which year did the Titanic sink?"
        card["white"]["green"]["text"] = "How long was the Berlin Wall before its fall?"
        card["violet"]["salmon"]["text"] = "How long did the Wright brothers' first powered flight last?"
    questions = write_json(tmp_path, questions_doc(years))
    code, out = check(capsys, tasks, questions)
    assert code == 1
    assert "card H-1, s2: 'Sinking of the Titanic' gives away the question PMD-01 white_yellow_text" in out
    assert "card H-1, s1: 'Fall of the Berlin Wall' gives away the question PMD-01 white_green_text" in out
    assert "s5: 'First powered flight of the Wright brothers' gives away the question PMD-01 violet" in out
    # Checked alone, each deck is fine: the overlap is across decks.
    assert check(capsys, questions)[0] == 0


def test_a_lone_name_on_a_task_card_gives_no_question_away(tmp_path, capsys):
    # "Albatross" among seabirds said nothing about how wide its wings are, but was refused.
    birds = ["Albatross", "Puffin", "Gannet", "Sparrow", "Petrel", "Shearwater", "Fulmar", "Skua"]
    tasks = write_tasks(tmp_path, [task_row("N-1", "Keep your fingers off the bird that is no seabird.",
                                            birds, 3)])

    def albatross(card):
        card["white"]["green"]["text"] = "Up to how many metres does a wandering albatross span?"
    code, out = check(capsys, tasks, write_json(tmp_path, questions_doc(albatross)))
    assert code == 0, out


def test_the_same_question_twice_is_refused(tmp_path, capsys):
    def twice(card):
        card["violet"]["green"]["text"] = card["white"]["yellow"]["text"]
    code, out = check(capsys, write_json(tmp_path, questions_doc(twice)))
    assert code == 1 and "card PMD-01, violet_green_text: asks the same as PMD-01 (" in out
    assert "), white_yellow_text; allowed: each question once" in out


# -- sources and as-of dates ------------------------------------------------------

def test_missing_source_or_as_of_date_is_refused(tmp_path, capsys):
    rows = [task_row("S-1", source=""), task_row("S-2", statements=MOONS[::-1], as_of=""),
            task_row("S-3", statements=MOONS[1:] + MOONS[:1], as_of="last year")]
    code, out = check(capsys, write_tasks(tmp_path, rows))
    assert code == 1
    assert "card S-1, source: is missing" in out
    assert "card S-2, as_of: is missing; allowed: a date the facts hold for: YYYY, YYYY-MM" in out
    assert "card S-3, as_of: 'last year' is not a date" in out

    def unsourced(card):
        del card["white"]["green"]["as_of"]
        card["violet"]["yellow"]["as_of"] = "2025-13"
    code, out = check(capsys, write_json(tmp_path, questions_doc(unsourced)))
    assert code == 1
    assert "card PMD-01, white_green_as_of: is missing" in out
    assert "card PMD-01, violet_yellow_as_of: '2025-13' is not a date" in out


# -- numbers -------------------------------------------------------------------------

def test_a_comma_in_a_number_is_refused_not_guessed(tmp_path, capsys):
    def commas(card):
        card["white"]["salmon"].update(scale=[300, 3, 400, 6, "600", 6, 800, 4, 930, 3, "1,050", 2, 1300])
        card["violet"]["salmon"]["answer"] = "1,5"
    code, out = check(capsys, write_json(tmp_path, questions_doc(commas)))
    assert code == 1
    assert "white.salmon.scale[10]: '1,050' has a comma" in out and "1050 for one thousand and fifty" in out
    assert "violet.salmon.answer: '1,5' has a comma" in out


def test_a_player_typing_1050_with_a_comma_is_asked_which_they_mean():
    with pytest.raises(ValueError, match="could be a thousands comma or a decimal comma: type 1050 or 1.050"):
        exact("1,050")
    with pytest.raises(ValueError, match="without commas"):
        exact("1,050,000")
    assert exact("3,5") == exact("3.5") and exact("0,125") == exact("0.125")
    assert exact("1 050") == exact("1050")


# -- scales ---------------------------------------------------------------------------

def test_an_answer_outside_its_scale_or_off_the_rulebooks_layout_is_refused(tmp_path, capsys):
    def bad_scales(card):
        card["white"]["yellow"].update(scale=[10, 2, 20, 6, 30], answer=50)           # outside
        card["white"]["green"].update(scale=[10, 4, 20, 6, 30, 6, 40], answer=25)     # not on a value
        card["violet"]["yellow"].update(scale=[10, 6, 20, 4, 30, 2, 40], answer=10)   # at the end
        card["violet"]["green"].update(scale=[10, 2, 20, 6, 30, 6, 40, 3, 50, 4, 60], answer=30)  # rises
    code, out = check(capsys, write_json(tmp_path, questions_doc(bad_scales)))
    assert code == 1
    assert "white.yellow.answer: 50 is outside the scale" in out
    # The structural problem hides the card from the content checks; fix it and look again.

    def layout(card):
        bad_scales(card)
        card["white"]["yellow"].update(scale=[10, 2, 20, 6, 30, 6, 40], answer=30)
    code, out = check(capsys, write_json(tmp_path, questions_doc(layout)))
    assert code == 1
    assert "white_green_scale: the exact answer 25 is not one of the scale's values" in out
    assert "violet_yellow_scale: the exact answer 10 needs a 6-point range on each side" in out
    assert "violet_green_scale: the points must fall away from the exact answer 30" in out
    assert "white_yellow" not in out


def test_scale_rule_accepts_the_rulebooks_example_cards():
    assert scale_rule(["12", 3, "120", 6, "175", 6, "240", 4, "330", 3, "520", 2, "600"], "175") is None
    assert scale_rule(["300", 3, "400", 6, "600", 6, "800", 4, "930", 3, "1050", 2, "1300"], "600") is None
    assert scale_rule(["-500", 2, "-290", 6, "-273.15", 6, "-250", 4, "-100"], "-273.150") is None


# -- wording, bolts, language ----------------------------------------------------

def test_tasks_are_worded_as_the_game_words_them(tmp_path, capsys):
    rows = [task_row("W-1", "Which of these moons orbit Jupiter?")]
    code, out = check(capsys, write_tasks(tmp_path, rows))
    assert code == 1 and "card W-1, text: 'Which of these moons orbit Jupiter?' does not start with " \
                         "'Keep your fingers off'" in out
    german = write_tasks(tmp_path, [task_row("W-2", "Finger weg von dem Mond, der nicht um Jupiter kreist.")],
                         name="deck.de.csv")
    assert check(capsys, german)[0] == 0
    # A file that does not say its language is not held to either wording.
    assert check(capsys, write_tasks(tmp_path, rows, name="deck.csv"))[0] == 0


def test_bolts_all_in_one_window_are_refused(tmp_path, capsys):
    rows = []
    for i in range(16):
        rotated = MOONS[i % 8:] + MOONS[:i % 8]
        statements = ["%s %d" % (s, i) for s in rotated]
        rows.append(task_row("B-%d" % i, statements=statements, bolt=8))
    code, out = check(capsys, write_tasks(tmp_path, rows))
    assert code == 1
    assert "bolt: the bolts are unevenly spread over the windows (window: cards; 1: 0, 2: 0" in out


def test_a_deck_and_a_pack_hold_one_language(tmp_path, capsys):
    en = write_tasks(tmp_path, [task_row("L-1")], name="a.en.csv")
    de = write_tasks(tmp_path, [task_row("L-2", "Finger weg von dem Mond, der nicht um Jupiter kreist.",
                                         MOONS[::-1])], name="b.de.csv")
    code, out = check(capsys, en, de)
    assert code == 1 and "mix languages (de, en); allowed: one language per deck and pack" in out
    code = main(["cards", "pack", str(en), str(de), "-o", str(tmp_path / "x.bin")])
    assert code == 1 and not (tmp_path / "x.bin").exists()
    code, out = check(capsys, en, lang="de")
    assert code == 1 and "is a 'en' deck by its name, but --lang is 'de'" in out


def test_pack_without_files_packs_the_shipped_deck_of_lang(tmp_path, capsys):
    out = tmp_path / "taskcards.bin"
    assert main(["cards", "pack", "--lang", "de", "-o", str(out), "-q"]) == 0
    assert main(["cards", "show", str(out), "SCI-02"]) == 0
    assert "Finger weg von dem Mond" in capsys.readouterr().out
    assert main(["cards", "show", "--lang", "en", "SCI-02"]) == 0
    assert "[science]" in capsys.readouterr().out


def test_the_language_comes_from_the_locale():
    assert langs.default_lang({}) == "en"
    assert langs.default_lang({"LANG": "de_DE.UTF-8"}) == "de"
    assert langs.default_lang({"LANG": "de_AT.UTF-8", "LC_ALL": "fr_FR.UTF-8"}) == "en"
    assert langs.default_lang({"LANGUAGE": "de:en", "LANG": "C.UTF-8"}) == "de"
    assert langs.default_lang({"LC_MESSAGES": "de_CH", "LANG": ""}) == "de"
    assert langs.lang_of("x/taskcards.de.csv") == "de" and langs.lang_of("deck.csv") is None


def test_too_many_year_questions_are_refused(tmp_path, capsys):
    def years(card):
        for frame in ("white", "violet"):
            card[frame]["salmon"]["text"] = "In which year did the %s thing happen?" % frame
    code, out = check(capsys, write_json(tmp_path, questions_doc(years)))
    assert code == 1 and "text: 2 of 6 questions ask for a year; allowed: at most one in six (1)" in out
    # One in six is fine.
    code, out = check(capsys, write_json(tmp_path, questions_doc(lambda card: years(card) or card["violet"]
                                                                 ["salmon"].update(text="How many?"))))
    assert code == 0, out


# -- solution notes and German numbers (one failing sample deck each) -------------

SAMPLES = Path(__file__).resolve().parents[1] / "decks"


def test_a_task_card_without_its_solution_note_is_named(capsys):
    code, out = check(capsys, SAMPLES / "taskcards-no-note.en.csv")
    assert code == 1
    lines = out.strip().splitlines()
    assert len(lines) == 1 and ":3: warning: card NN-2, notes: is missing" in lines[0]


def test_a_german_card_with_english_numbers_is_named_with_the_german_form(capsys):
    code, out = check(capsys, SAMPLES / "taskcards-english-numbers.de.csv")
    assert code == 1
    source = [line for line in out.splitlines() if "card EN-1, source:" in line]
    notes = [line for line in out.splitlines() if "card EN-1, notes:" in line]
    assert len(source) == 2 and "7,26" in source[0] and "1.067" in source[1]
    assert len(notes) == 2 and "7,26" in notes[0] and "2024\u20132025" in notes[1]
    assert all("card EN-1" in line for line in out.strip().splitlines())


def test_english_decks_are_not_held_to_german_numbers(tmp_path, capsys):
    english = (SAMPLES / "taskcards-english-numbers.de.csv").read_text(encoding="utf-8")
    english = english.replace("Finger weg von dem Gerät", "Keep your fingers off the item")
    path = tmp_path / "numbers.en.csv"
    path.write_text(english, encoding="utf-8")
    assert check(capsys, path)[0] == 0


def test_the_shipped_task_decks_have_15_cards_per_category_with_notes():
    for lang in langs.LANGS:
        cards = load_deck([DECKS / ("taskcards.%s.csv" % lang)]).cards
        per_category = Counter(card.category for card in cards)
        assert len(per_category) == 7 and min(per_category.values()) >= 15, per_category
        assert all(card.note and card.source and card.as_of for card in cards)
    german, english = (load_deck([DECKS / ("taskcards.%s.csv" % lang)]).cards for lang in ("de", "en"))
    assert [(c.id, c.bolt) for c in german] == [(c.id, c.bolt) for c in english]  # the same cards
