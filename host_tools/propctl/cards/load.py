"""Card files (CSV or JSON) read into one deck: the rows parsed by their kind, ids checked across files.

Reading one file into rows with their line numbers is propctl.cards.deckfile;
nothing here knows a card kind's fields: `load_deck` asks the kind module
(propctl.cards.kinds) to parse each row and then checks ids across files.
"""
import array
import re
import unicodedata
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

from propctl.cards import container, kinds
from propctl.cards.deckfile import MAX_FILE_BYTES, Problem, Row, raw_id, read_file  # noqa: F401 (users read them here)
from propctl.cards.kinds import CardKind
from propctl.termsafe import BIDI


class Places(Sequence[Tuple[str, Optional[int]]]):
    """(file, line) of each card, compact: a million cards cost a few MB, not a tuple each."""

    def __init__(self) -> None:
        self._files: List[str] = []
        self._file_of = array.array("L")
        self._line_of = array.array("L")  # 0: no line known

    def append(self, file: str, line: Optional[int]) -> None:
        if not self._files or self._files[-1] != file:
            self._files.append(file)
        self._file_of.append(len(self._files) - 1)
        self._line_of.append(line or 0)

    def __len__(self) -> int:
        return len(self._line_of)

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        return self._files[self._file_of[i]], (self._line_of[i] or None)


@dataclass
class Deck:
    """The cards of one or more files, their kind module and every problem.

    A deck keeps each card as its pack record (`records`): small enough for a
    million cards; `cards` decodes them when asked. What a record does not hold
    but the content checks read (sources, as-of dates) is kept beside it in
    `unpacked`, UTF-8 with the texts split by US (b"" if all are empty).
    """

    kind: Optional[CardKind]
    records: List[bytes]
    problems: List[Problem]
    where: Places  # card index -> (file, line)
    unpacked: List[bytes] = field(default_factory=list)
    # Rows that could not be read as cards (their errors are in `problems`), kept as read so the
    # house rules can still be checked on them in the same run: (file, line, id, fields, fmt).
    broken: List[Tuple[str, Optional[int], Optional[str], Dict[str, Any], str]] = \
        field(default_factory=list)
    # file -> its own column order (CSV header; JSON: the first card's keys), to sort problems by.
    columns: Dict[str, List[str]] = field(default_factory=dict)

    @cached_property
    def cards(self) -> list:
        kind = self.kind
        if kind is None:
            return []
        cards = []
        for i, data in enumerate(self.records):
            card = kind.decode(data)
            raw = self.unpacked[i] if i < len(self.unpacked) else b""
            # b"": all empty, which is what a decoded card without them says.
            cards.append(kind.with_unpacked(card, raw.decode().split(_US) if raw else kind.unpacked(card)))
        return cards


# Splits the unpacked texts: a control character, so never inside a text that was read.
_US = "\x1f"


def _pack_unpacked(texts) -> bytes:
    return _US.join(texts).encode() if any(texts) else b""


