"""Family task cards (age 10+): marked in the decks, judged by `cards check`, chosen by --family.

The marks are read from the CSV files with the csv module here, not through
propctl's loader, so a loader that dropped or invented marks would show.
"""
import argparse
import csv
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from propctl.cards import lang as langs
from propctl.cards.load import load_deck
from propctl.cli import main
from propctl.props.fusebox import sim as fusebox

ROOT = Path(__file__).resolve().parents[2]
DECKS = ROOT / "host_tools" / "propctl" / "data" / "decks"
SAMPLES = Path(__file__).resolve().parents[1] / "decks"


def rows(lang):
    with open(DECKS / ("taskcards.%s.csv" % lang), encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def family_ids(lang):
    return [row["id"] for row in rows(lang) if row["family"] == "yes"]


def test_about_a_third_of_the_shipped_task_cards_are_family_cards_in_every_category():
    for lang in langs.LANGS:
        marks = Counter((row["category"], row["family"]) for row in rows(lang))
        family = sum(n for (_, mark), n in marks.items() if mark == "yes")
        assert 0.25 * 105 <= family <= 0.45 * 105, family
        categories = set(row["category"] for row in rows(lang))
        assert all(marks[(category, "yes")] >= 4 for category in categories), marks
        assert set(row["family"] for row in rows(lang)) == {"yes", ""}
    assert family_ids("de") == family_ids("en")  # the same cards in both languages


@pytest.mark.parametrize("lang", langs.LANGS)
def test_pack_family_packs_exactly_the_family_task_cards(tmp_path, capsys, lang):
    out = tmp_path / "family.bin"
    assert main(["cards", "pack", "--lang", lang, "--family", "-o", str(out)]) == 0
    assert "%d Finger weg! task cards" % len(family_ids(lang)) in capsys.readouterr().out
    assert main(["cards", "show", str(out)]) == 0
    listed = [line.split()[0] for line in capsys.readouterr().out.splitlines() if line.strip()]
    assert listed == family_ids(lang)


def test_a_task_deck_without_family_cards_fails_the_share_check(capsys):
    code = main(["cards", "check", "--strict", str(SAMPLES / "taskcards-family-none.en.csv")])
    lines = capsys.readouterr().out.strip().splitlines()
    assert code == 1 and len(lines) == 1
    assert "family: 0 of 12 cards are family cards (age 10+); allowed: about a third, 25-45 %" in lines[0]


def test_the_share_is_about_a_third_neither_none_nor_all(tmp_path, capsys):
    sample = (SAMPLES / "taskcards-family-none.en.csv").read_text(encoding="utf-8").splitlines()

    def marked(count):
        lines = [sample[0] + ",family"] + [line + (",yes" if i < count else ",")
                                           for i, line in enumerate(sample[1:])]
        path = tmp_path / ("family-%d.en.csv" % count)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return main(["cards", "check", "--strict", str(path)]), capsys.readouterr().out

    assert marked(4)[0] == 0   # 33 %
    code, out = marked(12)     # every card: not a family deck's third
    assert code == 1 and "12 of 12 cards are family cards" in out


def test_old_decks_without_the_column_load_and_a_bad_mark_is_named(tmp_path, capsys):
    deck = load_deck([str(SAMPLES / "taskcards-family-none.en.csv")])
    assert not deck.problems and len(deck.cards) == 12 and not any(c.family for c in deck.cards)
    shown = main(["cards", "show", "--lang", "en", "--json", "GEO-03"])
    card = json.loads(capsys.readouterr().out)
    assert shown == 0 and card.get("family") is True
    card["family"] = "maybe"
    path = tmp_path / "bad.en.json"
    path.write_text(json.dumps({"kind": "taskcards", "cards": [card]}), encoding="utf-8")
    assert main(["cards", "check", str(path)]) == 1
    assert "family: 'maybe' is not yes or no" in capsys.readouterr().out


def test_sim_family_deals_only_family_cards():
    # 40 presses of `next` step through the whole family pack and around again.
    done = subprocess.run([sys.executable, "-m", "propctl.cli", "sim", "fusebox", "--non-interactive",
                           "--lang", "en", "--family", "--script", "-"], input="next\n" * 40,
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    dealt = [line.split("card ")[2].split()[0] for line in done.stdout.splitlines()
             if " in the box" in line]
    assert len(dealt) == 40 and set(dealt) == set(family_ids("en"))
    assert "card pack loaded: %d cards" % len(family_ids("en")) in done.stdout


def test_sim_family_at_a_terminal_offers_only_family_cards_in_the_memorys_order(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    args = argparse.Namespace(pack=None, lang="de", fresh=False, family=True)
    reveal, first = fusebox._memory(args, interactive=True)
    family = set(family_ids("de"))
    assert first[-1].startswith("%d of %d cards not played before" % (len(family), len(family)))
    order = reveal.memory.order()
    assert set(card.id for card in order) == family
    reveal.memory.begin_game(2)
    reveal.memory.played(order[0].id)
    again, _ = fusebox._memory(args, interactive=True)
    assert again.memory.order()[-1].id == order[0].id  # played: now last


def test_sim_family_is_refused_for_a_pack_and_for_manual_mode(tmp_path, capsys):
    pack = tmp_path / "all.bin"
    assert main(["cards", "pack", "--lang", "en", "-q", "-o", str(pack)]) == 0
    for choice in (str(pack), "none"):
        with pytest.raises(fusebox.SimError) as refused:
            fusebox.deck_of(choice, "en", family=True)
        assert refused.value.code == 2 and "--family" in str(refused.value)


def pack_ids(path):
    from propctl.cards import taskcards
    from propctl.shared.cardpack.pack import Pack
    with open(path, "rb") as f:
        pack = Pack(f)
        return [taskcards.decode(pack.record(k)).id for k in range(len(pack))]


def test_web_fuse_box_deals_family_cards_unplayed_first(tmp_path, monkeypatch):
    from propctl.cards.deal import Memory, deck_name
    from propctl.web.played import PageDeal
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))

    def dealt(deal):
        (tmp_path / "pack.bin").write_bytes(deal.pack())
        return pack_ids(tmp_path / "pack.bin")

    deal = PageDeal("en", family=True)
    first = dealt(deal)
    assert set(first) == set(family_ids("en")) and len(first) == len(family_ids("en"))
    assert "35 family cards, the 35 not played" in deal.line()
    # a household played two cards at the terminal: the page offers them last
    path, cards = fusebox.deck_of(None, "en")
    memory = Memory(cards, deck_name(path), lambda text: None)
    memory.begin_game(2)
    memory.played(first[0])
    memory.played(first[1])
    deal = PageDeal("en", family=True)
    assert dealt(deal)[-2:] == first[:2] and "the 33 not played" in deal.line()
    assert len(dealt(PageDeal("en"))) == 105


def test_print_family_prints_only_the_family_cards(tmp_path, capsys):
    from pypdf import PdfReader
    out = tmp_path / "familie.pdf"
    assert main(["cards", "print", "--lang", "de", "--family", "-q", "-o", str(out)]) == 0
    pages = PdfReader(str(out)).pages
    family = family_ids("de")
    assert len(pages) == 2 * -(-len(family) // 4)  # four cards to an A4 page, and their backs
    printed = " ".join(page.extract_text() for page in pages)
    others = [row["id"] for row in rows("de") if row["family"] != "yes"]
    assert all(card_id in printed for card_id in family)
    assert not any(card_id in printed for card_id in others)
