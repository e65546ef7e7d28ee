"""Card kind "taskcards": Finger weg! task cards (pack kind code TASK).

CSV columns (one row per card; `source`, `as_of`, `notes` and `family` are
not packed: they stay on the desktop, where the sims and game masters show
them after a round or choose cards by them, and a board's heap never holds
them):

    id, category, text, s1, s2, s3, s4, s5, s6, s7, s8, bolt, source, as_of, notes, family

JSON: {"kind": "taskcards", "cards": [{"id": ..., "category": ..., "text": ...,
"statements": [8 texts], "bolt": 1..8, "source": ..., "as_of": ..., "notes": ...,
"family": true}, ...]}

The category is the deck's own word for it (any text up to 40 bytes), so a
German deck says "Geografie" and a new deck may bring new categories.
`notes` is the card's solution: one line for what will be argued at the table
("Korsika gehört seit 1768 zu Frankreich; ..."), shown after the round.
`family` (yes/no in CSV, true/false in JSON; empty or no column: no) marks a
card a child of ten can play: no specialist knowledge, no adult topics
(propctl.cards.family; `--family` plays or packs only these).
`source`, `as_of` and `notes` may be empty for reading; `propctl cards check`
warns without them, and about a family share other than a third: house rules, warnings
that fail only with --strict (propctl.cards.quality).

In the files the bolt is the window number 1..8 as people count the windows
(s1 is the top window); the pack and cardpack.taskcard count windows 0..7.
"""
import json
import re
import struct
from typing import Dict, Sequence, Tuple

from propctl.cards import family as families
from propctl.shared.cardpack.taskcard import KIND, VERSION, WINDOWS, TaskCard  # noqa: F401 (VERSION: kind interface)
from propctl.shared.cardpack.taskcard import decode as decode_record

NAME = "taskcards"
TITLE = "Finger weg! task cards"
CODE = KIND.encode()
STATEMENT_COLUMNS = tuple("s%d" % (i + 1) for i in range(WINDOWS))
COLUMNS = ("id", "category", "text") + STATEMENT_COLUMNS + ("bolt", "source", "as_of", "notes", "family")
REQUIRED_COLUMNS = ("id", "category", "text") + STATEMENT_COLUMNS + ("bolt",)
JSON_FIELDS = ("id", "category", "text", "statements", "bolt", "source", "as_of", "notes", "family")
ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,16}\Z")
# Byte limits keep a record small enough for a board to fetch in well under 2 KB
# of heap and the texts short enough to read out and print on a card.
MAX_TEXT_BYTES = 200
MAX_STATEMENT_BYTES = 60
MAX_CATEGORY_BYTES = 40


class SourcedTaskCard(TaskCard):
    """A task card as read from a file: also where its facts come from, its
    solution note and whether it is a family card (none of them packed)."""

    def __init__(self, card_id, category, text, statements, bolt, source="", as_of="", note="",
                 family=False) -> None:
        super().__init__(card_id, category, text, statements, bolt)
        self.source = source
        self.as_of = as_of
        self.note = note
        self.family = family


def matches_columns(columns) -> bool:
    """True if a CSV header looks like task cards (it has s1..s8 and bolt)."""
    names = set(c.strip().lower() for c in columns if c)
    return "bolt" in names and "s1" in names


def key(card: TaskCard) -> str:
    """The card id: unique in a deck, used by `propctl cards show`."""
    return card.id


def parse(fields: dict, fmt: str, report):
    """A TaskCard from one CSV row or JSON object, or None.

    Calls report(field, message) once for every problem found, so a human
    sees all of them at once. `fmt` is "csv" or "json".
    """
    bad = [0]

    def problem(field, message):
        bad[0] += 1
        report(field, message)

    card_id = _text(fields, "id", problem)
    if card_id and not ID_PATTERN.match(card_id):
        problem("id", "%r is not a card id; allowed: 1-16 letters, digits, '-' or '_'" % card_id)
    category = _category(fields, problem)
    text = _text(fields, "text", problem)
    if text and len(text.encode()) > MAX_TEXT_BYTES:
        problem("text", "is %d bytes long; allowed: at most %d bytes of UTF-8"
                % (len(text.encode()), MAX_TEXT_BYTES))
    statements = _statements(fields, fmt, problem)
    bolt = _bolt(fields, problem)
    source = _optional_text(fields, "source", problem)
    as_of = _optional_text(fields, "as_of", problem)
    note = _optional_text(fields, "notes", problem)
    family = families.parse(fields.get("family"), problem)
    if bad[0]:
        return None
    return SourcedTaskCard(card_id, category, text, statements, bolt, source, as_of, note, family)


def _optional_text(fields, name, problem):
    value = fields.get(name)
    if value is None or (isinstance(value, str) and not value.strip()):
        return ""
    return _text(fields, name, problem) or ""


def _text(fields, name, problem, label=None):
    value = fields.get(name)
    label = label or name
    if value is None or (isinstance(value, str) and not value.strip()):
        problem(label, "is empty; allowed: any non-empty text")
        return None
    if not isinstance(value, str):
        problem(label, "must be text, got %s" % _json_type(value))
        return None
    if "\n" in value or "\r" in value:
        problem(label, "contains a line break; allowed: one line of text")
        return None
    return value.strip()


def _category(fields, problem):
    value = _text(fields, "category", problem)
    if value and len(value.encode()) > MAX_CATEGORY_BYTES:
        problem("category", "is %d bytes long; allowed: at most %d bytes of UTF-8"
                % (len(value.encode()), MAX_CATEGORY_BYTES))
        return None
    return value


