"""Card kind "questions": Pi mal Daumen question cards (pack kind code QUES).

A card has six questions: yellow, green and salmon on the white frame and on
the violet frame. Each question has a text, an optional unit, a scale, the
exact answer and a source.

CSV: one row per card (like the printed card), columns

    id, then for FRAME in white, violet and COLOUR in yellow, green, salmon:
    FRAME_COLOUR_text, FRAME_COLOUR_unit, FRAME_COLOUR_scale,
    FRAME_COLOUR_answer, FRAME_COLOUR_source, FRAME_COLOUR_as_of, FRAME_COLOUR_topic;
    and family, notes (optional)

with the scale written as on the card, values and points alternating:
"12 | 3 | 120 | 6 | 175 | 6 | 240". Units and notes are optional.

JSON: {"kind": "questions", "cards": [{"id": "PMD-001",
  "white": {"yellow": QUESTION, "green": QUESTION, "salmon": QUESTION},
  "violet": {...}, "notes": "..."}]}
with QUESTION = {"text": ..., "unit": ..., "scale": [12, 3, 120, 6, 175],
"answer": 175, "source": ..., "as_of": "2024", "topic": "animals"}
and "family": true on a card every question of which a child of ten can
reason about.

`as_of` (the date the fact holds for), `topic` (what the question is about,
one of propctl.cards.quality.TOPICS) and `family` are not packed; `propctl
cards check` warns without a source or the first two (house rules) and judges the deck's topic mix and
family share (propctl.cards.quality). Numbers are kept exact: integers, or
decimals written as text ("-273.15") or as JSON numbers of at most 15
significant digits (read back by their shortest form, which is what was
written). The decimal mark is "."; a comma is refused, because "1,050" means
1050 in English and 1.05 in German.
"""
import re
from typing import Any, Dict, List, Sequence, Tuple, Union

from propctl.cards import family as families
from propctl.shared.cardpack.question import (  # noqa: F401
    FRAMES,
    KIND,
    MAX_RANGES,
    VERSION,
    Question,
    QuestionCard,
    decode,
    slot,
)
from propctl.shared.rules.pimaldaumen import COLOURS, TOP, check_scale, decimal_text, score

NAME = "questions"
TITLE = "Pi mal Daumen question cards"
CODE = KIND.encode()
QUESTION_FIELDS = ("text", "unit", "scale", "answer", "source", "as_of", "topic")
SLOTS = tuple((frame, colour) for frame in FRAMES for colour in COLOURS)
COLUMNS = ("id",) + tuple("%s_%s_%s" % (f, c, field) for f, c in SLOTS for field in QUESTION_FIELDS) \
    + ("family", "notes")
OPTIONAL_ENDINGS = ("_unit", "_source", "_as_of", "_topic", "family", "notes")
REQUIRED_COLUMNS = tuple(c for c in COLUMNS if not c.endswith(OPTIONAL_ENDINGS))
JSON_FIELDS = ("id",) + FRAMES + ("family", "notes")
ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,16}\Z")
# Byte limits: six questions must fit one pack record (4 KB) for a board.
MAX_TEXT_BYTES = 255
MAX_UNIT_BYTES = 40
MAX_SOURCE_BYTES = 120
MAX_NUMBER_CHARS = 16
SCALE_EXAMPLE = "12 | 3 | 120 | 6 | 175 | 6 | 240"
MAX_AS_OF_BYTES = 20
TOPIC_PATTERN = re.compile(r"[a-z][a-z_]{1,23}\Z")


class SourcedQuestion(Question):
    """A question as read from a file: also the date its answer holds for and its topic (not packed)."""

    def __init__(self, text, unit, scale, answer, source, as_of="", topic="") -> None:
        super().__init__(text, unit, scale, answer, source)
        self.as_of = as_of
        self.topic = topic


class DeckCard(QuestionCard):
    """A card as read from a file: also whether it is a family card (age 10+; not packed)."""

    def __init__(self, card_id, questions, family=False) -> None:
        super().__init__(card_id, questions)
        self.family = family


