"""Pi mal Daumen question cards: the sample deck, check/pack/show, broken files, board reader."""
import csv
import io
import json
from pathlib import Path

from propctl.cards import questions
from propctl.cards.load import load_deck
from propctl.cli import main as propctl_main
from rules.pimaldaumen import TOP, score

ROOT = Path(__file__).resolve().parent.parent
DECKS = ROOT / "host_tools/propctl/data/decks"
SAMPLE_JSON = DECKS / "questions.json"
SAMPLE_CSV = DECKS / "questions.csv"
RULEBOOK = {
    "How long did the dinosaurs live on earth?":
        ["12", 3, "120", 6, "175", 6, "240", 4, "330", 3, "520", 2, "600"],
    "How many stations did the New York subway have at the end of 1993?":
        ["100", 3, "390", 6, "463", 6, "490", 4, "570", 3, "700", 2, "980"],
}


def sample():
    deck = load_deck([SAMPLE_JSON])
    assert deck.problems == []
    return deck.cards


def all_questions(cards):
    return [q for card in cards for q in card.questions]


def test_sample_deck_has_the_rulebook_questions_and_twenty_one_more():
    cards = sample()
    found = all_questions(cards)
    assert len(cards) == 4 and len(found) == 24
    texts = [q.text for q in found]
    assert len(set(texts)) == 24
    for text, scale in RULEBOOK.items():
        assert found[texts.index(text)].scale == scale
    assert found[texts.index("How long did the dinosaurs live on earth?")].answer == "175"
    bladder = [q for q in found if q.text.startswith("Normally, people feel the urge")]
    assert bladder[0].scale[-1] == "1300" and bladder[0].unit == "millilitres"
    original = [q for q in found if "rulebook" not in q.source]
    assert len(original) >= 21
    for q in found:
        assert q.source and score(q.scale, q.answer) == TOP


def test_sample_deck_in_csv_is_the_same_deck():
    deck = load_deck([SAMPLE_CSV])
    assert deck.problems == []
    assert deck.cards == sample()


def test_exact_decimals_survive_json_csv_and_the_pack():
    cards = sample()
    answers = [q.answer for q in all_questions(cards)]
    assert "-273.15" in answers and "9.80665" in answers and "149597870.7" in answers
    for card in cards:
        record = questions.encode(card)
        assert len(record) < 4096
        assert questions.decode(record) == card
        assert load_deck([_json_file(card)]).cards == [card]


def _json_file(card):
    # One card written back with to_json, as `cards show --json` prints it.
    import tempfile
    path = Path(tempfile.mkdtemp()) / "one.json"
    path.write_text(json.dumps({"kind": "questions", "cards": [questions.to_json(card)]}))
    return path


def test_check_pack_and_show_from_the_command_line(tmp_path, capsys):
    assert propctl_main(["cards", "check", str(SAMPLE_CSV)]) == 0
    assert "4 Pi mal Daumen question cards: no problems" in capsys.readouterr().out
    pack = tmp_path / "questions.bin"
    assert propctl_main(["cards", "pack", str(SAMPLE_JSON), "-o", str(pack)]) == 0
    capsys.readouterr()
    assert propctl_main(["cards", "show", str(pack), "PMD-001"]) == 0
    shown = capsys.readouterr().out
    assert "white frame, salmon: How long did the dinosaurs live on earth? (millions of years)" in shown
    assert "12 |3| 120 |6| 175 |6| 240 |4| 330 |3| 520 |2| 600" in shown
    assert propctl_main(["cards", "show", str(pack), "PMD-002", "--json"]) == 0
    card = json.loads(capsys.readouterr().out)
    assert card["violet"]["yellow"]["answer"] == "-273.15"


def test_the_board_reads_the_pack_like_the_desktop(tmp_path, differential):
    pack = tmp_path / "questions.bin"
    assert propctl_main(["cards", "pack", str(SAMPLE_JSON), "-o", str(pack), "-q"]) == 0
    cards = sample()
    for frame, colour in (("white", "salmon"), ("violet", "yellow"), ("violet", "green")):
        read = differential.both("scenarios.pimaldaumen:read_pack", pack.read_bytes().hex(), frame, colour)
        expected = []
        for card in cards:
            q = card.question(frame, colour)
            expected.append([card.id, q.text, q.unit, q.scale, q.answer, q.source])
        assert sorted(read) == sorted(expected)