def _statements(fields, fmt, problem):
    if fmt == "json":
        values = fields.get("statements")
        if not isinstance(values, list):
            problem("statements", "must be a list of %d texts, got %s" % (WINDOWS, _json_type(values)))
            return None
        if len(values) != WINDOWS:
            problem("statements", "has %d statements; allowed: exactly %d" % (len(values), WINDOWS))
            return None
        labels = ["statements[%d]" % i for i in range(WINDOWS)]
    else:
        values = [fields.get(column) for column in STATEMENT_COLUMNS]
        labels = list(STATEMENT_COLUMNS)
    missing = [label for label, value in zip(labels, values)
               if value is None or (isinstance(value, str) and not value.strip())]
    if missing:
        problem(", ".join(missing), "missing statement%s; a card has exactly %d statements"
                % ("s" if len(missing) > 1 else "", WINDOWS))
        return None
    out = []
    for label, value in zip(labels, values):
        text = _text({label: value}, label, problem)
        if text is None:
            return None
        if len(text.encode()) > MAX_STATEMENT_BYTES:
            problem(label, "is %d bytes long; allowed: at most %d bytes of UTF-8"
                    % (len(text.encode()), MAX_STATEMENT_BYTES))
            return None
        out.append(text)
    seen: Dict[str, str] = {}
    for label, text in zip(labels, out):
        if text.lower() in seen:
            problem(label, "repeats %s; allowed: %d different statements" % (seen[text.lower()], WINDOWS))
            return None
        seen[text.lower()] = label
    return out


def _bolt(fields, problem):
    value = fields.get("bolt")
    allowed = "one window number 1-%d" % WINDOWS
    if isinstance(value, list):
        values = value
    elif isinstance(value, str):
        values = [v for v in re.split(r"[\s,;/+]+", value.strip()) if v]
    elif value is None:
        values = []
    else:
        values = [value]
    if not values:
        problem("bolt", "is empty; allowed: " + allowed)
        return None
    if len(values) > 1:
        problem("bolt", "has %d bolts (%s); allowed: exactly one, %s"
                % (len(values), ", ".join(_show(v) for v in values), allowed))
        return None
    number = values[0]
    if isinstance(number, str) and re.fullmatch(r"[+-]?\d{1,9}", number.strip()):
        number = int(number)
    if isinstance(number, bool) or not isinstance(number, int):
        problem("bolt", "%s is not a window number; allowed: %s" % (_show(values[0]), allowed))
        return None
    if not 1 <= number <= WINDOWS:
        problem("bolt", "%d is out of range; allowed: %s" % (number, allowed))
        return None
    return number - 1


def encode(card: TaskCard) -> bytes:
    """The pack record of a card (layout in cardpack.taskcard)."""
    out = bytearray(struct.pack("<B", card.bolt))
    for text in (card.id, card.category, card.text) + tuple(card.statements):
        data = text.encode("utf-8")
        if len(data) > 255:
            raise ValueError("card %s: a text longer than 255 bytes cannot be packed" % card.id)
        out.append(len(data))
        out += data
    return bytes(out)


def decode(data: bytes) -> TaskCard:
    """The card in a pack record, every text decoded now (PackError if it cannot be)."""
    card = decode_record(data)
    return TaskCard(card.id, card.category, card.text, card.statements, card.bolt)


def unpacked(card: TaskCard) -> Tuple[str, str, str, str]:
    """The texts a record does not hold: (source, as_of, note, "1" for a family card else "")."""
    return (getattr(card, "source", ""), getattr(card, "as_of", ""), getattr(card, "note", ""),
            "1" if families.is_family(card) else "")


def with_unpacked(card: TaskCard, texts: Sequence[str]) -> SourcedTaskCard:
    """A decoded card with its source, as-of date, note and family mark put back (see `unpacked`)."""
    source, as_of, note, family = (list(texts) + ["", "", "", ""])[:4]
    return SourcedTaskCard(card.id, card.category, card.text, card.statements, card.bolt, source, as_of,
                           note, family == "1")


def describe(card: TaskCard) -> str:
    """The card as people read it, bolt marked, windows numbered 1..8."""
    lines = ["%s  [%s]" % (card.id, card.category), card.text]
    for i, statement in enumerate(card.statements):
        mark = "  <-- BOLT" if i == card.bolt else ""
        lines.append("  %d. %s%s" % (i + 1, statement, mark))
    if getattr(card, "note", ""):  # a card read from a file; a pack does not hold the note
        lines.append("solution: %s" % card.note)
    return "\n".join(lines)


def to_json(card: TaskCard) -> dict:
    """The card in the JSON file format (bolt counted 1..8)."""
    out = {"id": card.id, "category": card.category, "text": card.text,
           "statements": list(card.statements), "bolt": card.bolt + 1}
    for name, key in (("source", "source"), ("as_of", "as_of"), ("note", "notes")):
        if getattr(card, name, ""):
            out[key] = getattr(card, name)
    if families.is_family(card):
        out["family"] = True
    return out


def _show(value) -> str:
    # Values as the file wrote them: 'text' quoted, JSON true/null as JSON spells them.
    return repr(value) if isinstance(value, str) else json.dumps(value)


def _json_type(value) -> str:
    names = {dict: "an object", list: "a list", bool: "true/false", int: "a number",
             float: "a number", type(None): "null", str: "text"}
    return names.get(type(value), type(value).__name__)
