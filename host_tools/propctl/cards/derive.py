"""Answers that can be worked out instead of estimated (a house rule of the question decks).

Pi mal Daumen is a game of estimates: an answer another answer of the deck gives away, or that
follows from two of them by arithmetic, scores 6 for whoever noticed, not for whoever estimated
well. `problems(deck)` finds three ways it happens:

  - the same number twice about the same thing: two questions with equal answers whose texts
    share a subject word ("vertebrae ... neck" twice: 7, the kilocalories of a gram of
    carbohydrate and of protein: 4);
  - a product or quotient of two answers inside a third question's 6-point window, the three
    linked by subject words (the Sun's distance divided by the speed of light is the time
    sunlight takes: 149.6 million km / 299,792 km/s = 499 s); "million" and "billion" in a unit
    scale its number;
  - a difference of two years named in the deck (in a question's text, or the answer of an
    "in which year" question) inside the 6-point window of a question that asks how many years
    or how old.

Each finding is (card index, field, message), the index None for the whole deck; quality.check
makes them warnings at the card.
"""
import bisect
import re
from fractions import Fraction
from typing import Dict, List, Optional, Sequence, Tuple

from propctl.shared.rules.pimaldaumen import TOP

# unit -> (factor to the base unit, dimension); the base units: m, g, s, l, kcal, money.
UNITS = {
    "mm": (Fraction(1, 1000), "L"), "cm": (Fraction(1, 100), "L"), "m": (1, "L"), "km": (1000, "L"),
    "metre": (1, "L"), "metres": (1, "L"), "kilometre": (1000, "L"), "kilometres": (1000, "L"),
    "meter": (1, "L"), "metern": (1, "L"), "kilometer": (1000, "L"), "kilometern": (1000, "L"),
    "mg": (Fraction(1, 1000), "M"), "g": (1, "M"), "kg": (1000, "M"), "gram": (1, "M"),
    "grams": (1, "M"), "gramm": (1, "M"), "kilogram": (1000, "M"), "kilogramm": (1000, "M"),
    "seconds": (1, "T"), "second": (1, "T"), "sekunden": (1, "T"), "sekunde": (1, "T"),
    "minutes": (60, "T"), "minute": (60, "T"), "minuten": (60, "T"),
    "hours": (3600, "T"), "hour": (3600, "T"), "stunden": (3600, "T"), "stunde": (3600, "T"),
    "h": (3600, "T"), "s": (1, "T"), "days": (86400, "T"), "day": (86400, "T"), "tage": (86400, "T"),
    "tag": (86400, "T"), "litres": (1, "V"), "litre": (1, "V"), "liter": (1, "V"), "l": (1, "V"),
    "ml": (Fraction(1, 1000), "V"), "kcal": (1, "E"), "kilocalories": (1, "E"),
    "kilokalorien": (1, "E"), "euros": (1, "€"), "euro": (1, "€"),
}
PER = re.compile(r"\b(?:in one|in a|per|each|one|a|in einer|in einem|pro|ein|eine|einem|einer|je)\s+"
                 r"(second|minute|hour|day|gram|litre|kilogram|sekunde|minute|stunde|tag|gramm|"
                 r"liter|kilogramm)\b", re.IGNORECASE)

SCALE_WORDS = {"thousand": 10 ** 3, "tausend": 10 ** 3, "million": 10 ** 6, "millionen": 10 ** 6,
               "mio": 10 ** 6, "billion": 10 ** 9, "milliarden": 10 ** 9, "mrd": 10 ** 9}
YEAR = re.compile(r"(?<!\d)(?<!\d[.,])(1[0-9]{3}|20[0-9]{2})(?!\d)(?![.,]\d)")
YEARS_ASKED = re.compile(r"(how many years|for how many years|how old|wie viele jahre|wie lange|"
                         r"wie alt|how long did|how long was)", re.IGNORECASE)
YEAR_ASKED = re.compile(r"(in which year|in what year|in welchem jahr)", re.IGNORECASE)
YEAR_UNITS = ("years", "year", "jahre", "jahren")
# Every pair of answers is tried: about 0.1 s for the 360 shipped questions, growing with the
# square of the count; beyond this a deck is said not to be checked for products.
MAX_ARITHMETIC = 2400
CLOSE = Fraction(2, 100)  # a product within 2 % of the answer is the answer worked out, not luck
# Words too general to tie two questions to one subject, however few questions use them.
GENERIC = set("world welt weltweit record rekord germany deutschland earth erde".split())
SAME_WORDS = 2  # subject words two questions with one answer share before one gives the other away


def _number(text) -> Fraction:
    return Fraction(str(text))


def _scale_of(unit: str) -> int:
    factor = 1
    for word in re.findall(r"[^\W\d_]+", unit.lower()):
        factor *= SCALE_WORDS.get(word, 1)
    return factor


