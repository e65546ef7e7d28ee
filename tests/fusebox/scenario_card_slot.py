"""The fuse box's card slot on its own (props.fusebox.cards.CardSlot), on MicroPython: no box,
no windows, no events. Each function takes a task-card pack as hex and returns what the slot
said; tests/fusebox/test_card_slot.py builds the packs and judges."""
import binascii
import io

from props.fusebox.cards import CardSlot

from cardpack import Pack, PackError


def _pack(data_hex):
    return Pack(io.BytesIO(binascii.unhexlify(data_hex)))


def _state(slot):
    return {"mode": slot.mode, "count": slot.count(), "index": slot.index, "card": slot.card_id,
            "bolt": slot.bolt, "pending": slot.pending, "error": slot.pack_error,
            "has_pack": slot.pack is not None}


def _refused(fn):
    try:
        fn()
    except ValueError as exc:
        return str(exc)
    return None


def choosing(data_hex, card_id):
    """find, choose, accept, step: what the slot holds after each."""
    slot = CardSlot(_pack(data_hex), "deck.bin")
    seen = {"fresh": _state(slot), "next": slot.step(1), "prev": slot.step(-1),
            "find": slot.find(card_id), "missing": slot.find("NONE-0")}
    slot.choose(seen["find"])
    seen["chosen"] = _state(slot)
    slot.accepted()
    seen["accepted"] = _state(slot)
    seen["after_next"] = slot.step(1)
    return seen


def manual():
    slot = CardSlot(None, "missing.bin", "card pack missing.bin is unusable: bad magic")
    return {"state": _state(slot), "refused": [_refused(lambda: slot.find("NAT-1")),
                                               _refused(lambda: slot.choose(0)),
                                               _refused(lambda: slot.step(1))]}


def failing(data_hex):
    slot = CardSlot(_pack(data_hex), "deck.bin")
    slot.choose(0)
    error = slot.fail(PackError("record 0: bad CRC"))
    return {"error": error, "state": _state(slot)}
