"""Numbers in German text written the way a German reader reads them.

A German reader takes "1,280 m" for 1.28 m, "7.26 kg" for 7260 kg (if read
at all), and "40075" is hard to read. German writes a decimal comma
(7,26 kg), groups thousands with a dot or a thin space (1.280 m, 40.075 km,
40 075 km) and writes a range with an en dash (2024–2029).

`problems(text)` lists, for one text, each number written otherwise, with
what to write instead. Used by `propctl cards check` on German decks (card
text, units, sources and notes); a number it cannot judge is left alone:
dates (6.8.1791, 2024-05-01), version-like x.y.z, numbers of norms
(ISO 3166-1, DIN EN 13698-1), of sections (Regel 2.3, § 4.1) and of models
(Boeing 747-400: a hyphen between a larger and a smaller number is no range).
"""
import re
from typing import List

# A number: digits with "." or "," between digit groups (a sentence's full stop is not part of it).
_NUMBER = re.compile(r"(?<![\w.,])\d+(?:[.,]\d+)*(?![\w])")
# A range written with a hyphen: 2024-2029, 10 - 12.
_HYPHEN_RANGE = re.compile(r"(?<![\w.,-])(\d+(?:[.,]\d+)*)(\s?)-(\s?)(\d+(?:[.,]\d+)*)(?![\w-])")
# Right before a number: the name of a norm, whose number (3166-1) is no amount, or a word
# that makes it a section number (Regel 2.3, Abschnitt 4.1, § 3.2).
_NORM = re.compile(r"(?:\b(?:ISO|IEC|DIN|EN|ASTM|ANSI|IEEE|ECE|UN|ITU-[RT]|BS|NF|IS|RFC|EPAL)"
                   r"(?:[/ ](?:IEC|EN|ISO|IEC))*[ /]?(?:[A-Z]+ ?)?"
                   r"|\b(?:Regel|Abschnitt|Kapitel|Kap\.|Tabelle|Abs\.|Art\.|Artikel|Nr\.|Ziffer)\s?|§\s?)\Z")
_ISO_DATE = re.compile(r"(?<!\d)\d{4}-\d{2}(?:-\d{2})?(?!\d)")
GROUP_FROM = 5  # digits from which a whole number needs thousands grouping (DIN 5008: 4 may stay)


def problems(text: str) -> List[str]:
    """What is wrong with the numbers in `text` for a German reader ([] if nothing)."""
    out = []
    dates = [m.span() for m in _ISO_DATE.finditer(text)]

    def exempt(start, end):
        if any(a <= start and end <= b for a, b in dates):
            return True
        return bool(_NORM.search(text[max(0, start - 16):start]))

    for match in _NUMBER.finditer(text):
        if exempt(match.start(), match.end()):
            continue
        message = _judge(match.group())
        if message:
            out.append(message)
    for match in _HYPHEN_RANGE.finditer(text):
        if exempt(match.start(), match.end()):
            continue
        first, before, after, second = match.groups()
        if _value(first) >= _value(second):
            continue  # no range: a model or part number (Boeing 747-400, ISO 3166-1)
        out.append("%r: a range takes an en dash in German: %s%s\u2013%s%s"
                   % (match.group(), first, before, after, second))
    return out


def _value(number: str) -> float:
    """A number's size for comparing the ends of a range (German or English marks, roughly)."""
    digits = re.sub(r"[.,](?=\d{3}(?!\d))", "", number).replace(",", ".")
    try:
        return float(digits)
    except ValueError:
        return 0.0


def _judge(number: str) -> "str | None":
    """Why `number` (digits with '.' and ',' between groups) misleads a German reader, or None."""
    commas, dots = number.count(","), number.count(".")
    groups = re.split(r"[.,]", number)
    if commas and dots:
        head, _, tail = number.rpartition(",")
        if "." in tail or not _grouped(head, "."):
            return ("%r is written the English way; German: %s" % (number, _german(number)))
        return None
    if dots:
        if _grouped(number, "."):
            return None  # 1.280 or 40.075: German thousands
        if dots == 1:
            return ("%r has a decimal point; German writes a decimal comma: %s"
                    % (number, number.replace(".", ",")))
        return None  # 6.8.1791 or 2.3.1: a date or a section number, not an amount
    if commas:
        if commas > 1 and _grouped(number, ","):
            return "%r has English thousands commas; German: %s" % (number, number.replace(",", "."))
        if _grouped(number, ",") and not number.startswith("0"):
            return ("%r reads as a decimal in German (%s); for the whole number write %s, for a "
                    "decimal round it or give one more digit"
                    % (number, _spoken_decimal(number), number.replace(",", ".")))
        return None  # 7,26: a German decimal
    if len(groups[0]) >= GROUP_FROM and not number.startswith("0"):
        return "%r needs its thousands grouped for a German reader: %s" % (number, _grouped_de(number))
    return None


def _grouped(number: str, mark: str) -> bool:
    """True if `number` is digit groups of three after a head of 1-3 digits, split by `mark`."""
    parts = number.split(mark)
    return len(parts) > 1 and 1 <= len(parts[0]) <= 3 and all(len(p) == 3 for p in parts[1:])


def _grouped_de(digits: str) -> str:
    """12345678 -> 12.345.678"""
    head = len(digits) % 3 or 3
    parts = [digits[:head]] + [digits[i:i + 3] for i in range(head, len(digits), 3)]
    return ".".join(parts)


def _german(number: str) -> str:
    """An English-written number (1,234.5) in German form (1.234,5)."""
    whole, _, decimals = number.partition(".")
    text = _grouped_de(whole.replace(",", "")) if len(whole.replace(",", "")) >= GROUP_FROM \
        else whole.replace(",", ".")
    return text + ("," + decimals if decimals else "")


def _spoken_decimal(number: str) -> str:
    head, _, tail = number.partition(",")
    return "%s Komma %s" % (head, tail)
