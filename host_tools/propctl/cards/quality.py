"""Is a deck worth playing? Content checks on top of the structural ones in load/kinds.

`propctl cards check` and `pack` run these after loading; each finding is a
load.Problem with file, line, card and field, like every other problem.

Task cards (Finger weg!):
  - the task is worded as the game words it: "Keep your fingers off ..." /
    "Finger weg von ..." (when the deck's language is known);
  - every card names a source and an as-of date (YYYY, YYYY-MM or YYYY-MM-DD);
  - every card has a solution note (`notes`, one line, shown after the round);
  - in a German deck, numbers in task, statements, source and note are in
    German formats (propctl.cards.numbers_de: 7,26 kg, 40.075 km, 1914–1918);
  - the seven statements without the bolt are in no obvious order: not
    sorted by their numbers, not alphabetical, not in the order of a known
    sequence (planets, months, SI base units, decathlon ...). "In order"
    means all but one in order (longest run), so one inserted bolt or one
    swapped pair does not hide it;
  - a deck of 8 or more cards spreads its bolts over the windows;
  - about a third of the cards are family cards (propctl.cards.family).
Questions (Pi mal Daumen):
  - every question names a source and an as-of date;
  - the exact answer sits where the rulebook puts it: it is a value of the
    scale with a 6-point range on each side (12 |3| 120 |6| 175 |6| 240),
    and the points fall away from it on both sides;
  - at most one question in six asks "in which year";
  - topics, small answers, tuned windows, topic mix and family share
    (propctl.cards.question_mix);
  - in a German deck, numbers in German formats (propctl.cards.numbers_de);
  - no answer can be worked out from others: the same number about the same thing, a product
    or quotient of two answers, a difference of two years the decks name
    (propctl.cards.derive).
Across all decks checked together (same language):
  - no statement twice on two task cards, no question text twice;
  - no task-card statement that gives away a question (all its two or more
    subject words in the question: "Sinking of the Titanic" / "In which year
    did the Titanic sink?"; a lone name such as "Albatross" is no give-away).
"""
import re

from propctl.cards import family, numbers_de, question_mix
from propctl.cards.load import Problem
from propctl.cards.order import WORD, obvious_order
from propctl.shared.rules.pimaldaumen import TOP, exact
from propctl.termtext import shortened

OPENINGS = {"en": "Keep your fingers off ", "de": "Finger weg von "}
AS_OF = re.compile(r"(1[0-9]|20)[0-9]{2}(-(0[1-9]|1[0-2])(-(0[1-9]|[12][0-9]|3[01]))?)?\Z")
AS_OF_ALLOWED = "a date the facts hold for: YYYY, YYYY-MM or YYYY-MM-DD"

# Words too common to tie a statement to a question.
STOPWORDS = set("""
which what when where many much does with from that this have were their there than into
about year years first most long high heavy their these those some only each every after
welche welcher welches welchem welchen viele wieviele eine einer einem einen eines sind
haben wird wurde wurden nach dass oder auch nicht jahr jahre jahren erste ersten hoch lang
schwer über unter beim einen seit dieser diese dieses sein seine hatte hatten
second seconds metre metres meter meters kilogram kilograms minute minutes hour hours
litre litres liter sekunde sekunden metern kilogramm minuten stunde stunden
according laut gemäß
""".split())
YEAR_QUESTION = re.compile(r"(in which year|in what year|in welchem jahr|wann)\b", re.IGNORECASE)


def check(decks, lang=None) -> list:
    """Every content problem in `decks` (load.Deck objects of one language), in file order.

    These are house rules (the shipped decks keep them; a family's own deck need not), so every
    one is a warning (Problem.level); `cards check --strict` fails on them. They are judged on
    every card that could be read, and on the rows that could not as far as their fields allow,
    so one run shows every problem of every kind.
    """
    problems = []
    for deck in decks:
        if deck.kind is None:
            continue
        if deck.kind.NAME == "taskcards" and deck.records:
            problems.extend(_taskcards(deck, lang))
        elif deck.kind.NAME == "questions" and deck.records:
            problems.extend(_questions(deck, lang, _task_texts(decks)))
        problems.extend(_broken_rows(deck, lang))
    problems.extend(_duplicates(decks))
    for problem in problems:
        problem.level = "warning"
    return problems


