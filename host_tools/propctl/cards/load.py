"""Read card files (CSV or JSON) into rows with their line numbers, and problems.

Nothing here knows a card kind's fields: `load_deck` asks the kind module
(propctl.cards.kinds) to parse each row and then checks ids across files.
"""
import csv
import io
import json
import os
import re

from propctl.cards import kinds

MAX_FILE_BYTES = 64 * 1024 * 1024


class Problem:
    """One thing wrong in a card file: where, which field, what is allowed."""

    def __init__(self, file, line, field, message, card=None) -> None:
        self.file = file
        self.line = line
        self.field = field
        self.message = message
        self.card = card

    def __str__(self) -> str:
        where = self.file if self.line is None else "%s:%d" % (self.file, self.line)
        parts = [where + ":"]
        if self.card:
            parts.append("card %s," % _printable(self.card))
        if self.field:
            parts.append("%s:" % _printable(self.field))
        parts.append(self.message if self.message.isprintable() else repr(self.message))
        return " ".join(parts)

    def __repr__(self) -> str:
        return "Problem(%r)" % str(self)


def _printable(text: str) -> str:
    # One problem, one line: names with line breaks or control characters are quoted.
    return text if text.isprintable() else repr(text)


class Row:
    """The fields of one card as read, and where it came from."""

    def __init__(self, file, line, fields, fmt) -> None:
        self.file = file
        self.line = line
        self.fields = fields
        self.fmt = fmt


class Deck:
    """The cards of one or more files, their kind module and every problem."""

    def __init__(self, kind, cards, problems, where) -> None:
        self.kind = kind
        self.cards = cards
        self.problems = problems
        self.where = where  # card index -> (file, line)


class _File:
    def __init__(self, path) -> None:
        self.path = path
        self.fmt = None
        self.kind = None
        self.rows = []
        self.problems = []

    def problem(self, line, field, message):
        self.problems.append(Problem(self.path, line, field, message))


def load_deck(paths, kind_name=None) -> Deck:
    """Read every file in `paths` as one deck; `kind_name` forces the kind.

    Never raises for bad file contents: everything wrong becomes a Problem.
    """
    forced = kinds.by_name(kind_name) if kind_name else None
    files = [_read(path, forced) for path in paths]
    problems = []
    for f in files:
        problems.extend(f.problems)
    kind = forced
    for f in files:
        if f.kind is None:
            continue
        if kind is None:
            kind = f.kind
        elif f.kind is not kind:
            problems.append(Problem(f.path, None, None, "holds %s, but the deck is %s; pack each kind "
                                    "into its own deck" % (f.kind.TITLE, kind.TITLE)))
            f.rows = []
    cards, where, first_seen = [], [], {}
    if kind is not None:
        for f in files:
            for row in f.rows:
                card = _parse_row(kind, row, problems)
                # A row with other problems still claims its id, so duplicates show at once.
                key = kind.key(card) if card is not None else _raw_id(row)
                if key is None:
                    continue
                if key in first_seen:
                    first = first_seen[key]
                    problems.append(Problem(row.file, row.line, "id", "duplicate id %r, first used at %s:%s; "
                                            "allowed: each id once per deck" % (key, first[0], first[1]),
                                            card=key))
                    continue
                first_seen[key] = (row.file, row.line)
                if card is None:
                    continue
                cards.append(card)
                where.append((row.file, row.line))
    if not problems and not cards:
        problems.append(Problem(", ".join(str(p) for p in paths), None, None,
                                "no cards found; a deck needs at least one card"))
    return Deck(kind, cards, problems, where)


def _raw_id(row):
    value = row.fields.get("id")
    return value.strip() if isinstance(value, str) and value.strip() else None


def _parse_row(kind, row, problems):
    card_id = row.fields.get("id")
    label = card_id.strip() if isinstance(card_id, str) and card_id.strip() else None

    def report(field, message):
        problems.append(Problem(row.file, row.line, field, message, card=label))

    return kind.parse(row.fields, row.fmt, report)


def _read(path, forced) -> _File:
    f = _File(str(path))
    try:
        if os.path.getsize(path) > MAX_FILE_BYTES:
            f.problem(None, None, "is larger than %d MB; split the deck into several files"
                      % (MAX_FILE_BYTES // (1024 * 1024)))
            return f
        with open(path, "rb") as stream:
            data = stream.read()
    except OSError as exc:
        f.problem(None, None, "cannot be read: %s" % (exc.strerror or exc))
        return f
    text = _decode(f, data)
    if text is None:
        return f
    if not text.strip():
        f.problem(None, None, "is empty; allowed: a CSV file with a header row, or a JSON file")
        return f
    if str(path).lower().endswith(".json") or (not str(path).lower().endswith(".csv")
                                              and text.lstrip()[:1] in ("{", "[")):
        f.fmt = "json"
        _read_json(f, text, forced)
    else:
        f.fmt = "csv"
        _read_csv(f, text, forced)
    return f


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
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
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


def _csv_header(f, header, line, forced) -> bool:
    matches = [forced] if forced is not None else kinds.for_columns(header)
    if not matches:
        f.problem(line, None, "cannot tell which kind of cards this is from the header; use --kind %s"
                  % "|".join(kinds.names()))
        return False
    kind = matches[0]
    f.kind = kind
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
    f.rows.append(Row(f.path, line, fields, "csv"))


def _read_json(f, text, forced):
    try:
        document = json.loads(text)
    except (ValueError, RecursionError) as exc:
        line = getattr(exc, "lineno", None)
        f.problem(line, None, "is not valid JSON (%s); allowed: {\"kind\": ..., \"cards\": [...]}"
                  % getattr(exc, "msg", "too deeply nested"))
        return
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
    f.kind = kind
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
        f.rows.append(row)


_SPACE = re.compile(r"[ \t\n\r]*")


def _element_lines(text) -> list:
    """Line numbers where each card of the "cards" list (or a top-level list) starts.

    json.loads gives no positions, so walk the top level with raw_decode.
    """
    decoder = json.JSONDecoder()

    def skip(i):
        return _SPACE.match(text, i).end()

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
