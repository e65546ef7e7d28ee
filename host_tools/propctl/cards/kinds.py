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
"""
import importlib

KIND_MODULES = [
    "taskcards",
    "questions",
]


def all_kinds() -> list:
    """Every registered kind module, in registry order."""
    return [importlib.import_module("propctl.cards." + name) for name in KIND_MODULES]


def names() -> list:
    """The --kind names."""
    return [kind.NAME for kind in all_kinds()]


def by_name(name: str):
    """The kind module called `name`, or None."""
    for kind in all_kinds():
        if kind.NAME == name:
            return kind
    return None


def by_code(code: str):
    """The kind module whose pack code is `code` (e.g. "TASK"), or None."""
    for kind in all_kinds():
        if kind.CODE.decode() == code:
            return kind
    return None


def for_columns(columns) -> list:
    """The kinds whose CSV header matches `columns`."""
    return [kind for kind in all_kinds() if kind.matches_columns(columns)]
