"""The registry of card kinds: one module per kind, listed in KIND_MODULES.

A kind module propctl.cards.NAME provides:

    NAME                  "taskcards": the --kind value and the JSON "kind" key
    TITLE                 words for messages, e.g. "Finger weg! task cards"
    CODE                  4 ASCII bytes for the pack header, e.g. b"TASK"
    VERSION               record layout version (0..255), stored in the header
    COLUMNS               every allowed CSV column, in the order people write them
    REQUIRED_COLUMNS      the CSV columns a file must have
    JSON_FIELDS           every allowed key of one card object in JSON
    matches_columns(cols) True if a CSV header belongs to this kind
    parse(fields, fmt, report)  one card from a row dict (fmt "csv"/"json");
                          report(field, message) per problem; None if any
    key(card)             the unique id of a card, for duplicates and `show`
    encode(card)          record bytes;  decode(data) the card again
                          (decode is the board-side decoder from cardpack.*)
    describe(card)        multi-line text for `propctl cards show`
    to_json(card)         the card as a JSON object in the file format
    unpacked(card)        the card's texts the pack does not hold (sources,
                          as-of dates) as a tuple of str, for the content checks
    with_unpacked(card, texts)  a decoded card with those texts put back
"""
import importlib
from typing import Any, Callable, Dict, List, Optional, Protocol, Sequence, cast

KIND_MODULES = [
    "taskcards",
    "questions",
]




class CardKind(Protocol):
    """What load, cli and the games use of a kind module (described above)."""

    NAME: str
    TITLE: str
    CODE: bytes
    VERSION: int
    COLUMNS: Sequence[str]
    REQUIRED_COLUMNS: Sequence[str]
    JSON_FIELDS: Sequence[str]

    def matches_columns(self, columns: Sequence[str]) -> bool: ...

    def parse(self, fields: Dict[str, Any], fmt: str,
              report: Callable[[str, str], None]) -> Optional[Any]: ...

    def key(self, card: Any) -> str: ...

    def encode(self, card: Any) -> bytes: ...

    def decode(self, data: bytes) -> Any: ...

    def describe(self, card: Any) -> str: ...

    def to_json(self, card: Any) -> dict: ...

    def unpacked(self, card: Any) -> Sequence[str]: ...

    def with_unpacked(self, card: Any, texts: Sequence[str]) -> Any: ...


def all_kinds() -> List[CardKind]:
    """Every registered kind module, in registry order."""
    return [cast(CardKind, importlib.import_module("propctl.cards." + name)) for name in KIND_MODULES]


def names() -> List[str]:
    """The --kind names."""
    return [kind.NAME for kind in all_kinds()]


def by_name(name: str) -> Optional[CardKind]:
    """The kind module called `name`, or None."""
    for kind in all_kinds():
        if kind.NAME == name:
            return kind
    return None


def by_code(code: str) -> Optional[CardKind]:
    """The kind module whose pack code is `code` (e.g. "TASK"), or None."""
    for kind in all_kinds():
        if kind.CODE.decode() == code:
            return kind
    return None


def for_columns(columns: Sequence[str]) -> List[CardKind]:
    """The kinds whose CSV header matches `columns`."""
    return [kind for kind in all_kinds() if kind.matches_columns(columns)]
