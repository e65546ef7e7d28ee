"""Pi mal Daumen question cards: the record layout of pack kind "QUES" and its decoder.

A card has six questions: yellow, green and salmon on the white frame (the
first play-through) and the same three on the violet frame (for groups that
know the white questions). Each question has a text, an optional unit, a
scale, the exact answer and a source for that answer.

Record layout, kind version 1 (the encoder is propctl.cards.questions).
A string is a u8 byte length then UTF-8 bytes; numbers are decimal text
("175", "-273.15") so they stay exact (see rules.pimaldaumen):

    string id
    6 questions, in SLOTS order (white yellow, white green, white salmon,
    violet yellow, violet green, violet salmon), each:
        string text
        string unit (empty: none)
        string answer
        string source
        u8     k, the number of ranges (1..MAX_RANGES)
        k+1 strings: the scale values, increasing
        k bytes: the points of the ranges (1..6)

The decoder checks what the checksums cannot: every scale value and the
answer must be decimal text the rules read, the values strictly increasing
(rules.pimaldaumen.check_scale); anything else is a PackError.

Use on the board:

    pack = Pack(stream, kind=KIND)
    check_version(pack)
    q = decode_question(pack.record(k), "white", "salmon")   # one question only
"""
from .pack import PackError

# The rules core is a sibling package: top-level on the board (/lib/rules), propctl.shared.rules on
# the desktop. Chosen by this module's own name, never by trying: on the desktop a failed relative
# import must not fall back to a top-level `rules`, which may be another project's package.
if __name__.startswith("cardpack."):
    from rules.pimaldaumen import COLOURS, TOP, check_scale, exact
else:
    from ..rules.pimaldaumen import COLOURS, TOP, check_scale, exact  # type: ignore[import-not-found,no-redef]

KIND = "QUES"
VERSION = 1
FRAMES = ("white", "violet")
"""White frame first; violet once the white questions are known."""
MAX_RANGES = 10


def slot(frame: str, colour: str) -> int:
    """Index 0..5 of a question on a card; ValueError for an unknown frame or colour."""
    if frame not in FRAMES:
        raise ValueError("frame is %s, not %r" % (" or ".join(FRAMES), frame))
    if colour not in COLOURS:
        raise ValueError("colour is %s, not %r" % (", ".join(COLOURS), colour))
    return FRAMES.index(frame) * len(COLOURS) + COLOURS.index(colour)


class Question:
    """One question: `text`, `unit` ("" if none), `scale` [value, points, ..., value]
    with values as decimal text, the exact `answer` (decimal text), and `source`."""

    def __init__(self, text: str, unit: str, scale, answer: str, source: str) -> None:
        self.text = text
        self.unit = unit
        self.scale = list(scale)
        self.answer = answer
        self.source = source

    def __eq__(self, other) -> bool:
        return (isinstance(other, Question) and self.text == other.text
                and self.unit == other.unit and self.scale == other.scale
                and self.answer == other.answer and self.source == other.source)

    def __repr__(self) -> str:
        return "Question(%r, %r, %r, %r, %r)" % (
            self.text, self.unit, self.scale, self.answer, self.source)


class QuestionCard:
    """A card: `id` and six `questions` in slot order (see `slot`)."""

    def __init__(self, card_id: str, questions) -> None:
        self.id = card_id
        self.questions = tuple(questions)

    def question(self, frame: str, colour: str) -> Question:
        """The question with this frame and colour."""
        return self.questions[slot(frame, colour)]

    def __eq__(self, other) -> bool:
        return (isinstance(other, QuestionCard) and self.id == other.id
                and self.questions == other.questions)

    def __repr__(self) -> str:
        return "QuestionCard(%r, %r)" % (self.id, self.questions)


def check_version(pack) -> None:
    """Raise PackError unless `pack` holds question cards in a layout this decoder reads."""
    if pack.kind != KIND:
        raise PackError("this pack holds %s records, not question cards (%s)" % (pack.kind, KIND))
    if pack.kind_version != VERSION:
        raise PackError("question-card layout version %d, this firmware reads version %d"
                        % (pack.kind_version, VERSION))


class _Reader:
    """Walks a record; every overrun is a PackError, never an IndexError."""

    def __init__(self, record) -> None:
        self.view = memoryview(record)
        self.pos = 0

    def byte(self) -> int:
        if self.pos >= len(self.view):
            raise PackError("question card record is cut short")
        value = self.view[self.pos]
        self.pos += 1
        return value

    def skip(self) -> None:
        length = self.byte()  # read first: byte() moves pos itself
        self.pos += length
        if self.pos > len(self.view):
            raise PackError("question card record is cut short")

    def text(self) -> str:
        length = self.byte()
        end = self.pos + length
        if end > len(self.view):
            raise PackError("question card record is cut short")
        try:
            value = str(self.view[self.pos:end], "utf-8")
        except ValueError:  # UnicodeError on MicroPython, UnicodeDecodeError on CPython
            raise PackError("question card record holds text that is not UTF-8") from None
        self.pos = end
        return value

    def question(self) -> Question:
        text = self.text()
        unit = self.text()
        answer = self.text()
        source = self.text()
        ranges = self.byte()
        if ranges < 1 or ranges > MAX_RANGES:
            raise PackError("question card record is corrupted (%d ranges)" % ranges)
        values = [self.text() for _ in range(ranges + 1)]
        scale = [values[0]]  # type: list
        for i in range(ranges):
            points = self.byte()
            if points < 1 or points > TOP:
                raise PackError("question card record is corrupted (%d points)" % points)
            scale.append(points)
            scale.append(values[i + 1])
        # Valid checksums do not make a question playable: a scale the rules
        # cannot score would crash a game at this question, so refuse it here.
        try:
            check_scale(scale)
            exact(answer)
        except ValueError as exc:
            raise PackError("question card record holds a question that cannot be scored (%s)"
                            % exc) from None
        return Question(text, unit, scale, answer, source)

    def skip_question(self) -> None:
        for _ in range(4):
            self.skip()
        ranges = self.byte()
        for _ in range(ranges + 1):
            self.skip()
        self.pos += ranges
        if self.pos > len(self.view):
            raise PackError("question card record is cut short")

    def end(self) -> None:
        if self.pos != len(self.view):
            raise PackError("question card record has %d stray bytes at its end"
                            % (len(self.view) - self.pos))


def decode(record) -> QuestionCard:
    """A QuestionCard from record bytes; PackError if the bytes do not form one."""
    reader = _Reader(record)
    card_id = reader.text()
    questions = [reader.question() for _ in range(len(FRAMES) * len(COLOURS))]
    reader.end()
    return QuestionCard(card_id, questions)


def decode_question(record, frame: str, colour: str) -> Question:
    """Only the question with this frame and colour, skipping the others' bytes."""
    wanted = slot(frame, colour)
    reader = _Reader(record)
    reader.skip()  # the id
    for _ in range(wanted):
        reader.skip_question()
    return reader.question()


def find(pack, card_id: str):
    """The card with id `card_id` (or None), one record at a time."""
    wanted = card_id.encode()
    for k in range(len(pack)):
        record = pack.record(k)
        if len(record) > 0 and record[1:1 + record[0]] == wanted:
            return decode(record)
    return None
