"""A card deck as a board will read it: checked with the firmware's own reader, and where it goes.

    data = read_cards("deck.bin")           # BoardError: a folder, missing, unreadable, oversized
    check_pack(data, "deck.bin")            # "TASK, 28 records", or BoardError: not a sound pack
    card_destination("deck.bin", data)      # the fuse box's pack path for task cards, else cards/NAME
"""
import io
from pathlib import Path

from propctl.serial_link import BoardError

# A deck bigger than this cannot be a card pack meant for a board's flash.
MAX_CARDS_BYTES = 8 * 1024 * 1024


def check_pack(data: bytes, name: str) -> str:
    """The pack's summary ("TASK, 28 records"); BoardError if it is not a sound card pack.

    Uses the firmware's own reader (cardpack.pack): header, every record's CRC
    and the whole-file CRC, exactly what the board will check.
    """
    from propctl.shared.cardpack.pack import Pack, PackError
    try:
        pack = Pack(io.BytesIO(data))
        pack.verify()
        for k in range(len(pack)):
            pack.record(k)
    except (PackError, IndexError) as exc:
        raise BoardError("%s is not a card pack a board can read: %s. Make one with "
                         "`propctl cards pack DECK.csv -o %s`" % (name, exc, Path(name).name)) from None
    return "%s, %d records" % (pack.kind, len(pack))


def read_cards(path: str) -> bytes:
    """The bytes of --cards PATH; BoardError for a folder, an unreadable or oversized file."""
    target = Path(path)
    try:
        if target.is_dir():
            raise BoardError("--cards %s is a folder; give the packed deck file (DECK.bin)" % path)
        if not target.is_file():
            raise BoardError("--cards %s: %s" % (path, "no such file" if not target.exists()
                                                 else "not a regular file"))
        if target.stat().st_size > MAX_CARDS_BYTES:
            raise BoardError("--cards %s is %d bytes, more than a card pack for a board can be (%d)"
                             % (path, target.stat().st_size, MAX_CARDS_BYTES))
        return target.read_bytes()
    except OSError as exc:
        raise BoardError("cannot read --cards %s: %s" % (path, exc.strerror or exc)) from None


def card_destination(name: str, data: bytes) -> str:
    """Where --cards puts a deck: a task-card pack where the fuse box reads it, anything else in cards/."""
    from propctl.shared.cardpack import Pack, taskcard
    try:
        if Pack(io.BytesIO(data)).kind == taskcard.KIND:
            return taskcard.PACK_PATH
    except (ValueError, OSError):  # PackError: not a pack the board could read as one
        pass
    return "cards/" + name
