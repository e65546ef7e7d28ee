"""`propctl cards check|pack|show` on the sample deck and on broken files."""
import io
import json
import os
from pathlib import Path

import pytest

from propctl.cards import lang as langs
from propctl.cards import taskcards
from propctl.cards.load import load_deck
from propctl.cli import main
from propctl.shared.cardpack import Pack
from propctl.shared.cardpack.taskcard import check_version

DECKS = Path(__file__).resolve().parents[2] / "host_tools/propctl/data/decks"
SAMPLE = DECKS / "taskcards.en.csv"
HEADER = "id,category,text,s1,s2,s3,s4,s5,s6,s7,s8,bolt,source,as_of\n"
NOTED = HEADER.replace("as_of\n", "as_of,notes\n")  # with the solution note `check` asks for
# A card that passes every check, content included (shuffled, sourced, dated).
GOOD_ROW = "T-1,science,Keep your fingers off the odd number.,4,12,2,8,14,6,10,15,8,arithmetic,2025\n"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return str(path)


def test_sample_deck_is_clean_and_covers_the_seven_categories(capsys):
    code, out, _ = run(capsys, "cards", "check", str(SAMPLE))
    assert code == 0 and "no problems" in out
    deck = load_deck([SAMPLE])
    assert len(deck.cards) >= 48
    assert len(set(card.category for card in deck.cards)) == 7
    assert all(card.source and card.as_of for card in deck.cards)
    assert len(set(card.bolt for card in deck.cards)) == 8  # the bolt is not always in one place


def test_every_problem_is_reported_with_file_line_field_and_what_is_allowed(tmp_path, capsys):
    path = write(tmp_path, "bad.csv", HEADER
                 + "A-1,nature,Which fly?,Bee,Wasp,Fly,,Moth,Bat,Crow,Kite,4,\n"      # missing s4
                 + "A-2,nature,Which fly?,Bee,Wasp,Fly,Ant,Moth,Bat,Crow,Kite,\"3,5\",\n"  # two bolts
                 + "A-3,nature,Which fly?,Bee,Wasp,Fly,Ant,Moth,Bat,Crow,Kite,9,\n"   # out of range
                 + "A-1,nature,Which fly?,Bee,Wasp,Fly,Ant,Moth,Bat,Crow,Kite,4,\n"   # duplicate id
                 + "A-5,nature,,Bee,Wasp,Fly,Ant,Moth,Bat,Crow,Kite,4,\n"             # empty text
                 + "A-6,,Which fly?,Bee,Wasp,Fly,Ant,Moth,Bat,Crow,Kite,4,\n")  # no category
    code, out, err = run(capsys, "cards", "check", path)
    assert code == 1
    lines = [line for line in out.strip().splitlines() if ": warning: " not in line]  # house rules
    assert len(lines) == 6 and "6 errors" in err
    expected = [(2, "A-1", "s4", "missing statement"), (3, "A-2", "bolt", "2 bolts"),
                (4, "A-3", "bolt", "9 is out of range; allowed: one window number 1-8"),
                (5, "A-1", "id", "duplicate id 'A-1', first used at %s:2" % path),
                (6, "A-5", "text", "is empty"), (7, "A-6", "category", "is empty")]
    for line, (number, card, field, words) in zip(lines, expected):
        assert line.startswith("%s:%d: card %s, %s:" % (path, number, card, field)), line
        assert words in line


def test_bad_encoding_names_the_line(tmp_path, capsys):
    path = write(tmp_path, "latin1.csv", (HEADER + GOOD_ROW + "T-2,science,Gr\xf6\xdfe?,a,b,c,d,e,f,g,h,1,\n")
                 .encode("latin-1"))
    code, out, _ = run(capsys, "cards", "check", path)
    assert code == 1
    assert out.startswith(path + ":3:") and "bad encoding" in out and "UTF-8" in out


def test_a_utf8_bom_and_non_ascii_text_are_fine(tmp_path, capsys):
    path = write(tmp_path, "bom.csv",
                 "\ufeff" + NOTED
                 + "T-2,Sprache,Finger weg von ß!,ä,ö,ü,ß,é,ñ,ø,å,4,Duden,2025,ß ist kein Vokal.\n")
    assert run(capsys, "cards", "check", path)[0] == 0


