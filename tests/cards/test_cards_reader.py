"""The board-side pack reader on both interpreters: same cards, same errors, flat heap per fetch."""
from hypothesis import given, settings
from hypothesis import strategies as st
from test_cards_cli import SAMPLE

from propctl.cards import taskcards
from propctl.cards.container import build_pack
from propctl.cards.load import load_deck
from propctl.shared.cardpack.taskcard import TaskCard

SAMPLE_CARDS = load_deck([SAMPLE]).cards


def pack_bytes(cards):
    return build_pack(taskcards.CODE, taskcards.VERSION, [taskcards.encode(c) for c in cards])


def largest_card(number):
    """A card at every length limit: the biggest record a deck can hold."""
    return TaskCard("X%015d" % number, "K" * taskcards.MAX_CATEGORY_BYTES, "T" * taskcards.MAX_TEXT_BYTES,
                    [chr(ord("a") + i) * taskcards.MAX_STATEMENT_BYTES for i in range(8)], number % 8)


def synthetic_deck(count):
    """`count` cards: the sample deck over and over with fresh ids, every 7th at maximum size."""
    cards = []
    for i in range(count):
        if i % 7 == 3:
            cards.append(largest_card(i))
        else:
            c = SAMPLE_CARDS[i % len(SAMPLE_CARDS)]
            cards.append(TaskCard("C%05d" % i, c.category, c.text, c.statements, c.bolt))
    return cards


def test_sample_pack_reads_the_same_on_both_interpreters(differential, tmp_path):
    path = tmp_path / "deck.bin"
    path.write_bytes(pack_bytes(SAMPLE_CARDS))
    indices = list(range(len(SAMPLE_CARDS)))[::-1]
    result = differential.both("scenario_cardpack:read_file", str(path), indices)
    assert result["count"] == len(SAMPLE_CARDS)
    assert [card["id"] for card in result["cards"]] == [SAMPLE_CARDS[k].id for k in indices]
    assert [card["bolt"] for card in result["cards"]] == [SAMPLE_CARDS[k].bolt for k in indices]
    found = differential.both("scenario_cardpack:find_in_file", str(path), "LAN-01")
    assert found["statements"][found["bolt"]] == "Bulgarian"
    assert differential.both("scenario_cardpack:find_in_file", str(path), "NOPE") is None


@settings(max_examples=40)
@given(data=st.data())
def test_damaged_packs_give_the_same_clear_error_on_both(differential, data):
    cards = SAMPLE_CARDS[:3]
    pristine = pack_bytes(cards)
    damaged = bytearray(pristine)
    how = data.draw(st.sampled_from(["flip", "truncate", "insert"]))
    where = data.draw(st.integers(0, len(pristine) - 1))
    if how == "flip":
        damaged[where] ^= data.draw(st.integers(1, 255))
    elif how == "truncate":
        del damaged[where:]
    else:
        damaged[where:where] = data.draw(st.binary(min_size=1, max_size=8))
    result = differential.both("scenario_cardpack:read_damaged", bytes(damaged).hex())
    assert "error" in result and result["error"]
    # Without the whole-file check (as at play time) a card is right or refused, never wrong.
    fetched = differential.both("scenario_cardpack:fetch_without_verify", bytes(damaged).hex())
    if "cards" in fetched:
        for card, original in zip(fetched["cards"], cards):
            if "error" not in card:
                assert card == {"id": original.id, "category": original.category, "text": original.text,
                                "statements": list(original.statements), "bolt": original.bolt}


def test_heap_per_fetch_is_flat_from_300_to_30000_cards(micropython_process, tmp_path):
    figures = {}
    for count in (300, 3000, 30000):
        path = tmp_path / ("deck%d.bin" % count)
        path.write_bytes(pack_bytes(synthetic_deck(count)))
        # Every 7th card from index 3 is the biggest possible record: sample those and others.
        step = max(7, count // 70 * 7)
        indices = sorted(set([0, 3, 10, count // 2, count - 1] + list(range(3, count, step))))
        figures[count] = micropython_process.call("scenario_cardpack:heap_per_fetch", str(path), indices)
    print("heap per fetch (bytes):", figures)
    for count, figure in figures.items():
        assert figure["count"] == count
        assert figure["largest_record"] == len(taskcards.encode(largest_card(0)))
        assert figure["fetch"] < 2048, figure
    # Flat: the deck size adds nothing to a fetch.
    assert figures[30000]["fetch"] == figures[300]["fetch"]
    assert figures[30000]["full"] == figures[300]["full"]