def window(scale) -> Tuple[Fraction, Fraction]:
    """The 6-point window of a scale: from the first value of its first 6-point range to the last
    value of its last one."""
    values = [_number(v) for v in scale[0::2]]
    points = list(scale[1::2])
    ranges = [k for k, p in enumerate(points) if p == TOP]
    return values[ranges[0]], values[ranges[-1] + 1]


def dimension(question) -> Optional[Tuple[Fraction, Tuple[Tuple[str, int], ...]]]:
    """(factor to base units, dimension) of a question's answer, or None if it has no unit this
    knows ("%", "°C", counts): its unit, divided by what the text says it is per ("in one
    second", "one gram of", "pro Tag")."""
    unit = (question.unit or "").strip()
    if not unit:
        return None
    factor = Fraction(1)
    dims: Dict[str, int] = {}
    top, _, bottom = unit.partition("/")
    for part, sign in ((top, 1), (bottom, -1)):
        known = False
        for word in re.findall(r"[^\W\d_]+", part.lower()):
            if word in SCALE_WORDS:
                factor *= Fraction(SCALE_WORDS[word]) ** sign
            elif word in UNITS:
                f, d = UNITS[word]
                factor *= Fraction(f) ** sign
                dims[d] = dims.get(d, 0) + sign
                known = True
            else:
                return None
        if part and not known:
            return None
    for match in PER.finditer(question.text):
        f, d = UNITS[{"sekunde": "second", "stunde": "hour", "tag": "day", "gramm": "gram",
                      "liter": "litre", "kilogramm": "kilogram"}.get(match.group(1).lower(),
                                                                  match.group(1).lower())]
        factor /= f
        dims[d] = dims.get(d, 0) - 1
    return factor, tuple(sorted((d, n) for d, n in dims.items() if n))


def _combine(a, b, sign):
    out = dict(a)
    for d, n in b:
        out[d] = out.get(d, 0) + sign * n
    return tuple(sorted((d, n) for d, n in out.items() if n))


class _Asked:
    def __init__(self, index: int, field: str, label: str, question, words: set) -> None:
        self.index, self.field, self.label, self.q, self.words = index, field, label, question, words
        self.answer = _number(question.answer)
        factor = _scale_of(question.unit or "")
        self.value = self.answer * factor
        low, high = window(question.scale)
        self.low, self.high = low * factor, high * factor
        self.dim = dimension(question)
        if self.dim is not None:  # in base units: arithmetic across units compares
            base = self.answer * self.dim[0]
            self.value = base
            self.low, self.high = low * self.dim[0], high * self.dim[0]