class _Builder:
    """Takes rows as the files are read, so no file's rows are all held at once."""

    def __init__(self, forced: Optional[CardKind]) -> None:
        self.kind = forced
        self.problems: List[Problem] = []
        self.records: List[bytes] = []
        self.unpacked: List[bytes] = []
        self.record_bytes = 0
        self.where = Places()
        self.first_seen: Dict[str, int] = {}  # id -> index into `where` of its first row
        self._first_rows = Places()
        self.broken: List[Tuple[str, Optional[int], Optional[str], Dict[str, Any], str]] = []
        self.columns: Dict[str, List[str]] = {}

    def take_kind(self, f: "_File", kind: CardKind) -> bool:
        """True if rows of `kind` from file `f` belong to the deck."""
        if self.kind is None:
            self.kind = kind
        elif kind is not self.kind:
            self.problems.append(Problem(f.path, None, None, "holds %s, but the deck is %s; pack each "
                                         "kind into its own deck" % (kind.TITLE, self.kind.TITLE)))
            return False
        return True

    def add(self, row: Row) -> None:
        kind = self.kind
        assert kind is not None
        card_id = raw_id(row)
        if row.file not in self.columns:
            self.columns[row.file] = [str(name) for name in row.fields]
        bad = _bad_text(row.fields)
        if bad is not None:
            # Not parsed: a lone surrogate cannot even be measured in UTF-8 bytes.
            self.problems.append(Problem(row.file, row.line, bad[0], bad[1], card=card_id))
            card = None
        else:
            card = _parse_row(kind, row, self.problems)
        if card is None:
            self.broken.append((row.file, row.line, card_id, row.fields, row.fmt))
        # A row with other problems still claims its id, so duplicates show at once.
        key = kind.key(card) if card is not None else card_id
        if key is None:
            return
        if key in self.first_seen:
            file, line = self._first_rows[self.first_seen[key]]
            self.problems.append(Problem(row.file, row.line, "id", "duplicate id %r, first used at %s:%s; "
                                         "allowed: each id once per deck" % (key, file, line), card=key))
            return
        self.first_seen[key] = len(self._first_rows)
        self._first_rows.append(row.file, row.line)
        if card is None:
            return
        try:
            data = kind.encode(card)
            problem = container.record_problem(data)
        except ValueError as exc:
            problem = str(exc)
        if problem is not None:
            self.problems.append(Problem(row.file, row.line, None, problem, card=key))
            return
        self.records.append(data)
        self.unpacked.append(_pack_unpacked(kind.unpacked(card)))
        self.record_bytes += len(data)
        self.where.append(row.file, row.line)

    def finish(self, paths) -> Deck:
        problem = container.deck_problem(len(self.records), self.record_bytes)
        if problem is not None:
            self.problems.append(Problem(", ".join(str(p) for p in paths), None, None, problem))
        if not self.problems and not self.records:
            self.problems.append(Problem(", ".join(str(p) for p in paths), None, None,
                                         "no cards found; a deck needs at least one card"))
        return Deck(self.kind, self.records, self.problems, self.where, self.unpacked, self.broken,
                    self.columns)


class _File:
    def __init__(self, path: str, builder: _Builder) -> None:
        self.path = path
        self.builder = builder
        self.take = False  # rows of this file belong to the deck
        self.problems = builder.problems

    def problem(self, line, field, message) -> None:
        self.problems.append(Problem(self.path, line, field, message))

    def set_kind(self, kind: CardKind) -> None:
        self.take = self.builder.take_kind(self, kind)

    def row(self, row: Row) -> None:
        if self.take:
            self.builder.add(row)


def load_deck(paths, kind_name=None) -> Deck:
    """Read every file in `paths` as one deck; `kind_name` forces the kind.

    Never raises for bad file contents: everything wrong becomes a Problem,
    including every limit of a pack (too many cards, a card too large).
    """
    forced = kinds.by_name(kind_name) if kind_name else None
    builder = _Builder(forced)
    for path in paths:
        read_file(_File(str(path), builder), path, forced)
    return builder.finish(paths)


def _parse_row(kind: CardKind, row: Row, problems: List[Problem]):
    label = raw_id(row)

    def report(field, message):
        problems.append(Problem(row.file, row.line, field, message, card=label))

    return kind.parse(row.fields, row.fmt, report)


# Terminals obey control characters (C0 but line breaks, DEL, C1) and the bidi
# controls (display.BIDI: U+202E draws the rest of a line backwards); a lone
# surrogate (JSON "\\udc00") cannot even be written as UTF-8. Line breaks are
# reported by each kind, with its own words.
_BAD_CHAR = re.compile("[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff" + BIDI + "]")


def _bad_text(fields: Dict[str, Any]) -> Optional[Tuple[str, str]]:
    """(field, message) for the first text holding a control character or half a
    UTF-16 surrogate pair, or None."""
    for label, text in _texts(fields, ""):
        found = _BAD_CHAR.search(text)
        if found is None:
            continue
        char = found.group()
        if unicodedata.category(char) == "Cs":
            return label, "contains %s, half of a UTF-16 surrogate pair; allowed: whole " \
                "characters (write the pair, or the character itself)" % _char_name(char)
        return label, "contains the control character %s; allowed: printable text " \
            "(no tabs, escape sequences or bells)" % _char_name(char)
    return None


def _texts(value: Any, label: str) -> Iterator[Tuple[str, str]]:
    if isinstance(value, str):
        yield label, value
    elif isinstance(value, dict):
        for name, inner in value.items():
            if isinstance(name, str):
                yield from _texts(inner, "%s.%s" % (label, name) if label else name)
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield from _texts(inner, "%s[%d]" % (label, i))


def _char_name(char: str) -> str:
    code = "U+%04X" % ord(char)
    return {"\t": "TAB (%s)", "\x1b": "ESC (%s)", "\x07": "BEL (%s)"}.get(char, "%s") % code

