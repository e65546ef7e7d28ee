"""Which files form which decks, in which language, for `propctl cards check|pack|show`.

No files: the decks shipped with propctl in the chosen language (--lang, else
the locale). Files: grouped by kind into one deck per kind; each file's name
may say its language (deck.de.csv), and all files and --lang must agree, so a
pack holds one language.
"""
from propctl.cards import lang as langs
from propctl.cards.load import Deck, Places, Problem, load_deck


class Selection:
    """The decks to check (one per kind), their language (None if unknown) and problems."""

    def __init__(self, decks, lang, problems) -> None:
        self.decks = decks
        self.lang = lang
        self.problems = problems


def select(files, kind_name=None, lang=None) -> Selection:
    """Load `files` (or the shipped decks) as decks of one language.

    `kind_name` forces one kind; `lang` is --lang (None: the files' names say,
    or the locale for the shipped decks).
    """
    problems = []
    if not files:
        lang = lang or langs.default_lang()
        names = [kind_name] if kind_name else list(langs.SHIPPED)
        files = [str(langs.shipped(name, lang)) for name in names]
        kind_of = dict((path, name) for path, name in zip(files, names))
    else:
        files = [str(f) for f in files]
        kind_of = dict((path, kind_name or _sniff(path)) for path in files)
        tagged = dict((path, langs.lang_of(path)) for path in files if langs.lang_of(path))
        said = sorted(set(tagged.values()))
        if lang is not None:
            for path, tag in tagged.items():
                if tag != lang:
                    problems.append(Problem(path, None, None, "is a %r deck by its name, but --lang is %r; "
                                            "allowed: files of one language" % (tag, lang)))
        elif len(said) > 1:
            problems.append(Problem(", ".join(files), None, None, "mix languages (%s); allowed: one "
                                    "language per deck and pack" % ", ".join(said)))
        else:
            lang = said[0] if said else None
    groups = {}
    for path in files:
        groups.setdefault(kind_of[path], []).append(path)
    decks = [load_deck(paths, kind) for kind, paths in groups.items()]
    return Selection(decks, lang, problems)


def _sniff(path):
    """The kind a file holds by itself, or None to let load_deck report what is wrong."""
    deck = load_deck([path])
    return deck.kind.NAME if deck.kind is not None else None


def one_deck(selection) -> Deck:
    """The single deck of a selection (for `pack`); a Deck with a problem if there are several."""
    if len(selection.decks) == 1:
        return selection.decks[0]
    titles = ", ".join(d.kind.TITLE for d in selection.decks if d.kind is not None)
    return Deck(None, [], [Problem("the files", None, None, "hold several kinds (%s); pack each kind "
                                   "into its own deck, or say --kind" % titles)], Places())

