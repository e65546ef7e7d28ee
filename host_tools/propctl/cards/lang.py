"""The language of a deck: one per file, named in the file name (taskcards.de.csv).

A pack for the fuse box holds one language. `--lang de|en` picks the shipped
deck of that language and says which language files must be; without it the
language comes from the locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG: German
if the first one set starts with "de"), English otherwise.
"""
import os
import re
from pathlib import Path

LANGS = ("de", "en")
DEFAULT = "en"
DECKS = Path(__file__).resolve().parent.parent / "data" / "decks"
# The shipped decks, one file per kind and language: decks/NAME.LANG.EXT.
SHIPPED = {"taskcards": "csv", "questions": "json"}
_TAG = re.compile(r"\.([a-z]{2})\.(csv|json)\Z", re.IGNORECASE)


def default_lang(environ=None) -> str:
    """The language the locale asks for, if we have it; English otherwise."""
    environ = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            first = value.split(":")[0].lower()
            return "de" if first.startswith("de") else DEFAULT
    return DEFAULT


def lang_of(path) -> "str | None":
    """The language a file name says (deck.de.csv -> "de"), or None if it says none."""
    match = _TAG.search(Path(str(path)).name)
    return match.group(1).lower() if match else None


def shipped(kind_name: str, lang: str) -> Path:
    """The deck of `kind_name` ("taskcards", "questions") in `lang` shipped with propctl."""
    if lang not in LANGS:
        raise ValueError("language is one of %s, not %r" % (", ".join(LANGS), lang))
    return DECKS / ("%s.%s.%s" % (kind_name, lang, SHIPPED[kind_name]))


def add_argument(parser, what: str) -> None:
    """Add --lang to a parser; `what` says what the language chooses."""
    parser.add_argument("--lang", choices=LANGS, default=None,
                        help="language of %s (default: from the locale, else %s; now %s)"
                             % (what, DEFAULT, default_lang()))


def chosen(args) -> str:
    """The --lang value, or the locale's language."""
    return getattr(args, "lang", None) or default_lang()