def problems(deck, slots: Sequence[Tuple[str, str]], words_of, texts=()
             ) -> List[Tuple[Optional[int], str, str]]:
    """(card index, field, message) for every answer of `deck` that can be worked out.

    `words_of(text)` gives the subject words of a text (quality._words); `texts` are the other
    texts of the decks checked with it, as (label, text) (task cards' statements and notes),
    which may name years too."""
    asked: List[_Asked] = []
    for i, card in enumerate(deck.cards):
        for (frame, colour), question in zip(slots, card.questions):
            words = set(w for w in words_of(question.text) if not w.isdigit())
            asked.append(_Asked(i, "%s_%s_answer" % (frame, colour),
                                "%s %s/%s" % (card.id, frame, colour), question, words))
    # Words in many questions ("adult", "world") tie nothing together.
    counts: Dict[str, int] = {}
    for a in asked:
        for word in a.words:
            counts[word] = counts.get(word, 0) + 1
    common = set(w for w, n in counts.items() if n > max(3, len(asked) // 40)) | GENERIC
    # Years are named in questions, their sources (a question's own source names the dates its
    # answer is the difference of) and the texts of the decks checked with it.
    named = [(label, text, set(w for w in words_of(text) if not w.isdigit()) - common)
             for label, text in list(texts) + [(a.label, a.q.text) for a in asked]]
    named += [(a.label + " source", a.q.source, a.words - common) for a in asked if a.q.source]
    out: List[Tuple[Optional[int], str, str]] = []
    out.extend(_same(asked, common))
    if len(asked) <= MAX_ARITHMETIC:
        out.extend(_arithmetic(asked, common))
    else:
        out.append((None, "answer", "has %d questions; the check for answers that are a product "
                     "or quotient of two others looks at every pair and runs on decks of up to %d "
                     "questions, so this deck was not checked for them (split it to check it)"
                     % (len(asked), MAX_ARITHMETIC)))
    out.extend(_years(asked, named))
    return out


def _same(asked: List[_Asked], common: set) -> List[Tuple[int, str, str]]:
    out = []
    first: Dict[Fraction, List[_Asked]] = {}
    for a in asked:
        for b in first.get(a.answer, []):
            shared = (a.words & b.words) - common
            if len(shared) >= SAME_WORDS:
                out.append((a.index, a.field, "%s is also the answer of %s, and both ask about %s: "
                            "whoever knows one knows the other; ask something else"
                            % (a.q.answer, b.label, ", ".join(sorted(shared)))))
                break
        first.setdefault(a.answer, []).append(a)
    return out


def _inside(a: _Asked, value: Fraction) -> bool:
    return a.low <= value <= a.high


def _close(a: _Asked, value: Fraction) -> bool:
    """Inside the 6-point window and within CLOSE of the exact answer: what arithmetic gives."""
    return _inside(a, value) and abs(value - a.value) <= CLOSE * abs(a.value)


def _arithmetic(asked: List[_Asked], common: set) -> List[Tuple[int, str, str]]:
    """a = b x c or b / c within CLOSE, in units that agree (g/l x kcal/g = kcal/l; million km
    / km/s = s), two of the three about one subject (a word in common that few questions use);
    each triple once, at the one of the three that comes last in the deck."""
    out = []
    seen = set()
    measured = [q for q in asked if q.dim is not None and q.dim[1] and q.value > 0]
    by_dim: Dict[tuple, List[_Asked]] = {}
    for q in measured:
        by_dim.setdefault(q.dim[1], []).append(q)
    values: Dict[tuple, List[float]] = {}
    for dim, group in by_dim.items():
        group.sort(key=lambda q: q.value)
        values[dim] = [float(q.value) for q in group]
    order = dict((id(q), k) for k, q in enumerate(asked))
    spread = 1 + 2 * float(CLOSE)

    def candidates(dim, target: float):
        group = by_dim.get(dim)
        if not group:
            return
        numbers = values[dim]
        k = bisect.bisect_left(numbers, target / spread)
        while k < len(group) and numbers[k] <= target * spread:
            yield group[k]
            k += 1

    combined: Dict[tuple, tuple] = {}

    def combine(x, y, sign):
        key = (x, y, sign)
        if key not in combined:
            combined[key] = _combine(x, y, sign)
        return combined[key]

    for a in measured:
        wanted = float(a.value)
        for dim_b, group_b in by_dim.items():
            for_product = combine(a.dim[1], dim_b, -1)      # c = a / b
            for_quotient = combine(dim_b, a.dim[1], -1)     # c = b / a
            if for_product not in by_dim and for_quotient not in by_dim:
                continue
            for b in group_b:
                if b is a:
                    continue
                have = float(b.value)
                for c in candidates(for_product, wanted / have):
                    _note(out, seen, order, common, a, b, c,
                          [(b.value * c.value, "%s x %s" % (b.label, c.label))])
                for c in candidates(for_quotient, have / wanted):
                    _note(out, seen, order, common, a, b, c,
                          [(b.value / c.value, "%s / %s" % (b.label, c.label))])
    return out


def _note(out, seen, order, common, a, b, c, trials) -> None:
    if c is a or c is b:
        return
    triple = frozenset((id(a), id(b), id(c)))
    if triple in seen:
        return
    linked = ((a.words & b.words) | (a.words & c.words) | (b.words & c.words)) - common
    for value, text in trials:
        if not linked or not _close(a, value):
            continue
        seen.add(triple)
        last = max((a, b, c), key=lambda q: order[id(q)])
        out.append((last.index, last.field, "%s: %s = %s (%s %s) within %d %%, all about %s; "
                    "whoever does the arithmetic scores %d; ask something that cannot be "
                    "worked out" % ("this answer follows" if last is a else
                                    "this answer gives %s away with the other" % a.label,
                                    text, a.label, a.q.answer, a.q.unit, int(CLOSE * 100),
                                    ", ".join(sorted(linked)), TOP)))
        return


def _years(asked: List[_Asked], named) -> List[Tuple[int, str, str]]:
    """Durations that are the difference of two years named in texts about the same subject."""
    out = []
    index: Dict[str, List[int]] = {}
    own: Dict[str, int] = {}
    years_in = []
    for k, (label, text, words) in enumerate(named):
        years_in.append([int(m.group()) for m in YEAR.finditer(text)])
        if not years_in[-1]:
            continue
        for word in words:
            index.setdefault(word, []).append(k)
        if label.endswith(" source"):
            own[label[:-len(" source")]] = k
    for a in asked:
        unit = (a.q.unit or "").lower()
        if not (unit in YEAR_UNITS or YEARS_ASKED.search(a.q.text)):
            continue
        texts = set(k for word in a.words for k in index.get(word, ()))
        if a.label in own:
            texts.add(own[a.label])
        years = {}  # type: Dict[int, str]
        for k in sorted(texts):
            label = named[k][0]
            if label == a.label:
                continue
            for year in years_in[k]:
                years.setdefault(year, label)
        hit = None
        ordered = sorted(years)
        for k, early in enumerate(ordered):
            for late in ordered[k + 1:]:
                if _inside(a, Fraction(late - early)):
                    hit = (early, late)
                    break
            if hit:
                break
        if hit:
            early, late = hit
            out.append((a.index, a.field, "%d - %d = %d lies in its %d-point window, and the decks "
                        "name both years about the same subject (%s; %s): the difference gives it "
                        "away; ask something else"
                        % (late, early, late - early, TOP, years[late], years[early])))
    return out
