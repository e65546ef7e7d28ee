"""A Pi mal Daumen question card's side drawn on the sheet, with its numbers and scale as printed.

As the rulebook has them: one side holds the white frame's three questions (salmon at the top,
then green, yellow), each with its unit and scale; the other side the violet frame's. The
questioner turns a card over and reads from the back, so the players see only the side whose
questions are not being asked. print_pdf puts the sides on pages, the violet ones behind the
white ones.
"""
from typing import List, Tuple

from propctl.cards.print_sheet import PrintError, Sheet

# Pi mal Daumen cards are not slid into anything: one size, the task cards' default.
QUESTION_CARD = (88.0, 125.0)
FRAME_COLOURS = {"white": (0.75, 0.75, 0.75), "violet": (0.49, 0.3, 0.63)}
FIELD_COLOURS = {"salmon": (0.98, 0.66, 0.56), "green": (0.68, 0.85, 0.45), "yellow": (1.0, 0.88, 0.4)}
# The card's order top to bottom (the rulebook: "the top (salmon-coloured) question").
CARD_COLOURS = ("salmon", "green", "yellow")
WORDS = {
    "en": {"scale": "scale", "frame": {"white": "white frame", "violet": "violet frame"}},
    "de": {"scale": "Skala", "frame": {"white": "weißer Rahmen", "violet": "violetter Rahmen"}},
}


def _decimal(value, lang: str) -> str:
    from propctl.shared.rules.pimaldaumen import decimal_text
    text = decimal_text(value) if not isinstance(value, str) else value
    whole, _, fraction = text.partition(".")
    sign = "-" if whole.startswith("-") else ""
    digits = whole.lstrip("-")
    # Grouped from five digits on, so 2300000 reads at a glance; four digits stay whole (a year).
    # German: 1.050 is 1050, 10.000 ten thousand, 1,5 one and a half; English: 10,000 and 1.5.
    thousands, point = (".", ",") if lang == "de" else (",", ".")
    if len(digits) > 4:
        digits = thousands.join(_groups(digits))
    return sign + digits + (point + fraction if fraction else "")


def _groups(digits: str) -> List[str]:
    head = len(digits) % 3 or 3
    return [digits[:head]] + [digits[k:k + 3] for k in range(head, len(digits), 3)]


def _scale_text(scale, lang: str) -> str:
    parts = [_decimal(scale[0], lang)]
    for k in range(1, len(scale), 2):
        parts.append("|%d|" % scale[k])
        parts.append(_decimal(scale[k + 1], lang))
    return " ".join(parts)


def _scale_pieces(question, lang: str) -> List[Tuple[str, bool]]:
    """The scale as printed, in pieces (text, bold): the exact answer is the bold value."""
    from propctl.shared.rules.pimaldaumen import exact
    target = exact(question.answer)
    scale = question.scale
    pieces: List[Tuple[str, bool]] = []
    for k, value in enumerate(scale):
        if k % 2:
            pieces.append((" |%d| " % value, False))
        else:
            pieces.append((_decimal(value, lang), exact(value) == target))
    return pieces


def _scale_lines(sheet: Sheet, width: float, pieces, size: float, smallest: float):
    """(lines of pieces, size): the scale on one line at the largest size from `size` down to
    `smallest`, else on two lines broken after a point range; None if neither fits `width`."""
    def measure(line, at):
        return sum(sheet.width_of(text, at, bold) for text, bold in line)
    values = (len(pieces) + 1) // 2
    half = 2 * (values // 2)  # the second line starts with a value
    for lines in ([pieces], [pieces[:half], pieces[half:]]):
        at = size
        while at > smallest and max(measure(line, at) for line in lines) > width:
            at = max(smallest, at - 0.25)
        if max(measure(line, at) for line in lines) <= width:
            return lines, at
    return None


def _scale(sheet: Sheet, x: float, bottom: float, width: float, lines, size: float) -> None:
    """Draw the scale's lines (from _scale_lines) ending at baseline `bottom`, answer in bold."""
    leading = size * 1.2 / 72 * 25.4
    for k, line in enumerate(lines):
        at = x
        for text, bold in line:
            sheet.text(at, bottom - (len(lines) - 1 - k) * leading, text.strip() if at == x else text,
                       size, bold=bold)
            at += sheet.width_of(text.strip() if at == x else text, size, bold)


def question_side(sheet: Sheet, x: float, top: float, card, lang: str, frame: str) -> None:
    """One side of a question card as the rulebook has it: one frame's three questions, salmon at
    the top, each with its unit and its scale (the exact answer in bold), the card id and the
    frame's name. The other side holds the other frame: a questioner turns the card over and
    reads from the back, so the players only ever see the side whose questions are not asked."""
    w, h = QUESTION_CARD
    words = WORDS[lang]
    sheet.rect(x, top, w, h, stroke=(0.8, 0.8, 0.8), width=0.2)
    sheet.rect(x + 2, top + 2, w - 4, h - 4, stroke=FRAME_COLOURS[frame], width=2.2)
    sheet.text(x + 5, top + 6.2, "%s · %s" % (card.id, words["frame"][frame]), 6.5, bold=True,
               colour=(0.3, 0.3, 0.3))
    band = (h - 12) / 3
    for c, colour in enumerate(CARD_COLOURS):
        btop = top + 8.5 + c * band
        sheet.rect(x + 4, btop, w - 8, band - 1, stroke=None, fill=FIELD_COLOURS[colour])
        question = card.question(frame, colour)
        unit = " (%s)" % question.unit if question.unit else ""
        fitted = _scale_lines(sheet, w - 12, _scale_pieces(question, lang), 8.5, 5)
        if fitted is None:
            raise PrintError("card %s, %s %s: the scale does not fit the card's width even at 5 pt "
                             "on two lines; use fewer ranges" % (card.id, frame, colour))
        lines, size = fitted
        scale_height = len(lines) * size * 1.2 / 72 * 25.4 + 2.5
        sheet.paragraph(x + 6, btop + 1.5, w - 12, band - 4 - scale_height, question.text + unit, 9, 6,
                        what="card %s, %s_%s_text" % (card.id, frame, colour))
        sheet.text(x + 6, btop + band - 2.6 - scale_height, words["scale"] + ":", 5.5,
                   colour=(0.3, 0.3, 0.3))
        _scale(sheet, x + 6, btop + band - 2.4, w - 12, lines, size)
