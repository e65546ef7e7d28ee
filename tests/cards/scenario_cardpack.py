"""Card-pack scenarios: read packs written by the desktop tools, on both interpreters."""
import io

from cardpack import Pack, PackError
from cardpack.taskcard import KIND, check_version, decode, find


def _card(card):
    return {"id": card.id, "category": card.category, "text": card.text,
            "statements": list(card.statements), "bolt": card.bolt}


def read_file(path, indices):
    """Cards `indices` of the task-card pack at `path`, as JSON values."""
    with open(path, "rb") as stream:
        pack = Pack(stream, kind=KIND)
        check_version(pack)
        return {"count": len(pack), "cards": [_card(decode(pack.record(k))) for k in indices]}


def find_in_file(path, card_id):
    """The card `card_id` looked up by id, or None."""
    with open(path, "rb") as stream:
        pack = Pack(stream, kind=KIND)
        index = find(pack, card_id)
        return None if index < 0 else _card(decode(pack.record(index)))


def read_damaged(data_hex):
    """Open, verify and read every card of pack bytes; the PackError text or the cards."""
    data = bytes(int(data_hex[i:i + 2], 16) for i in range(0, len(data_hex), 2))
    try:
        pack = Pack(io.BytesIO(data), kind=KIND)
        check_version(pack)
        pack.verify()
        return {"cards": [_card(decode(pack.record(k))) for k in range(len(pack))]}
    except PackError as exc:
        return {"error": str(exc)}


def fetch_without_verify(data_hex):
    """Read every card without the whole-file check, as a board does at play time.

    Returns per card either the card or the PackError text: damage must never
    come back as a wrong card.
    """
    data = bytes(int(data_hex[i:i + 2], 16) for i in range(0, len(data_hex), 2))
    try:
        pack = Pack(io.BytesIO(data), kind=KIND)
    except PackError as exc:
        return {"error": str(exc)}
    out = []
    for k in range(len(pack)):
        try:
            out.append(_card(decode(pack.record(k))))
        except PackError as exc:
            out.append({"error": str(exc)})
    return {"cards": out}


def heap_per_fetch(path, indices):
    """MicroPython only: the most heap bytes one fetch allocated.

    A fetch is what the fuse box does when a card goes in: read record k,
    decode it, read its id and bolt. `full` also reads the task text and all
    eight statements. The collector is off during each measurement, so every
    byte allocated counts, temporaries included: an upper bound on the peak.
    """
    import gc
    with open(path, "rb") as stream:
        pack = Pack(stream, kind=KIND)
        fetch = full = largest = 0
        for k in indices:
            gc.collect()
            gc.disable()
            before = gc.mem_alloc()
            record = pack.record(k)
            card = decode(record)
            card_id = card.id
            bolt = card.bolt
            used = gc.mem_alloc() - before
            text = card.text
            statements = card.statements
            used_full = gc.mem_alloc() - before
            gc.enable()
            fetch = max(fetch, used)
            full = max(full, used_full)
            largest = max(largest, len(record))
            del card, record, card_id, bolt, text, statements
        return {"fetch": fetch, "full": full, "largest_record": largest, "count": len(pack)}
