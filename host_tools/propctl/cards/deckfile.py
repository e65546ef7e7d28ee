"""A card file (CSV or JSON) read into rows with their line numbers, and problems.

    read_file(f, path, forced_kind)   # f.problem(...), f.set_kind(kind), f.row(Row) as it reads

The rows go to propctl.cards.load, which asks each card kind to parse them and
checks ids across files; nothing here knows a kind's fields.
"""
import csv
import json
import re
from dataclasses import dataclass
from typing import Any, Dict, Iterator, Optional

from propctl.cards import kinds
from propctl.cards.kinds import CardKind
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
    # "error": the box or the game cannot play the card (a missing bolt, a bad id, a duplicate);
    # "warning": a house rule of the shipped decks (sources, wording, spread, family share),
    # which fails only with --strict (propctl.cards.report).
    level: str = "error"

    def __str__(self) -> str:
        where = _printable(self.file)
        where = where if self.line is None else "%s:%d" % (where, self.line)
        parts = [where + ":"]
        if self.level == "warning":
            parts.append("warning:")
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


def raw_id(row: Row) -> Optional[str]:
    value = row.fields.get("id")
    return value.strip() if isinstance(value, str) and value.strip() else None


def read_file(f, path, forced: Optional[CardKind]) -> None:
    """Read one card file into f: f.problem(line, field, message), f.set_kind(kind), f.row(Row)."""
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
        if "field limit" in str(exc):  # csv.field_size_limit(), 128 KB: not an error in the CSV
            f.problem(reader.line_num, None, "has a cell longer than %d KB: a text that long, or a "
                      "double quote opened and never closed; allowed: cells of at most 200 bytes "
                      "(a statement 60), text with commas or quotes inside double quotes"
                      % (csv.field_size_limit() // 1024))
        else:
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
                                      % ", ".join(kind.JSON_FIELDS), card=raw_id(row)))
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