def _at(deck, i, field, message, card=None):
    file, line = deck.where[i]
    if card is None:
        card = deck.kind.key(deck.cards[i])
    return Problem(file, line, field, message, card=card)


class _Row:
    """A row that could not be read as a card, seen as far as its fields allow (texts as written)."""

    def __init__(self, fields, fmt, kind_name) -> None:
        def text(value):
            return value.strip() if isinstance(value, str) else ""
        self.text = text(fields.get("text"))
        self.source = text(fields.get("source"))
        self.as_of = text(fields.get("as_of"))
        self.note = text(fields.get("notes"))
        self.statements = []
        if kind_name == "taskcards":
            values = fields.get("statements") if fmt == "json" else \
                [fields.get("s%d" % (k + 1)) for k in range(8)]
            self.statements = [text(v) for v in values] if isinstance(values, list) else []
        self.questions = []
        if kind_name == "questions":
            from propctl.cards.questions import SLOTS
            for frame, colour in SLOTS:
                if fmt == "json":
                    side = fields.get(frame)
                    raw = side.get(colour) if isinstance(side, dict) else None
                    if not isinstance(raw, dict):
                        continue  # no question there: that error is reported already
                else:
                    raw = dict((name, fields.get("%s_%s_%s" % (frame, colour, name)))
                               for name in ("source", "as_of"))
                item = _Row({}, fmt, "")
                item.source, item.as_of = text(raw.get("source")), text(raw.get("as_of"))
                self.questions.append(((frame, colour), item))


def _broken_rows(deck, lang) -> list:
    """The house rules a row that could not be read still shows (its source, note, wording)."""
    out = []
    for file, line, card_id, fields, fmt in deck.broken:
        row = _Row(fields, fmt, deck.kind.NAME)

        def at(field, message, file=file, line=line, card_id=card_id):
            return Problem(file, line, field, message, card=card_id)

        if deck.kind.NAME == "taskcards":
            out.extend(_task_rules(row, at, lang))
        else:
            for (frame, colour), question in row.questions:
                out.extend(_sourced(question, "%s_%s_" % (frame, colour), at))
    return out


# -- task cards ---------------------------------------------------------------------

def _taskcards(deck, lang) -> list:
    out = []
    for i, card in enumerate(deck.cards):
        out.extend(_task_rules(card, lambda field, message, i=i: _at(deck, i, field, message), lang))
        others = [s for w, s in enumerate(card.statements) if w != card.bolt]
        order = obvious_order(others)
        if order:
            out.append(_at(deck, i, "statements", "the statements without the bolt are %s, which gives "
                                                  "the bolt away; shuffle them" % order))
    out.extend(_bolt_balance(deck))
    share = family.share_problem(deck.cards)
    if share is not None:
        out.append(Problem(deck.where[0][0], None, "family", share))
    return out


def _task_rules(card, at, lang) -> list:
    """The house rules of one task card (or a row that could not be read): wording, source,
    as-of date, note, German number formats. `at(field, message)` makes the Problem."""
    out = []
    opening = OPENINGS.get(lang)
    if opening and card.text and not card.text.startswith(opening):
        quoted = (shortened(card.text, 40), opening.strip())
        out.append(at("text", "%r does not start with %r; a task names the statement to keep your "
                              "fingers off, as the game words it" % quoted))
    out.extend(_sourced(card, "", at))
    if not getattr(card, "note", ""):
        out.append(at("notes", "is missing; allowed: one line that settles what will be argued "
                               "at the table, shown after the round (why the bolt is the bolt, "
                               "why the tempting decoy is not)"))
    if lang == "de":
        for name, value in [("text", card.text), ("source", getattr(card, "source", "")),
                            ("notes", getattr(card, "note", ""))] + \
                [("s%d" % (w + 1), text) for w, text in enumerate(card.statements)]:
            for message in numbers_de.problems(value):
                out.append(at(name, message))
    return out