def _sample_rows():
    return list(csv.DictReader(io.StringIO(SAMPLE_CSV.read_text(encoding="utf-8"))))


def _write_csv(path, rows):
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def test_broken_csv_reports_every_problem_with_line_card_and_field(tmp_path, capsys):
    rows = _sample_rows()
    rows[0]["white_yellow_scale"] = "1950 | 2 | 1940"
    rows[0]["white_green_answer"] = "about 200"
    rows[1]["violet_salmon_source"] = ""
    rows[1]["white_yellow_scale"] = "1970 | 7 | 1980 | 6 | 1995"
    rows[2]["white_green_answer"] = "40000"
    rows[2]["violet_green_scale"] = "1550 | 2 | 1620 | 4 | 1700"
    rows[3]["id"] = "PMD-001"
    path = tmp_path / "broken.csv"
    _write_csv(path, rows)
    assert propctl_main(["cards", "check", str(path)]) == 1
    out = capsys.readouterr().out
    expected = [
        "broken.csv:2: card PMD-001, white_yellow_scale: scale values must increase",
        "broken.csv:2: card PMD-001, white_green_answer: 'about 200' is not a number",
        "broken.csv:3: card PMD-002, violet_salmon_source: is empty",
        "broken.csv:3: card PMD-002, white_yellow_scale[1]: '7' is not a point value",
        "broken.csv:4: card PMD-003, white_green_answer: 40000 earns 4 points; the exact answer must earn 6",
        "broken.csv:4: card PMD-003, violet_green_scale: has no 6-point range",
        "broken.csv:5: card PMD-001, id: duplicate id 'PMD-001'",
    ]
    for line in expected:
        assert line in out, line
    assert propctl_main(["cards", "pack", str(path), "-o", str(tmp_path / "x.bin")]) == 1
    assert not (tmp_path / "x.bin").exists()


def test_csv_with_missing_columns_is_refused(tmp_path, capsys):
    rows = _sample_rows()
    for row in rows:
        del row["violet_green_scale"]
    path = tmp_path / "short.csv"
    _write_csv(path, rows)
    assert propctl_main(["cards", "check", str(path)]) == 1
    assert "short.csv:1: violet_green_scale: missing column" in capsys.readouterr().out


def test_broken_json_reports_every_problem(tmp_path, capsys):
    cards = json.loads(SAMPLE_JSON.read_text())["cards"]
    del cards[0]["violet"]
    cards[1]["white"]["green"]["hint"] = "think of a piano"
    cards[1]["white"]["yellow"]["answer"] = 1989.0000000000002
    cards[2]["white"]["salmon"]["scale"] = "300 | 3 | 400"
    del cards[3]["white"]["salmon"]
    cards[3]["violet"]["green"]["unit"] = "days\nor so"
    path = tmp_path / "broken.json"
    path.write_text(json.dumps({"kind": "questions", "cards": cards}, indent=1))
    assert propctl_main(["cards", "check", str(path)]) == 1
    out = capsys.readouterr().out
    for words in ("card PMD-001, violet: must be an object with the questions yellow, green, salmon",
                  "card PMD-002, white.green: unknown field 'hint'",
                  "card PMD-002, white.yellow.answer: 1989.0000000000002 cannot be kept exact",
                  "card PMD-003, white.salmon.scale: must be a list",
                  "card PMD-004, white.salmon: missing question",
                  "card PMD-004, violet.green.unit: contains a line break"):
        assert words in out, words
    assert out.count("card PMD-001, violet") == 1
    assert "broken.json:" in out


def test_json_numbers_with_decimals_stay_exact(tmp_path):
    cards = json.loads(SAMPLE_JSON.read_text())["cards"]
    q = cards[2]["violet"]["yellow"]
    q["answer"] = 9.80665
    q["scale"] = [5, 2, 8, 4, 9.5, 6, 9.80665, 6, 10.2, 4, 12, 2, 20]
    path = tmp_path / "floats.json"
    path.write_text(json.dumps({"kind": "questions", "cards": cards}))
    deck = load_deck([path])
    assert deck.problems == []
    gravity = deck.cards[2].question("violet", "yellow")
    assert gravity.answer == "9.80665"
    assert gravity.scale[4] == "9.5" and gravity.scale[8] == "10.2"