def test_header_problems_unknown_and_missing_columns(tmp_path, capsys):
    path = write(tmp_path, "cols.csv", "id,category,text,s1,s2,s3,s4,s5,s6,s7,bolt,colour\n")
    code, out, _ = run(capsys, "cards", "check", path)
    assert code == 1
    assert "colour: unknown column" in out and "s8: missing column" in out


def test_unknown_kind_of_csv_asks_for_kind(tmp_path, capsys):
    path = write(tmp_path, "what.csv", "name,age\nx,1\n")
    code, out, _ = run(capsys, "cards", "check", path)
    assert code == 1 and "--kind taskcards" in out


def test_extra_cells_and_line_breaks_are_reported(tmp_path, capsys):
    path = write(tmp_path, "cells.csv", HEADER + GOOD_ROW.replace("2025", "2025,x,y")
                 + "T-3,science,\"two\nlines\",a,b,c,d,e,f,g,h,1,\n")
    code, out, _ = run(capsys, "cards", "check", path)
    assert code == 1
    assert ":2: has 16 cells but the header names 14 columns" in out
    assert ":3: card T-3, text: contains a line break" in out


def json_deck(cards, kind="taskcards"):
    document = {"cards": cards}
    if kind:
        document["kind"] = kind
    return json.dumps(document, indent=2, ensure_ascii=False)


CARD = {"id": "J-1", "category": "sport", "text": "Keep your fingers off the sport for one.",
        "statements": ["Handball", "Rugby", "Football", "Polo", "Hockey", "Basketball", "Cricket", "Archery"],
        "bolt": 8, "source": "Archery is an individual sport", "as_of": "2025",
        "notes": "Archery is the only one without a team."}


def test_json_deck_checks_packs_and_shows(tmp_path, capsys):
    path = write(tmp_path, "deck.json", json_deck([CARD]))
    assert run(capsys, "cards", "check", path)[0] == 0
    out_path = str(tmp_path / "deck.bin")
    assert run(capsys, "cards", "pack", path, "-o", out_path)[0] == 0
    code, out, _ = run(capsys, "cards", "show", out_path, "J-1", "--json")
    assert code == 0
    shown = json.loads(out)
    assert shown == {k: v for k, v in CARD.items() if k not in ("source", "as_of", "notes")}  # not packed


def test_json_problems_carry_the_line_of_their_card(tmp_path, capsys):
    second = dict(CARD, id="J-2", bolt=[2, 3])
    third = dict(CARD, id="J-3", statements=CARD["statements"][:6])
    path = write(tmp_path, "deck.json", json_deck([CARD, second, third, "oops", dict(CARD, id="J-1")]))
    code, out, _ = run(capsys, "cards", "check", path)
    assert code == 1
    text = Path(path).read_text()
    lines = text.splitlines()
    card_lines = [i + 1 for i, line in enumerate(lines) if line == "    {"]
    assert "%s:%d: card J-2, bolt: has 2 bolts" % (path, card_lines[1]) in out
    assert "%s:%d: card J-3, statements: has 6 statements; allowed: exactly 8" % (path, card_lines[2]) in out
    assert "cards[3]: must be an object" in out
    assert "duplicate id 'J-1'" in out


def test_json_without_kind_needs_kind_option(tmp_path, capsys):
    path = write(tmp_path, "deck.json", json_deck([CARD], kind=None))
    code, out, _ = run(capsys, "cards", "check", path)
    assert code == 1 and "--kind" in out
    assert run(capsys, "cards", "check", "--kind", "taskcards", path)[0] == 0


def test_invalid_json_says_where(tmp_path, capsys):
    path = write(tmp_path, "deck.json", '{"kind": "taskcards",\n "cards": [\n}')
    code, out, _ = run(capsys, "cards", "check", path)
    assert code == 1 and path + ":3: is not valid JSON" in out


def test_missing_file_is_a_problem_not_a_crash(tmp_path, capsys):
    code, out, _ = run(capsys, "cards", "check", str(tmp_path / "nope.csv"))
    assert code == 1 and "cannot be read" in out