def _sourced(item, prefix, at) -> list:
    out = []
    if not getattr(item, "source", ""):
        out.append(at(prefix + "source", "is missing; allowed: where the facts come from "
                                         "(a reference work or organisation and year)"))
    as_of = getattr(item, "as_of", "")
    if not as_of:
        out.append(at(prefix + "as_of", "is missing; allowed: " + AS_OF_ALLOWED))
    elif not AS_OF.match(as_of):
        out.append(at(prefix + "as_of", "%r is not a date; allowed: %s" % (as_of, AS_OF_ALLOWED)))
    return out


def _bolt_balance(deck) -> list:
    count = len(deck.cards)
    if count < 8:
        return []
    windows = [0] * 8
    for card in deck.cards:
        windows[card.bolt] += 1
    fair = count / 8
    slack = max(2, count / 16)
    off = [w + 1 for w in range(8) if abs(windows[w] - fair) > slack]
    if not off:
        return []
    spread = ", ".join("%d: %d" % (w + 1, windows[w]) for w in range(8))
    where = deck.where[0][0]
    return [Problem(where, None, "bolt", "the bolts are unevenly spread over the windows (window: cards; "
                                         "%s); players learn where the bolt hides. Allowed: about %.0f "
                                         "per window (within %.0f)" % (spread, fair, slack))]


# -- questions ----------------------------------------------------------------------

def _task_texts(decks) -> list:
    """(card id, text) of every task, statement and note of the task decks checked together."""
    out = []
    for deck in decks:
        if deck.kind is not None and deck.kind.NAME == "taskcards":
            for card in deck.cards:
                out.extend((card.id, text) for text in [card.text, getattr(card, "note", "")]
                           + list(card.statements) if text)
    return out