def matches_columns(columns) -> bool:
    """True if a CSV header looks like question cards."""
    names = set(c.strip().lower() for c in columns if c)
    return "white_salmon_scale" in names or "violet_salmon_scale" in names


def key(card: QuestionCard) -> str:
    """The card id: unique in a deck."""
    return card.id


def parse(fields: dict, fmt: str, report):
    """A QuestionCard from one CSV row or JSON object, or None.

    report(field, message) is called for every problem, so all show at once.
    """
    bad = [0]

    def problem(field, message):
        bad[0] += 1
        report(field, message)

    card_id = _id(fields.get("id"), problem)
    questions = []
    for frame, colour in SLOTS:
        if fmt == "json":
            raw, label = _json_question(fields, frame, colour, problem)
        else:
            label = "%s_%s_" % (frame, colour)
            raw = dict((field, fields.get(label + field)) for field in QUESTION_FIELDS)
        if raw is not None:
            questions.append(_question(raw, label, fmt, problem))
    notes = fields.get("notes")
    if notes is not None and not isinstance(notes, str):
        problem("notes", "must be text")
    family = families.parse(fields.get("family"), problem)
    if bad[0]:
        return None
    return DeckCard(card_id, questions, family)


def _id(value, problem):
    if not isinstance(value, str) or not value.strip():
        problem("id", "is empty; allowed: 1-16 letters, digits, '-' or '_'")
        return None
    value = value.strip()
    if not ID_PATTERN.match(value):
        problem("id", "%r is not a card id; allowed: 1-16 letters, digits, '-' or '_'" % value)
    return value


def _json_question(fields, frame, colour, problem):
    side = fields.get(frame)
    if not isinstance(side, dict):
        if colour == COLOURS[0]:  # once per frame, not once per question
            problem(frame, "must be an object with the questions %s" % ", ".join(COLOURS))
        return None, None
    unknown = [k for k in side if k not in COLOURS]
    if unknown and colour == COLOURS[0]:
        problem(frame, "unknown colour %s; allowed: %s" % (", ".join(map(repr, unknown)), ", ".join(COLOURS)))
    label = "%s.%s." % (frame, colour)
    raw = side.get(colour)
    if not isinstance(raw, dict):
        problem(label[:-1], "missing question; a card has %s questions on each frame" % ", ".join(COLOURS))
        return None, None
    unknown = [k for k in raw if k not in QUESTION_FIELDS]
    if unknown:
        problem(label[:-1], "unknown field %s; allowed: %s"
                % (", ".join(map(repr, unknown)), ", ".join(QUESTION_FIELDS)))
    return raw, label


def _question(raw, label, fmt, problem):
    text = _text(raw.get("text"), label + "text", MAX_TEXT_BYTES, True, problem)
    unit = _text(raw.get("unit"), label + "unit", MAX_UNIT_BYTES, False, problem)
    # Optional for reading (a family's own deck may have none); `cards check` warns (house rule).
    source = _text(raw.get("source"), label + "source", MAX_SOURCE_BYTES, False, problem) or ""
    as_of = _text(raw.get("as_of"), label + "as_of", MAX_AS_OF_BYTES, False, problem)
    topic = _text(raw.get("topic"), label + "topic", MAX_AS_OF_BYTES, False, problem)
    if topic is not None and not TOPIC_PATTERN.match(topic):
        problem(label + "topic", "%r is not a topic name; allowed: 2-24 lowercase letters or '_', "
                                 "e.g. animals" % topic)
    scale = _scale(raw.get("scale"), label + "scale", fmt, problem)
    answer = _number(raw.get("answer"), label + "answer", problem)
    if scale is not None and answer is not None:
        points = score(scale, answer)
        if points != TOP:
            where = "is outside the scale" if not points else "earns %d points" % points
            problem(label + "answer", "%s %s; the exact answer must earn %d (lie in a %d-point range)"
                    % (answer, where, TOP, TOP))
    if text is None or source is None or scale is None or answer is None:
        return None  # already reported; the card is dropped
    return SourcedQuestion(text, unit or "", scale, answer, source, as_of or "", topic or "")