def test_pack_round_trip_equals_the_checked_cards(tmp_path, capsys):
    out_path = tmp_path / "deck.bin"
    code, out, _ = run(capsys, "cards", "pack", str(SAMPLE), "-o", str(out_path))
    deck = load_deck([SAMPLE])
    assert code == 0 and "%d Finger weg! task cards" % len(deck.cards) in out
    with open(out_path, "rb") as stream:
        pack = Pack(stream, kind="TASK")
        check_version(pack)
        pack.verify()
        assert [taskcards.decode(pack.record(k)) for k in range(len(pack))] == deck.cards
    assert os.listdir(tmp_path) == ["deck.bin"]  # no temp file left behind


def test_show_prints_a_card_with_its_bolt_and_lists_all(tmp_path, capsys):
    out_path = str(tmp_path / "deck.bin")
    run(capsys, "cards", "pack", str(SAMPLE), "-o", out_path)
    code, out, _ = run(capsys, "cards", "show", out_path, "SPO-02")
    assert code == 0
    cards = load_deck([SAMPLE]).cards
    bolt = next(card for card in cards if card.id == "SPO-02").bolt + 1
    assert "%d. Istanbul  <-- BOLT" % bolt in out and "[sport and games]" in out
    code, out, _ = run(capsys, "cards", "show", out_path)
    assert code == 0 and len(out.strip().splitlines()) == len(cards)
    code, _, err = run(capsys, "cards", "show", out_path, "NOPE-1")
    assert code == 1 and "no card with id 'NOPE-1'" in err


@pytest.mark.parametrize("kind,lang", [("taskcards", "en"), ("taskcards", "de"), ("questions", "en"),
                                       ("questions", "de")])
def test_the_list_of_cards_fits_80_columns(tmp_path, capsys, kind, lang):
    out_path = str(tmp_path / "deck.bin")
    assert run(capsys, "cards", "pack", "--lang", lang, "--kind", kind, "-o", out_path)[0] == 0
    listings = [run(capsys, "cards", "show", out_path)[1],
                run(capsys, "cards", "show", "--lang", lang, "--kind", kind)[1]]
    assert listings[0] == listings[1]
    deck = load_deck([str(langs.shipped(kind, lang))], kind)
    lines = listings[0].splitlines()
    assert len(lines) == len(deck.cards)
    for card, line in zip(deck.cards, lines):
        assert len(line) <= 80, line
        whole = "  ".join(deck.kind.describe(card).splitlines()[:2])
        # a line that fits is whole; a longer one keeps its start and says it was cut
        assert line == whole or (line.endswith("...") and whole.startswith(line[:-3])), line
    assert any(line.endswith("...") for line in lines)


def test_the_list_measures_columns_so_cjk_cards_fit_80_columns_too(tmp_path, capsys):
    # a deck in Japanese passes check; its list line was cut at 80 characters: 145 columns
    from propctl.termtext import cells as width
    text = "奇数から指を離してください。" * 4
    row = "T-1,科学と自然の不思議な世界,%s,4,12,2,8,14,6,10,15,8,arithmetic,2025,奇数です。\n" % text
    deck = write(tmp_path, "cjk.csv", NOTED + row)
    assert run(capsys, "cards", "check", deck)[0] == 0
    assert run(capsys, "cards", "pack", deck, "-o", str(tmp_path / "cjk.bin"))[0] == 0
    code, out, _ = run(capsys, "cards", "show", str(tmp_path / "cjk.bin"))
    (line,) = out.splitlines()
    assert code == 0 and width(line) <= 80 and line.endswith("..."), (width(line), line)
    assert line.startswith("T-1  [科学と自然の不思議な世界]  奇数から")


def test_failed_pack_leaves_the_old_file_and_no_half_file(tmp_path, capsys, monkeypatch):
    out_path = tmp_path / "deck.bin"
    out_path.write_bytes(b"old deck")
    bad = write(tmp_path, "bad.csv", HEADER + GOOD_ROW.replace(",8,", ",0,"))
    code, _, err = run(capsys, "cards", "pack", bad, "-o", str(out_path))
    assert code == 1 and "nothing written" in err
    assert out_path.read_bytes() == b"old deck"

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    code, _, err = run(capsys, "cards", "pack", str(SAMPLE), "-o", str(out_path))
    assert code == 1 and "No space left on device" in err
    assert out_path.read_bytes() == b"old deck"
    assert sorted(os.listdir(tmp_path)) == ["bad.csv", "deck.bin"]


