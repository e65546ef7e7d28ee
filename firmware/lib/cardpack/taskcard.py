"""Finger weg! task cards: the record layout of pack kind "TASK" and its decoder.

A task card has an id, a category, a task text, eight statements (windows
0..7, top to bottom on the fuse box) and the bolt window 0..7. Categories are
the deck's own words ("geography", "Geografie"): a deck with other categories
needs no firmware change.

Record layout, kind version 2 (the encoder is propctl.cards.taskcards):

    u8 bolt window 0..7
    11 strings, each u8 byte length then UTF-8 bytes:
       id, category, task text, statement 0 .. statement 7

(Version 1 stored the category as an index into a fixed list of seven.)

Use on the board:

    pack = Pack(stream, kind=KIND)
    check_version(pack)
    card = decode(pack.record(k))      # k from find(pack, "GEO-01"), -1 if no such card
"""
from .pack import PackError

KIND = "TASK"
VERSION = 2
# Where a board keeps its task-card pack: `propctl deploy --cards` puts a TASK
# pack here, and the fuse box reads it from here unless fusebox.pack says otherwise.
PACK_PATH = "cards/taskcards.bin"
WINDOWS = 8
_TEXTS = 3 + WINDOWS  # id, category, task text, the statements


class TaskCard:
    """One task card: `id`, `category` (str), `text`, `statements` (8 str), `bolt` (0..7).

    Cards from `decode` keep their record bytes and turn a text into a str
    only when it is read, so fetching a card costs about one record of heap;
    `statement(i)` reads one statement, `statements` all eight.
    """

    def __init__(self, card_id: str, category: str, text: str, statements, bolt: int) -> None:
        self.bolt = bolt
        self._texts: tuple | None = (card_id, category, text) + tuple(statements)
        self._record = b""

    @classmethod
    def _from_record(cls, record, bolt: int) -> "TaskCard":
        card = cls("", "", "", (), bolt)
        card._texts = None
        card._record = record
        return card

    @property
    def id(self) -> str:
        """The card id, e.g. "GEO-01"."""
        return self._text(0)

    @property
    def category(self) -> str:
        """The category as the deck words it, e.g. "geography" or "Geografie"."""
        return self._text(1)

    @property
    def text(self) -> str:
        """The task text read out to the players."""
        return self._text(2)

    def statement(self, window: int) -> str:
        """The statement behind `window` (0..7)."""
        if not 0 <= window < WINDOWS:
            raise IndexError("windows are 0..7, not %d" % window)
        return self._text(3 + window)

    @property
    def statements(self) -> tuple:
        """All eight statements, window 0 first."""
        return tuple(self._text(3 + i) for i in range(WINDOWS))

    def _text(self, n: int) -> str:
        if self._texts is not None:
            return self._texts[n]
        record = self._record
        pos = 1
        for _ in range(n):
            pos += 1 + record[pos]
        try:
            return str(memoryview(record)[pos + 1:pos + 1 + record[pos]], "utf-8")
        except ValueError:  # UnicodeError on MicroPython, UnicodeDecodeError on CPython
            raise PackError("task card record holds text that is not UTF-8") from None

    def __eq__(self, other) -> bool:
        return (isinstance(other, TaskCard) and self.id == other.id
                and self.category == other.category and self.text == other.text
                and self.statements == other.statements and self.bolt == other.bolt)

    def __repr__(self) -> str:
        return "TaskCard(%r, %r, %r, %r, %r)" % (
            self.id, self.category, self.text, self.statements, self.bolt)


def check_version(pack) -> None:
    """Raise PackError unless `pack` holds task cards in a layout this decoder reads."""
    if pack.kind != KIND:
        raise PackError("this pack holds %s records, not task cards (%s)" % (pack.kind, KIND))
    if pack.kind_version != VERSION:
        raise PackError("task-card layout version %d, this firmware reads version %d"
                        % (pack.kind_version, VERSION))


def decode(record) -> TaskCard:
    """A TaskCard from record bytes; PackError if the bytes do not form one.

    Checks the structure (bolt, every length) at once; the texts are
    decoded when read (the record CRC already vouches for them).
    """
    size = len(record)
    if size < 1:
        raise PackError("task card record is too short")
    bolt = record[0]
    if bolt >= WINDOWS:
        raise PackError("task card record is corrupted (bolt %d)" % bolt)
    pos = 1
    for _ in range(_TEXTS):
        if pos >= size:
            raise PackError("task card record is cut short")
        pos += 1 + record[pos]
    if pos != size:
        raise PackError("task card record is %s" % ("cut short" if pos > size else "followed by stray bytes"))
    return TaskCard._from_record(record, bolt)


def find(pack, card_id: str) -> int:
    """The index of the card with id `card_id` (-1: none), one record at a time, decoding none."""
    wanted = card_id.encode()
    for k in range(len(pack)):
        record = pack.record(k)
        # The id is the first string: compare its bytes.
        if len(record) > 1 and record[2:2 + record[1]] == wanted:
            return k
    return -1
