"""Read card files (CSV or JSON) into rows with their line numbers, and problems.

Nothing here knows a card kind's fields: `load_deck` asks the kind module
(propctl.cards.kinds) to parse each row and then checks ids across files.
"""
import array
import csv
import json
import re
import unicodedata
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

from propctl.cards import container, kinds
from propctl.cards.kinds import CardKind
from propctl.display import BIDI
from propctl.inputfile import InputFileError, read_regular

MAX_FILE_BYTES = 64 * 1024 * 1024


@dataclass
class Problem:
    """One thing wrong in a card file: where, which field, what is allowed."""

    file: str
    line: Optional[int]
    field: Optional[str]
    message: str
    card: Optional[str] = None

    def __str__(self) -> str:
        where = _printable(self.file)
        where = where if self.line is None else "%s:%d" % (where, self.line)
        parts = [where + ":"]
        if self.card:
            parts.append("card %s," % _printable(self.card))
        if self.field:
            parts.append("%s:" % _printable(self.field))
        parts.append(_printable(self.message))
        return " ".join(parts)


def _printable(text: str) -> str:
    # One problem, one line, nothing a terminal obeys: anything else is quoted.
    return text if text.isprintable() else repr(text)


@dataclass
class Row:
    """The fields of one card as read, and where it came from."""

    file: str
    line: Optional[int]
    fields: Dict[str, Any]
    fmt: str  # "csv" or "json"


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
        card_id = _raw_id(row)
        bad = _bad_text(row.fields)
        if bad is not None:
            # Not parsed: a lone surrogate cannot even be measured in UTF-8 bytes.
            self.problems.append(Problem(row.file, row.line, bad[0], bad[1], card=card_id))
            card = None
        else:
            card = _parse_row(kind, row, self.problems)
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
        return Deck(self.kind, self.records, self.problems, self.where, self.unpacked)


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
        _read(_File(str(path), builder), path, forced)
    return builder.finish(paths)


def _raw_id(row: Row) -> Optional[str]:
    value = row.fields.get("id")
    return value.strip() if isinstance(value, str) and value.strip() else None


def _parse_row(kind: CardKind, row: Row, problems: List[Problem]):
    label = _raw_id(row)

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


def _read(f: _File, path, forced: Optional[CardKind]) -> None:
    try:
        data = read_regular(path, MAX_FILE_BYTES)
    except InputFileError as exc:
        if "larger than" in str(exc):
            f.problem(None, None, "%s; split the deck into several files" % exc)
        else:
            f.problem(None, None, str(exc))
        return
    text = _decode(f, data)
    del data
    if text is None:
        return
    if not text.strip():
        f.problem(None, None, "is empty; allowed: a CSV file with a header row, or a JSON file")
        return
    name = f.path.lower()
    if name.endswith(".json") or (not name.endswith(".csv") and text.lstrip()[:1] in ("{", "[")):
        _read_json(f, text, forced)
    else:
        _read_csv(f, text, forced)


def _decode(f, data):
    if data.startswith(b"\xef\xbb\xbf"):  # spreadsheets often save UTF-8 with a BOM
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        f.problem(line, None, "bad encoding: byte 0x%02X at column %d is not UTF-8; allowed: UTF-8 text "
                  "(save the file as UTF-8)" % (data[exc.start], column))
        return None
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        f.problem(line, None, "bad encoding: a NUL character; allowed: UTF-8 text (is this a binary file?)")
        return None
    return text


def _read_csv(f, text, forced):
    reader = csv.reader(_lines(text), strict=True)
    header, header_line = None, 0
    try:
        while True:
            start = reader.line_num + 1
            try:
                cells = next(reader)
            except StopIteration:
                break
            if not any(c.strip() for c in cells):
                continue
            if header is None:
                header, header_line = [c.strip().lower() for c in cells], start
                if not _csv_header(f, header, header_line, forced):
                    return
                continue
            _csv_row(f, header, cells, start)
    except csv.Error as exc:
        f.problem(reader.line_num, None, "is not valid CSV (%s); allowed: comma-separated cells, "
                  "text with commas or quotes inside double quotes" % exc)
    if header is None:
        f.problem(None, None, "has no header row; allowed: a first row naming the columns")


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)?")


def _lines(text: str) -> Iterator[str]:
    """The lines of `text` with their ends, one at a time, as a file opened with
    newline="" gives them (io.StringIO would hold four bytes per character)."""
    for match in _LINE.finditer(text):
        if match.end() > match.start():
            yield match.group()


