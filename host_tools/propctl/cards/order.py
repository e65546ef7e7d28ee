"""Statements in an obvious order give a task card's bolt away: numbers rising or falling, the
months, the planets from the Sun and other sequences everybody knows (cards check warns).

    obvious_order(["97", "89", "83", "71"])   -> "in descending numeric order"
    obvious_order(["Juni", "März", "Januar"]) -> None
"""
import re

from propctl.shared.rules.pimaldaumen import exact

_NUMBER = re.compile(r"[-+]?\d[\d ,.'\u202f\u00a0]*")
WORD = re.compile(r"[^\W\d_]+")  # a run of letters (quality uses it too)

# Known sequences: each a list of items, each item its names in English and German.
KNOWN_SEQUENCES = {
    "the planets from the Sun": [
        ("mercury", "merkur"), ("venus",), ("earth", "erde"), ("mars",), ("jupiter",),
        ("saturn",), ("uranus",), ("neptune", "neptun"), ("pluto",)],
    "the months": [
        ("january", "januar"), ("february", "februar"), ("march", "märz"), ("april",), ("may", "mai"),
        ("june", "juni"), ("july", "juli"), ("august",), ("september",), ("october", "oktober"),
        ("november",), ("december", "dezember")],
    "the weekdays": [
        ("monday", "montag"), ("tuesday", "dienstag"), ("wednesday", "mittwoch"),
        ("thursday", "donnerstag"), ("friday", "freitag"), ("saturday", "samstag", "sonnabend"),
        ("sunday", "sonntag")],
    "the SI base units (SI Brochure order)": [
        ("second", "sekunde"), ("metre", "meter"), ("kilogram", "kilogramm"), ("ampere",),
        ("kelvin",), ("mole", "mol"), ("candela",)],
    "the SI base units (MKS order)": [
        ("metre", "meter"), ("kilogram", "kilogramm"), ("second", "sekunde"), ("ampere",),
        ("kelvin",), ("mole", "mol"), ("candela",)],
    "the decathlon events": [
        ("100 metres", "100 m", "100-meter-lauf"), ("long jump", "weitsprung"),
        ("shot put", "kugelstoßen"), ("high jump", "hochsprung"), ("400 metres", "400 m", "400-meter-lauf"),
        ("110 metres hurdles", "110 m hürden", "110-meter-hürdenlauf"), ("discus", "diskus"),
        ("pole vault", "stabhochsprung"), ("javelin", "speerwurf"),
        ("1500 metres", "1500 m", "1500-meter-lauf")],
    "the colours of the rainbow": [
        ("red", "rot"), ("orange",), ("yellow", "gelb"), ("green", "grün"), ("blue", "blau"),
        ("indigo",), ("violet", "violett")],
    "the Greek alphabet": [
        ("alpha",), ("beta",), ("gamma",), ("delta",), ("epsilon",), ("zeta",), ("eta",),
        ("theta",), ("iota",), ("kappa",), ("lambda",), ("mu", "my"), ("nu", "ny"), ("xi",),
        ("omicron", "omikron"), ("pi",), ("rho",), ("sigma",), ("tau",), ("upsilon", "ypsilon"),
        ("phi",), ("chi",), ("psi",), ("omega",)],
}


def obvious_order(statements) -> "str | None":
    """How `statements` give away their order ("in ascending numeric order"), or None.

    All but one of them (or all, for 5-6 items) must form an ordered run
    (longest increasing or decreasing subsequence) for it to count.
    """
    n = len(statements)
    if n < 5:
        return None
    need = n - 1 if n >= 7 else n
    numbers = [_first_number(s) for s in statements]
    if all(x is not None for x in numbers):
        direction = _ordered(numbers, need, strict=True)
        if direction:
            return "in %s numeric order" % direction
    words = [s.casefold() for s in statements]
    direction = _ordered(words, need, strict=False)
    if direction:
        return "in %s alphabetical order" % direction
    prepared = [_prepare(s) for s in statements]
    for name, index in _INDEXES.items():
        positions = [p for p in (_position(item, index) for item in prepared) if p is not None]
        if len(positions) >= 5 and _ordered(positions, len(positions) - 1 if len(positions) >= 7
                                            else len(positions), strict=True):
            return "in the order of %s" % name
    return None


def _first_number(text):
    match = _NUMBER.search(text)
    if not match:
        return None
    raw = match.group(0).strip().rstrip(".,")
    for mark in (" ", "'", "\u202f", "\u00a0", ","):
        raw = raw.replace(mark, "")
    try:
        digits, decimals = exact(raw)
    except ValueError:
        return None
    return digits / 10 ** decimals  # only compared with each other, never decides a game


def _prepare(statement):
    folded = statement.casefold()
    return " %s " % folded, WORD.findall(folded)


def _index(sequence):
    """A sequence as (one-word names -> position, [(several-word name, position)])."""
    single, several = {}, []
    for position, names in enumerate(sequence):
        for name in names:
            if " " in name:
                several.append((" %s " % name, position))
            else:
                single.setdefault(name, position)
    return single, several


_INDEXES = dict((name, _index(sequence)) for name, sequence in KNOWN_SEQUENCES.items())


def _position(prepared, index):
    """Where a statement (from _prepare) sits in a sequence (from _index), or None: it names
    an item as whole words, or has a word that starts with a name of 4+ letters ("Diskuswurf")."""
    padded, words = prepared
    single, several = index
    for name, position in several:
        if name in padded:
            return position
    for word in words:
        if word in single:
            return single[word]
        for end in range(4, len(word)):
            if word[:end] in single:
                return single[word[:end]]
    return None


def _ordered(values, need, strict) -> "str | None":
    if _longest_run(values, strict) >= need:
        return "ascending"
    if _longest_run([_Reverse(v) for v in values], strict) >= need:
        return "descending"
    return None


class _Reverse:
    """Wraps a value so that comparisons run backwards (for descending runs)."""

    def __init__(self, value) -> None:
        self.value = value

    def __lt__(self, other) -> bool:
        return other.value < self.value

    def __le__(self, other) -> bool:
        return other.value <= self.value


def _longest_run(values, strict) -> int:
    """Length of the longest increasing subsequence (non-decreasing if not strict)."""
    best = []
    for i, value in enumerate(values):
        length = 1
        for j in range(i):
            if (values[j] < value if strict else values[j] <= value) and best[j] + 1 > length:
                length = best[j] + 1
        best.append(length)
    return max(best) if best else 0
