"""Any input to `propctl cards` gives a clear answer, never a traceback; valid cards survive a round trip."""
import csv
import io
import json
import re

from file_damage import damage
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_cards_cli import HEADER, SAMPLE

from propctl.cards import taskcards
from propctl.cards.container import build_pack
from propctl.cards.load import load_deck
from propctl.cli import main
from propctl.shared.cardpack import Pack, PackError
from propctl.termsafe import BIDI

FIXTURE_AND_LOAD = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]  # too_slow: see conftest.py
FUZZ = settings(max_examples=150, suppress_health_check=FIXTURE_AND_LOAD)


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# Inputs that look nearly right reach deeper into the checks than pure noise.
near_csv = st.lists(st.lists(st.sampled_from(["", "1", "9", "3,5", "x", "GEO-1", "nature", "é", "\"",
                                               "a\nb", "\x00", "\xff"]), max_size=14), max_size=5).map(
    lambda rows: HEADER + "\n".join(",".join(row) for row in rows))
near_json = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.sampled_from(["taskcards", "nature", "", "x"]),
    lambda inner: st.lists(inner, max_size=9) | st.dictionaries(
        st.sampled_from(["kind", "cards", "id", "category", "text", "statements", "bolt", "zzz"]), inner,
        max_size=6), max_leaves=30).map(json.dumps)
any_input = st.one_of(st.binary(max_size=300), near_csv.map(str.encode), near_json.map(str.encode))


@FUZZ
@given(content=any_input, name=st.sampled_from(["deck.csv", "deck.json", "deck.txt"]))
def test_any_bytes_get_a_clear_answer_from_check_and_pack(tmp_path_factory, capsys, content, name):
    folder = tmp_path_factory.mktemp("fuzz")
    path = folder / name
    path.write_bytes(content)
    code, out, err = run(capsys, "cards", "check", str(path))
    assert code in (0, 1)
    assert "Traceback" not in out + err
    if code == 1:
        assert out.strip() and all(line.startswith(str(path)) for line in out.strip().splitlines())
    output = folder / "deck.bin"
    pack_code, _, _ = run(capsys, "cards", "pack", str(path), "-o", str(output), "-q")
    assert pack_code == code
    assert output.exists() == (code == 0)
    assert sorted(p.name for p in folder.iterdir()) == sorted([name] + (["deck.bin"] if code == 0 else []))


@FUZZ
@given(data=st.data())
def test_any_damage_to_a_pack_is_a_clear_error(tmp_path_factory, capsys, data):
    folder = tmp_path_factory.mktemp("damage")
    path = folder / "deck.bin"
    assert run(capsys, "cards", "pack", str(SAMPLE), "-o", str(path))[0] == 0
    pristine = path.read_bytes()
    damaged = damage(data, pristine)
    if damaged == pristine:
        return
    path.write_bytes(damaged)
    code, out, err = run(capsys, "cards", "show", str(path), "GEO-01")
    assert code == 1 and not out
    assert err.startswith(str(path) + ": ") and "Traceback" not in err
    try:
        pack = Pack(io.BytesIO(bytes(damaged)))
        pack.verify()
    except PackError:
        pass
    else:
        raise AssertionError("damage went unnoticed")


one_line = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")),
                   min_size=1, max_size=20).filter(
    lambda s: s.strip() == s and s and len(s.encode()) <= taskcards.MAX_STATEMENT_BYTES
    and not re.search("[" + BIDI + "]", s))  # the bidi controls are refused by name (load._BAD_CHAR)
statements = st.lists(one_line, min_size=8, max_size=8, unique_by=str.lower)
cards = st.builds(
    lambda n, cat, text, stmts, bolt: {"id": "C-%d" % n, "category": cat, "text": text,
                                       "statements": stmts, "bolt": bolt},
    st.integers(0, 10**6), one_line.filter(lambda s: len(s.encode()) <= taskcards.MAX_CATEGORY_BYTES),
    one_line, statements, st.integers(1, 8))


@settings(max_examples=60, suppress_health_check=FIXTURE_AND_LOAD)
@given(card_list=st.lists(cards, min_size=1, max_size=4, unique_by=lambda c: c["id"]),
       as_json=st.booleans())
def test_valid_cards_round_trip_through_csv_or_json_and_the_pack(tmp_path_factory, card_list, as_json):
    folder = tmp_path_factory.mktemp("trip")
    if as_json:
        path = folder / "deck.json"
        path.write_text(json.dumps({"kind": "taskcards", "cards": card_list}), encoding="utf-8")
    else:
        path = folder / "deck.csv"
        with open(path, "w", newline="", encoding="utf-8") as out:
            writer = csv.writer(out)
            writer.writerow(taskcards.REQUIRED_COLUMNS)
            for c in card_list:
                writer.writerow([c["id"], c["category"], c["text"]] + c["statements"] + [c["bolt"]])
    deck = load_deck([path])
    assert not deck.problems, deck.problems
    assert [taskcards.to_json(card) for card in deck.cards] == card_list
    # The encoding round trip; whether random cards are worth playing is quality's business.
    data = build_pack(taskcards.CODE, taskcards.VERSION, [taskcards.encode(c) for c in deck.cards])
    pack = Pack(io.BytesIO(data), kind="TASK")
    pack.verify()
    assert [taskcards.decode(pack.record(k)) for k in range(len(pack))] == deck.cards