def _questions(deck, lang, task_texts=()) -> list:
    from propctl.cards import derive
    from propctl.cards.questions import SLOTS
    out = []
    for i, field, message in derive.problems(deck, SLOTS, _words, task_texts):
        out.append(_at(deck, i, field, message) if i is not None
                   else Problem(deck.where[0][0], None, field, message))
    years = 0
    for i, card in enumerate(deck.cards):
        for (frame, colour), question in zip(SLOTS, card.questions):
            prefix = "%s_%s_" % (frame, colour)
            out.extend(_sourced(question, prefix, lambda field, message, i=i: _at(deck, i, field, message)))
            message = scale_rule(question.scale, question.answer)
            if message:
                out.append(_at(deck, i, prefix + "scale", message))
            for field, message in question_mix.question_problems(question, prefix):
                out.append(_at(deck, i, field, message))
            if lang == "de":
                for name in ("text", "unit", "source"):
                    for message in numbers_de.problems(getattr(question, name)):
                        out.append(_at(deck, i, prefix + name, message))
            years += bool(YEAR_QUESTION.match(question.text))
    total = len(deck.cards) * len(SLOTS)
    if years > total // 6:
        out.append(Problem(deck.where[0][0], None, "text", "%d of %d questions ask for a year; allowed: at "
                           "most one in six (%d): ask for amounts, lengths, counts instead"
                           % (years, total, total // 6)))
    out.extend(question_mix.deck_problems(deck, SLOTS))
    return out


def scale_rule(scale, answer) -> "str | None":
    """Why a scale breaks the rulebook's layout around the exact answer, or None.

    The rulebook's cards put the exact answer on a value of the scale between
    two 6-point ranges, and the points fall from there to both ends.
    """
    values = [exact(v) for v in scale[0::2]]
    points = list(scale[1::2])
    target = exact(answer)
    same = [k for k, v in enumerate(values) if _equal(v, target)]
    if not same:
        return ("the exact answer %s is not one of the scale's values; the rulebook puts it on the "
                "value between the two %d-point ranges (12 |3| 120 |6| 175 |6| 240)" % (answer, TOP))
    k = same[0]
    if k == 0 or k == len(values) - 1 or points[k - 1] != TOP or points[k] != TOP:
        return ("the exact answer %s needs a %d-point range on each side (12 |3| 120 |6| 175 |6| 240)"
                % (answer, TOP))
    left = points[:k][::-1]
    right = points[k:]
    for side in (left, right):
        for a, b in zip(side, side[1:]):
            if b > a:
                return ("the points must fall away from the exact answer %s on both sides, "
                        "got %s" % (answer, " ".join(str(p) for p in points)))
    return None


def _equal(a, b) -> bool:
    (da, pa), (db, pb) = a, b
    shift = max(pa, pb)
    return da * 10 ** (shift - pa) == db * 10 ** (shift - pb)


# -- across decks --------------------------------------------------------------------

def _normal(text) -> str:
    return " ".join(WORD.findall(text.casefold()) + re.findall(r"\d+", text))


_SUFFIXES = ("ing", "ern", "en", "er", "es", "ed", "e", "s", "n")


def _stem(word) -> str:
    """A word without one inflection ending (sinking/sink, Wände/Wand), so forms compare equal.

    Deliberately crude: compounds stay whole, so "Europa" does not match "euro".
    """
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[:-len(suffix)]
    return word


def _words(text) -> set:
    """The word stems that name a subject: 4+ letters and no common word, and every number."""
    return set(_stem(w) for w in WORD.findall(text.casefold()) if len(w) >= 4 and w not in STOPWORDS) \
        | set(re.findall(r"\d+", text))


def _label(deck, i) -> str:
    """A card as a problem message names it: its id and where it is."""
    return "%s (%s:%s)" % ((deck.kind.key(deck.cards[i]),) + tuple(deck.where[i]))


def _duplicates(decks) -> list:
    from propctl.cards.questions import SLOTS
    decks = [d for d in decks if d.kind is not None]
    out = []
    statements = {}   # normal text -> (deck, index) of the first card that has it
    questions = {}    # normal text -> (deck, index, field) of its first question
    asked = []        # (deck, index, field, text, words) of every question
    for deck in decks:
        for i, card in enumerate(deck.cards):
            if deck.kind.NAME == "taskcards":
                for w, statement in enumerate(card.statements):
                    key = _normal(statement)
                    first = statements.setdefault(key, (deck, i))
                    if first != (deck, i):
                        out.append(_at(deck, i, "s%d" % (w + 1), "%r is also a statement on card %s; "
                                       "allowed: each fact on one card" % (statement, _label(*first))))
            elif deck.kind.NAME == "questions":
                for (frame, colour), question in zip(SLOTS, card.questions):
                    field = "%s_%s_text" % (frame, colour)
                    key = _normal(question.text)
                    first = questions.setdefault(key, (deck, i, field))
                    if first != (deck, i, field):
                        kin, j, its = first
                        out.append(_at(deck, i, field, "asks the same as %s, %s; allowed: each question "
                                                       "once" % (_label(kin, j), its)))
                    asked.append((deck, i, field, question.text, _words(question.text)))
    for deck in decks:
        if deck.kind.NAME != "taskcards":
            continue
        for i, card in enumerate(deck.cards):
            for w, statement in enumerate(card.statements):
                words = _words(statement)
                # A lone name ("Albatross", "French") gives no number away; a statement of
                # two or more subject words all in one question does ("Sinking of the Titanic").
                for qdeck, j, field, text, qwords in asked if len(words) >= 2 else ():
                    if words <= qwords:
                        out.append(_at(deck, i, "s%d" % (w + 1), "%r gives away the question %s %s (%r); "
                                       "allowed: a fact in one deck only"
                                       % (statement, qdeck.kind.key(qdeck.cards[j]), field, text)))
                        break
    return out