def _csv_header(f, header, line, forced) -> bool:
    matches = [forced] if forced is not None else kinds.for_columns(header)
    if not matches:
        f.problem(line, None, "cannot tell which kind of cards this is from the header; use --kind %s"
                  % "|".join(kinds.names()))
        return False
    kind = matches[0]
    f.set_kind(kind)
    ok = True
    seen = set()
    for name in header:
        if name in seen:
            f.problem(line, name, "column appears twice; allowed: each column once")
            ok = False
        seen.add(name)
        if name not in kind.COLUMNS:
            # Reported, but the rows are still checked: the known columns are all there.
            f.problem(line, name or "(empty)", "unknown column; allowed: %s" % ", ".join(kind.COLUMNS))
    missing = [name for name in kind.REQUIRED_COLUMNS if name not in header]
    if missing:
        f.problem(line, ", ".join(missing), "missing column%s; %s need %s"
                  % ("s" if len(missing) > 1 else "", kind.TITLE, ", ".join(kind.REQUIRED_COLUMNS)))
        ok = False
    return ok


def _csv_row(f, header, cells, line):
    if len(cells) > len(header):
        extra = cells[len(header):]
        if any(c.strip() for c in extra):
            f.problem(line, None, "has %d cells but the header names %d columns; allowed: one cell per "
                      "column (put text with commas in double quotes)" % (len(cells), len(header)))
            return
    fields = {}
    for name, value in zip(header, cells):
        fields[name] = value
    f.row(Row(f.path, line, fields, "csv"))


def _read_json(f, text, forced):
    try:
        document = json.loads(text)
    except (ValueError, RecursionError) as exc:
        line = getattr(exc, "lineno", None)
        f.problem(line, None, "is not valid JSON (%s); allowed: {\"kind\": ..., \"cards\": [...]}"
                  % getattr(exc, "msg", "too deeply nested"))
        return
    cards: Any
    if isinstance(document, list):
        cards, named = document, None
    elif isinstance(document, dict):
        cards, named = document.get("cards"), document.get("kind")
        if not isinstance(cards, list):
            f.problem(1, "cards", "must be a list of card objects; allowed: "
                      "{\"kind\": ..., \"cards\": [...]}")
            return
    else:
        f.problem(1, None, "holds a single value; allowed: {\"kind\": ..., \"cards\": [...]}")
        return
    kind = forced
    if named is not None:
        named_kind = kinds.by_name(named) if isinstance(named, str) else None
        if named_kind is None:
            f.problem(1, "kind", "%r is not a card kind; allowed: %s" % (named, ", ".join(kinds.names())))
            return
        if forced is not None and named_kind is not forced:
            f.problem(1, "kind", "the file says %r but --kind is %r" % (named, forced.NAME))
            return
        kind = named_kind
    if kind is None:
        f.problem(1, "kind", "missing, so the kind of cards is unknown; add \"kind\": \"%s\" or use --kind"
                  % "|".join(kinds.names()))
        return
    f.set_kind(kind)
    lines = _element_lines(text)
    for i, card in enumerate(cards):
        line = lines[i] if i < len(lines) else None
        if not isinstance(card, dict):
            f.problem(line, "cards[%d]" % i, "must be an object with the fields %s"
                      % ", ".join(kind.JSON_FIELDS))
            continue
        unknown = [k for k in card if k not in kind.JSON_FIELDS]
        row = Row(f.path, line, card, "json")
        if unknown:
            # Reported, and the card is still checked, so every problem shows at once.
            f.problems.append(Problem(f.path, line, ", ".join(unknown), "unknown field; allowed: %s"
                                      % ", ".join(kind.JSON_FIELDS), card=_raw_id(row)))
        f.row(row)


_SPACE = re.compile(r"[ \t\n\r]*")


def _element_lines(text) -> list:
    """Line numbers where each card of the "cards" list (or a top-level list) starts.

    json.loads gives no positions, so walk the top level with raw_decode.
    """
    decoder = json.JSONDecoder()

    def skip(i: int) -> int:
        return _SPACE.match(text, i).end()  # type: ignore[union-attr]  # "*" always matches

    def array(i):
        starts = []
        i = skip(i + 1)
        while i < len(text) and text[i] != "]":
            starts.append(i)
            i = skip(decoder.raw_decode(text, i)[1])
            if text.startswith(",", i):
                i = skip(i + 1)
        return starts

    try:
        i = skip(0)
        starts = []
        if text.startswith("[", i):
            starts = array(i)
        elif text.startswith("{", i):
            i = skip(i + 1)
            while i < len(text) and text[i] != "}":
                name, i = decoder.raw_decode(text, i)
                i = skip(skip(i) + 1)  # the colon
                if name == "cards" and text.startswith("[", i):
                    starts = array(i)  # json.loads keeps the last "cards"; so do we
                i = skip(decoder.raw_decode(text, i)[1])
                if text.startswith(",", i):
                    i = skip(i + 1)
    except (ValueError, IndexError, RecursionError):
        return []
    lines, line, pos = [], 1, 0
    for start in starts:
        line += text.count("\n", pos, start)
        pos = start
        lines.append(line)
    return lines