def _text(value, label, limit, required, problem):
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            problem(label, "is empty; allowed: any non-empty text")
        return None
    if not isinstance(value, str):
        problem(label, "must be text, got %s" % _json_type(value))
        return None
    if "\n" in value or "\r" in value:
        problem(label, "contains a line break; allowed: one line of text")
        return None
    value = value.strip()
    if len(value.encode()) > limit:
        problem(label, "is %d bytes long; allowed: at most %d bytes of UTF-8" % (len(value.encode()), limit))
        return None
    return value


def _number(value, label, problem):
    """Canonical decimal text of a number cell, or None after reporting."""
    if value is None or (isinstance(value, str) and not value.strip()):
        problem(label, "is empty; allowed: a number such as 175 or 3.5")
        return None
    if isinstance(value, float):
        text = repr(value)
        if "e" in text or "n" in text or len(text.strip("-0.")) > 15:
            problem(label, "%s cannot be kept exact as a JSON number; write it as text, e.g. \"%s\""
                    % (text, "12.5"))
            return None
        value = text
    if isinstance(value, str) and "," in value:
        problem(label, "%r has a comma; allowed: digits with \".\" as the decimal mark and no "
                       "grouping (1050 for one thousand and fifty, 1.05 for one point zero five), "
                       "because \"1,050\" means one or the other depending on the language" % value)
        return None
    try:
        text = decimal_text(value)
    except ValueError as exc:
        problem(label, str(exc))
        return None
    if len(text) > MAX_NUMBER_CHARS:
        problem(label, "%s is too long; allowed: at most %d characters" % (text, MAX_NUMBER_CHARS))
        return None
    return text


