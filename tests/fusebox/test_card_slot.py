"""The fuse box's card slot is a collaborator with an explicit interface (props.fusebox.cards.CardSlot):
the box asks it for the card and its bolt and tells it what happened; it knows no windows or events.
Run on MicroPython (tests/fusebox/scenario_card_slot.py)."""
from propctl.cards import taskcards
from propctl.cards.container import build_pack
from propctl.shared.cardpack.taskcard import TaskCard

S = "scenario_card_slot:"
STATEMENTS = ["Oak", "Beech", "Birch", "Maple", "Larch", "Ash", "Spruce", "Elm"]
CARDS = build_pack(taskcards.CODE, taskcards.VERSION, [
    taskcards.encode(TaskCard(card_id, "nature", "Which?", STATEMENTS, bolt))
    for card_id, bolt in (("NAT-1", 3), ("NAT-2", 6), ("NAT-3", 0))]).hex()


def test_a_slot_with_a_pack_chooses_cards_and_knows_their_bolts(vboard_process):
    seen = vboard_process.call(S + "choosing", CARDS, "NAT-2")
    assert seen["fresh"] == {"mode": "pack", "count": 3, "index": -1, "card": None, "bolt": -1,
                             "pending": False, "error": None, "has_pack": True}
    assert (seen["next"], seen["prev"]) == (0, 2)  # with no card chosen: the first, the last
    assert (seen["find"], seen["missing"]) == (1, -1)
    chosen = seen["chosen"]
    assert (chosen["index"], chosen["card"], chosen["bolt"], chosen["pending"]) == (1, "NAT-2", 6, True)
    assert seen["accepted"]["pending"] is False and seen["accepted"]["card"] == "NAT-2"
    assert seen["after_next"] == 2


def test_without_a_pack_the_slot_is_manual_and_refuses_cards(vboard_process):
    seen = vboard_process.call(S + "manual")
    assert seen["state"]["mode"] == "manual" and seen["state"]["count"] == 0
    assert seen["refused"] == ["no card pack loaded: the box runs in manual mode (use the bolt button)"] * 3


def test_a_pack_that_fails_while_playing_turns_the_slot_manual(vboard_process):
    seen = vboard_process.call(S + "failing", CARDS)
    assert seen["error"] == "card pack deck.bin failed: record 0: bad CRC"
    assert seen["state"] == {"mode": "manual", "count": 0, "index": -1, "card": None, "bolt": -1,
                             "pending": False, "error": seen["error"], "has_pack": False}
