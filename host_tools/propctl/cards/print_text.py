"""Text that fits its box on a printed card, in both directions, or a refusal: never an overflow.

    fit(text, width, height, size, smallest, measure) -> (lines, size) or None

`measure(text, size)` is the printed width of `text` at `size` in the box's unit. In order:

  1. wrap at spaces (and at soft hyphens the author put in) at the largest size from `size`
     down to `smallest` (the floor) at which the lines fit the width and their height the box;
  2. if none does, the same again allowing a break inside a word at a syllable, with a hyphen;
  3. if still none, None: the caller refuses the card by name.

A soft hyphen (U+00AD) is a place a word may break: it is printed as "-" where a line breaks
there and not at all elsewhere.

Syllables follow the basic German rule (Duden, "Worttrennung", rules of the 2006 spelling): one
consonant between two vowels starts the next syllable (Ro-se), of several consonants the last one
does (Kat-ze, Rechts-schutz), and ch, ck, sch, ph, rh, sh, th count as one consonant (Zu-cker,
Ta-sche); vowel pairs that are one sound (ai, au, ei, eu, äu, ie, aa, ee, oo) stay together, and
no piece is shorter than two letters; the prefixes be-, ge-, ver-, zer-, ent-, emp- at a word's
start are a syllable of their own (Ge-schwin-dig-keit; a word such as gestern, ge-stern here,
is the price). It is the rule that makes the long German compounds
breakable (Rechts-schutz-ver-si-che-rungs-ge-sell-schaf-ten); in English words it gives
pronounceable breaks, not always the dictionary's. A string with no vowels (a long number, an
unbreakable code) has no syllables, so it fits by shrinking or not at all.

`right_to_left(text)` says whether text holds Hebrew or Arabic letters: reportlab draws them in
memory order and unjoined, so such a card is refused by name rather than printed backwards.
"""
import re
import unicodedata
from typing import Callable, List, Optional, Tuple

SHY = "\u00ad"
LEADING = 1.2            # line height / font size
STEP = 0.5               # pt between the sizes tried
PT_MM = 25.4 / 72

_VOWELS = "aeiouyäöüàáâéèêëíìîïóòôúùûæøå"
_PAIRS = ("äu", "ai", "au", "ei", "eu", "ie", "aa", "ee", "oo")
_UNITS = ("sch", "ch", "ck", "ph", "rh", "sh", "th")
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)

Measure = Callable[[str, float], float]


def right_to_left(text: str) -> bool:
    """True if `text` holds a right-to-left letter (Hebrew, Arabic, Syriac, Thaana, N'Ko ...)."""
    return any(unicodedata.bidirectional(c) in ("R", "AL") for c in text)


# German prefixes that are a syllable of their own whatever follows (Ge-schwin-dig-keit,
# Be-gren-zung, Ver-ant-wor-tung), where the consonant rule alone would cut Gesch-win, Beg-ren.
PREFIXES = ("ver", "zer", "ent", "emp", "be", "ge")


def syllables(word: str) -> List[str]:
    """`word` cut into syllables by the basic German rule (see the module); letters only."""
    lower = word.lower()
    for prefix in PREFIXES:
        rest = lower[len(prefix):]
        if lower.startswith(prefix) and len(rest) >= 3 and any(c in _VOWELS for c in rest[:-1]):
            return [word[:len(prefix)]] + _syllables(word[len(prefix):])
    return _syllables(word)


def _syllables(word: str) -> List[str]:
    lower = word.lower()
    groups = []  # (start, end) of each vowel group
    k = 0
    while k < len(lower):
        if lower[k] in _VOWELS:
            end = k + 2 if lower[k:k + 2] in _PAIRS else k + 1
            groups.append((k, end))
            k = end
        else:
            k += 1
    cuts = []
    for (_, end), (start, _) in zip(groups, groups[1:]):
        between = lower[end:start]
        if not between:
            continue  # two vowels of two syllables (Ru-in) are left whole: rare and safe
        units = []
        j = 0
        while j < len(between):
            unit = next((u for u in _UNITS if between.startswith(u, j)), between[j])
            units.append(unit)
            j += len(unit)
        cuts.append(start - len(units[-1]))
    pieces, last = [], 0
    for cut in cuts:
        if cut - last >= 2 and len(word) - cut >= 2:
            pieces.append(word[last:cut])
            last = cut
    pieces.append(word[last:])
    return pieces


def _breaks(word: str, hyphenate: bool) -> List[str]:
    """The pieces a word may break into: at its soft hyphens, and with `hyphenate` at syllables."""
    parts = word.split(SHY)
    if not hyphenate:
        return parts
    out = []
    for part in parts:
        pieces: List[str] = []
        at = 0
        for match in _WORD.finditer(part):
            inner = syllables(match.group())
            head = part[at:match.start()] + inner[0]
            if pieces:
                pieces[-1] += head
            else:
                pieces.append(head)
            pieces.extend(inner[1:])
            at = match.end()
        if pieces:
            pieces[-1] += part[at:]
        else:
            pieces.append(part)
        out.extend(pieces)
    return out


def _wrap(text: str, width: float, size: float, measure: Measure, hyphenate: bool
          ) -> Optional[List[str]]:
    """The lines of `text` at `size` none wider than `width`, or None if a piece is too wide."""
    lines: List[str] = []
    line = ""
    for word in text.split():
        pieces = _breaks(word, hyphenate)
        for k, piece in enumerate(pieces):
            candidate = line + piece if k else (line + " " + piece if line else piece)
            if measure(candidate, size) <= width:
                line = candidate
                continue
            if not line:
                return None  # one piece alone is wider than the box
            # Break before this piece: after a space, or inside the word with a hyphen.
            lines.append(line + "-" if k else line)
            line = piece
            if measure(line, size) > width:
                return None
    if line:
        lines.append(line)
    if any(measure(line, size) > width for line in lines):
        return None  # a hyphen added at a break made its line too wide
    return lines


def fit(text: str, width: float, height: float, size: float, smallest: float, measure: Measure
        ) -> Optional[Tuple[List[str], float]]:
    """(lines, size) of `text` in a width x height box (mm), or None if it cannot fit (module)."""
    text = " ".join(text.split())
    for hyphenate in (False, True):
        at = size
        while True:
            lines = _wrap(text, width, at, measure, hyphenate)
            if lines is not None and len(lines) * at * LEADING * PT_MM <= height + 1e-9:
                return lines, at
            if at <= smallest:
                break
            at = max(smallest, at - STEP)
    return None