def _scale(value, label, fmt, problem):
    allowed = "values and points alternating, starting and ending with a value, e.g. " + SCALE_EXAMPLE
    if isinstance(value, str) and fmt == "csv":
        cells = [c.strip() for c in value.split("|")]
    elif isinstance(value, list):
        cells = value
    elif value is None or value == "":
        problem(label, "is empty; allowed: " + allowed)
        return None
    else:
        problem(label, "must be %s; allowed: %s" % ("text" if fmt == "csv" else "a list", allowed))
        return None
    if len(cells) < 3 or len(cells) % 2 == 0:
        problem(label, "has %d entries; allowed: %s" % (len(cells), allowed))
        return None
    if len(cells) // 2 > MAX_RANGES:
        problem(label, "has %d ranges; allowed: at most %d" % (len(cells) // 2, MAX_RANGES))
        return None
    scale: List[Union[str, int]] = []
    for i, cell in enumerate(cells):
        where = "%s[%d]" % (label, i)
        if i % 2:
            points: Any = cell
            if isinstance(points, str) and re.fullmatch(r"\s*\d{1,2}\s*", points):
                points = int(points)
            if isinstance(points, bool) or not isinstance(points, int) or not 1 <= points <= TOP:
                problem(where, "%r is not a point value; allowed: a whole number 1-%d" % (cell, TOP))
                return None
            scale.append(points)
        else:
            number = _number(cell, where, problem)
            if number is None:
                return None
            scale.append(number)
    try:
        check_scale(scale)
    except ValueError as exc:
        problem(label, "%s; allowed: %s" % (exc, allowed))
        return None
    if TOP not in scale[1::2]:
        problem(label, "has no %d-point range; the highest point value is always %d" % (TOP, TOP))
        return None
    return scale


def encode(card: QuestionCard) -> bytes:
    """The pack record of a card (layout in cardpack.question)."""
    out = bytearray()

    def string(text):
        data = text.encode("utf-8")
        if len(data) > 255:
            raise ValueError("card %s: a text longer than 255 bytes cannot be packed" % card.id)
        out.append(len(data))
        out.extend(data)

    string(card.id)
    for q in card.questions:
        for text in (q.text, q.unit, q.answer, q.source):
            string(text)
        out.append(len(q.scale) // 2)
        for value in q.scale[0::2]:
            string(value)
        out.extend(bytes(q.scale[1::2]))
    return bytes(out)


def unpacked(card: QuestionCard) -> Tuple[str, ...]:
    """The texts a record does not hold: each question's as-of date and topic, in slot order,
    then "1" for a family card ("" if not)."""
    return (tuple(getattr(q, "as_of", "") for q in card.questions)
            + tuple(getattr(q, "topic", "") for q in card.questions)
            + ("1" if getattr(card, "family", False) else "",))


def with_unpacked(card: QuestionCard, texts: Sequence[str]) -> DeckCard:
    """A decoded card with its as-of dates, topics and family mark put back (see `unpacked`)."""
    count = len(card.questions)
    texts = list(texts) + [""] * (2 * count + 1 - len(texts))
    return DeckCard(card.id, [SourcedQuestion(q.text, q.unit, q.scale, q.answer, q.source, as_of, topic)
                              for q, as_of, topic in zip(card.questions, texts[:count],
                                                         texts[count:2 * count])],
                    texts[2 * count] == "1")


def describe(card: QuestionCard) -> str:
    """The card as a questioner reads it: every question, scale, answer and source."""
    lines = [card.id]
    for (frame, colour), q in zip(SLOTS, card.questions):
        unit = " (%s)" % q.unit if q.unit else ""
        lines.append("%s frame, %s: %s%s" % (frame, colour, q.text, unit))
        lines.append("    scale: %s" % format_scale(q.scale))
        lines.append("    answer: %s   source: %s" % (q.answer, q.source))
    return "\n".join(lines)


def format_scale(scale) -> str:
    """A scale as printed on the card: 12 |3| 120 |6| 175."""
    parts = [str(scale[0])]
    for i in range(1, len(scale), 2):
        parts.append("|%d|" % scale[i])
        parts.append(str(scale[i + 1]))
    return " ".join(parts)


def _json_number(text):
    return int(text) if "." not in text else text


def to_json(card: QuestionCard) -> dict:
    """The card in the JSON file format."""
    out: Dict[str, Any] = {"id": card.id}
    for frame in FRAMES:
        out[frame] = {}
        for colour in COLOURS:
            q = card.question(frame, colour)
            entry: Dict[str, Any] = {"text": q.text}
            if q.unit:
                entry["unit"] = q.unit
            entry["scale"] = [v if i % 2 else _json_number(v) for i, v in enumerate(q.scale)]
            entry["answer"] = _json_number(q.answer)
            entry["source"] = q.source
            if getattr(q, "as_of", ""):
                entry["as_of"] = q.as_of
            if getattr(q, "topic", ""):
                entry["topic"] = q.topic
            out[frame][colour] = entry
    if getattr(card, "family", False):
        out["family"] = True
    return out


def to_csv_row(card: QuestionCard) -> dict:
    """The card as one CSV row (column -> cell), the scale written as on the card."""
    row: Dict[str, str] = {"id": card.id}
    for (frame, colour), q in zip(SLOTS, card.questions):
        prefix = "%s_%s_" % (frame, colour)
        row[prefix + "text"] = q.text
        row[prefix + "unit"] = q.unit
        row[prefix + "scale"] = " | ".join(str(v) for v in q.scale)
        row[prefix + "answer"] = q.answer
        row[prefix + "source"] = q.source
        row[prefix + "as_of"] = getattr(q, "as_of", "")
        row[prefix + "topic"] = getattr(q, "topic", "")
    row["family"] = "yes" if getattr(card, "family", False) else ""
    return row


def _json_type(value) -> str:
    names = {dict: "an object", list: "a list", bool: "true/false", int: "a number",
             float: "a number", type(None): "null", str: "text"}
    return names.get(type(value), type(value).__name__)