def test_pack_into_a_missing_folder_fails_cleanly(tmp_path, capsys):
    code, _, err = run(capsys, "cards", "pack", str(SAMPLE), "-o", str(tmp_path / "no" / "deck.bin"))
    assert code == 1 and "cannot write" in err


def test_big_decks_show_progress(tmp_path, capsys):
    # every third card a family card: a big deck is held to about a third like any other
    rows = "".join("B-%d,science,Keep your fingers off the odd one.,%s,%d,source,2025,note,%s\n"
                   % (i, ",".join(str(10000 + 8 * i + k) for k in (3, 6, 0, 5, 1, 7, 2, 4)), i % 8 + 1,
                      "yes" if i % 3 == 0 else "")
                   for i in range(1500))
    path = write(tmp_path, "big.csv", NOTED.replace("notes\n", "notes,family\n") + rows)
    code, _, err = run(capsys, "cards", "pack", path, "-o", str(tmp_path / "big.bin"))
    assert code == 0
    assert "packing 1500/1500 cards (100%)" in err and "packing 150/1500" in err
    assert len(Pack(io.BytesIO((tmp_path / "big.bin").read_bytes()))) == 1500


def test_damaged_pack_is_a_clear_error(tmp_path, capsys):
    out_path = tmp_path / "deck.bin"
    run(capsys, "cards", "pack", str(SAMPLE), "-o", str(out_path))
    data = bytearray(out_path.read_bytes())
    data[len(data) // 2] ^= 0x40
    out_path.write_bytes(bytes(data))
    code, _, err = run(capsys, "cards", "show", str(out_path), "GEO-01")
    assert code == 1 and "corrupted" in err


@pytest.mark.parametrize("argv", [
    ["cards", "pack", "x.csv"],                     # no -o
    ["cards", "check", "--kind", "recipes", "x.csv"],
    ["cards", "frobnicate"],
])
def test_bad_command_lines_exit_2(argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2


def test_cards_without_action_exits_2_with_usage(capsys):
    code, _, err = run(capsys, "cards")
    assert code == 2 and "check" in err and "examples:" in err


def test_help_teaches_with_examples(capsys):
    with pytest.raises(SystemExit):
        main(["cards", "pack", "--help"])
    out = capsys.readouterr().out
    assert "propctl cards pack --lang de -o taskcards.bin" in out
    assert "Exit codes" in out


def test_readme_examples_are_valid_decks(tmp_path, capsys):
    section = (SAMPLE.parents[4] / "docs" / "cards.md").read_text(encoding="utf-8")
    csv_text = section.split("```csv\n", 1)[1].split("```", 1)[0]
    json_text = section.split("```json\n", 1)[1].split("```", 1)[0]
    paths = [write(tmp_path, "readme.csv", csv_text), write(tmp_path, "readme.json", json_text)]
    for path in paths:
        code, out, _ = run(capsys, "cards", "check", path)
        assert code == 0, out
    assert load_deck(paths[:1]).cards == load_deck(paths[1:]).cards


def test_pack_refuses_to_overwrite_its_own_input(tmp_path, capsys):
    path = write(tmp_path, "deck.csv", HEADER + GOOD_ROW)
    code, _, err = run(capsys, "cards", "pack", path, "-o", path)
    assert code == 2 and "overwrite" in err
    assert Path(path).read_text() == HEADER + GOOD_ROW


def test_an_unknown_field_does_not_hide_the_other_problems(tmp_path, capsys):
    card = dict(CARD, text="", colour="red")
    path = write(tmp_path, "deck.json", json_deck([card]))
    code, out, _ = run(capsys, "cards", "check", path)
    assert code == 1
    assert "card J-1, colour: unknown field" in out and "card J-1, text: is empty" in out


def test_cards_show_of_the_shipped_deck_ends_with_the_solution(capsys):
    code, out, _ = run(capsys, "cards", "show", "--lang", "de", "HIS-08")
    assert code == 0
    assert out.splitlines()[-1].startswith("solution: Michael Collins blieb bei Apollo 11")
