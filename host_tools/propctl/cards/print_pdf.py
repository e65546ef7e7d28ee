"""Print-ready PDF of a deck (reportlab): cards on A4 or Letter with crop marks.

Task cards (Finger weg!): the task text at the top, the eight statements level
with the fuse box's eight windows, and the red bolt only inside the bolt
window's opening, so the box shows it only when that slider opens. The
geometry comes from a Layout (print_layout); `calibration_pdf` prints the page
a builder measures the slot with. Each page of fronts is followed by its page
of backs (the category's name on its colour, for the rulebook's seven face-down
stacks), mirrored for duplex like the question cards; or none (blank backs).

Question cards (Pi mal Daumen), as the rulebook has them: one side holds the
white frame's three questions (salmon at the top, then green, yellow), each
with its unit and scale; the other side the violet frame's. The questioner
turns a card over and reads from the back, so the players see only the side
whose questions are not being asked. Violet sides are mirrored so that,
printed duplex, each lands behind its white side: across the sheet for
flipping on the long edge, top to bottom for the short edge.

Fonts: DejaVu Sans where the system has it (it covers nearly every Latin
letter), else the Bitstream Vera that ships with reportlab. A character
neither can draw is refused before anything is written, naming the card.
The page itself (fonts, sheet, the grid with crop marks) is print_sheet.
"""
import io
from typing import Callable, List, Optional, Sequence, Tuple

from reportlab.lib.units import mm

from propctl.cards.print_layout import WINDOWS, Layout
from propctl.cards.print_sheet import Fonts, Grid, PrintError, Sheet, TextDoesNotFit
from propctl.cards.print_text import right_to_left

# Pi mal Daumen cards are not slid into anything: one size, the task cards' default.
QUESTION_CARD = (88.0, 125.0)
BOLT_RED = (0.85, 0.1, 0.1)
FRAME_COLOURS = {"white": (0.75, 0.75, 0.75), "violet": (0.49, 0.3, 0.63)}
FIELD_COLOURS = {"salmon": (0.98, 0.66, 0.56), "green": (0.68, 0.85, 0.45), "yellow": (1.0, 0.88, 0.4)}
# The card's order top to bottom (the rulebook: "the top (salmon-coloured) question").
CARD_COLOURS = ("salmon", "green", "yellow")
WORDS = {
    "en": {"scale": "scale", "frame": {"white": "white frame", "violet": "violet frame"},
           "calibration": "Finger weg! task cards: calibration page",
           "bar": "This bar must measure exactly 100 mm. If not, print at 100 % (\"actual size\", "
                  "no \"fit to page\") and measure again.",
           "steps": ["1. Cut out the card outline (solid line) and slide it into the fuse box's slot "
                     "like a task card.",
                     "2. Each dashed box must show whole in its window. If not, read the rulers: "
                     "card size, top edge to the middle of window 1, middle of window 1 to "
                     "the middle of window 8 divided by 7, windows' left edge and width.",
                     "3. Write what differs into a layout file and print the cards with it:"],
           "now": "This page uses:"},
    "de": {"scale": "Skala",
           "frame": {"white": "weißer Rahmen", "violet": "violetter Rahmen"},
           "calibration": "Finger weg! Aufgabenkarten: Kalibrierseite",
           "bar": "Dieser Balken muss genau 100 mm lang sein. Sonst mit 100 % drucken (\"tatsächliche "
                  "Größe\", kein \"an Seite anpassen\") und neu messen.",
           "steps": ["1. Den Kartenumriss (durchgezogene Linie) ausschneiden und wie eine Aufgabenkarte "
                     "in den Schlitz des Sicherungskastens schieben.",
                     "2. Jedes gestrichelte Kästchen muss ganz in seinem Fenster liegen. Sonst an den "
                     "Linealen ablesen: Kartengröße, Oberkante bis Mitte Fenster 1, Mitte Fenster 1 "
                     "bis Mitte Fenster 8 geteilt durch 7, linker Rand und Breite der Fenster.",
                     "3. Was abweicht, in eine Layout-Datei schreiben und die Karten damit drucken:"],
           "now": "Diese Seite verwendet:"},
}


def _bolt(sheet: Sheet, x: float, top: float, w: float, h: float) -> None:
    """The red lightning bolt, inside the box x, top, w x h (mm)."""
    size = min(w, h) * 0.9
    left, upper = x + (w - size) / 2, top + (h - size) / 2
    shape = [(0.55, 0.0), (0.15, 0.55), (0.45, 0.55), (0.3, 1.0), (0.85, 0.38), (0.55, 0.38), (0.75, 0.0)]
    path = sheet.canvas.beginPath()
    for k, (px, py) in enumerate(shape):
        point = ((left + px * size) * mm, sheet.y(upper + py * size))
        (path.moveTo if k == 0 else path.lineTo)(*point)
    path.close()
    sheet.canvas.setFillColorRGB(*BOLT_RED)
    sheet.canvas.setStrokeColorRGB(*BOLT_RED)
    sheet.canvas.drawPath(path, stroke=0, fill=1)


def _task_card(sheet: Sheet, layout: Layout, x: float, top: float, card) -> None:
    sheet.rect(x, top, layout.card_width, layout.card_height, stroke=(0.8, 0.8, 0.8), width=0.2)
    inner = layout.card_width - 2 * layout.statement_left
    sheet.paragraph(x + layout.statement_left, top + layout.text_top, inner, layout.text_height,
                    card.text, 11, 6.5, bold=True, what="card %s, text" % card.id)
    room = layout.window_left - layout.statement_left - 2  # mm left of the windows
    for window in range(1, WINDOWS + 1):
        middle = top + layout.window_middle(window)
        sheet.paragraph(x + layout.statement_left, middle - layout.window_pitch / 2, room,
                        layout.window_pitch, card.statements[window - 1], 10, 5.5, middle=True,
                        what="card %s, s%d" % (card.id, window))
        if window - 1 == card.bolt:
            _bolt(sheet, x + layout.window_left, middle - layout.window_height / 2,
                  layout.window_width, layout.window_height)
    label = "%s · %s" % (card.id, card.category)
    below = layout.card_height - (layout.window_middle(WINDOWS) + layout.window_height / 2)
    baseline = top + layout.card_height - 2 if below >= 4 else top + 3
    # One line across the card, shrunk if the category is long.
    lines, size = sheet.fitted(label, inner, 6 * 1.2 / 72 * 25.4 + 0.01, 6, 4,
                               what="card %s, id and category" % card.id)
    sheet.text(x + layout.card_width - layout.statement_left, baseline, lines[0], size,
               colour=(0.4, 0.4, 0.4), align="right")


def _unprintable(fonts: Fonts, kind_name: str, cards) -> None:
    problems = []
    backwards = []
    for card in cards:
        texts = [card.text] + list(card.statements) + [card.category] if kind_name == "taskcards" else \
            [t for q in card.questions for t in (q.text, q.unit or "", q.source or "")]
        missing = fonts.missing(" ".join(texts))
        if missing:
            problems.append("card %s: %s" % (card.id, " ".join("%r (U+%04X)" % (c, ord(c)) for c in missing)))
        if right_to_left(" ".join(texts)):
            backwards.append(card.id)
    if problems:
        raise PrintError("the font cannot draw these characters: %s; install the DejaVu fonts "
                         "(e.g. the package fonts-dejavu-core) or change the cards" % "; ".join(problems))
    if backwards:
        raise PrintError("card%s %s: right-to-left text (Hebrew, Arabic ...), which this printer "
                         "would draw backwards and unjoined; print such cards another way"
                         % ("s" if len(backwards) > 1 else "", ", ".join(backwards)))


Progress = Optional[Callable[[int, int], None]]


def _each(unfit: List[str], draw, *args) -> None:
    """Draw one side of a card; a text that cannot fit is noted (every card is named at the end)."""
    try:
        draw(*args)
    except TextDoesNotFit as exc:
        unfit.append(str(exc))


def _refuse(unfit: List[str]) -> None:
    if unfit:
        shown = unfit[:20] + (["... and %d more" % (len(unfit) - 20)] if len(unfit) > 20 else [])
        raise PrintError("%d text%s cannot fit on the card%s: %s" % (
            len(unfit), "" if len(unfit) == 1 else "s", "" if len(unfit) == 1 else "s",
            "; ".join(shown)))


# Backs of task cards: the category's colour, by the order categories first appear in the deck
# (the German and English decks list their cards in the same order, so a category keeps its
# colour in both languages). Eight colours told apart also in greyscale by their lightness.
BACK_COLOURS = ((0.16, 0.38, 0.71), (0.85, 0.33, 0.10), (0.20, 0.60, 0.30), (0.55, 0.25, 0.60),
                (0.93, 0.69, 0.13), (0.60, 0.40, 0.20), (0.10, 0.60, 0.65), (0.80, 0.20, 0.45))


def contrast(colour, background=(1.0, 1.0, 1.0)) -> float:
    """WCAG 2 contrast ratio of two sRGB colours (1 to 21)."""
    def luminance(rgb):
        def linear(v):
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
        r, g, b = (linear(v) for v in rgb)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b
    a, b = sorted((luminance(colour), luminance(background)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def ink(colour, least: float = 4.5) -> tuple:
    """`colour` darkened until it reads on white paper (WCAG's 4.5:1 for normal text): the
    category's name on its back keeps its hue, but the yellow (1.9:1 as is) becomes ochre."""
    rgb = tuple(colour)
    while contrast(rgb) < least:
        rgb = tuple(v * 0.9 for v in rgb)
    return rgb


def category_colours(cards: Sequence) -> dict:
    """category -> (r, g, b) of its backs, by the order the categories first appear."""
    colours: dict = {}
    for card in cards:
        if card.category not in colours:
            colours[card.category] = BACK_COLOURS[len(colours) % len(BACK_COLOURS)]
    return colours


def _task_back(sheet: Sheet, layout: Layout, x: float, top: float, card, colour) -> None:
    """The back of a task card: its category's name on its colour, so a stack of one category
    can be drawn from face down; nothing of the front's text or bolt."""
    w, h = layout.card_width, layout.card_height
    sheet.rect(x, top, w, h, stroke=(0.8, 0.8, 0.8), width=0.2)
    sheet.rect(x + 3, top + 3, w - 6, h - 6, stroke=None, fill=colour)
    sheet.rect(x + 7, top + h / 2 - 9, w - 14, 18, stroke=None, fill=(1, 1, 1))
    lines, size = sheet.fitted(card.category, w - 18, 14, 16, 6, bold=True,
                               what="card %s, category" % card.id)
    leading = size * 1.2 / 72 * 25.4
    first = top + h / 2 - len(lines) * leading / 2 + size * 0.95 / 72 * 25.4
    for k, line in enumerate(lines):
        sheet.text(x + w / 2, first + k * leading, line, size, bold=True, colour=ink(colour),
                   align="centre")


def taskcards_pdf(cards: Sequence, layout: Layout, paper: str, progress: Progress = None,
                  duplex: Optional[str] = "long") -> Tuple[bytes, int]:
    """(PDF bytes, pages) of the task cards, as many per page as fit, crop marks around each.

    `duplex` "long" or "short": each page of fronts is followed by its page of backs (the
    category's name and colour), mirrored so that each back lands behind its front when printed
    duplex flipping on that edge; None: fronts only (blank backs)."""
    fonts = Fonts()
    _unprintable(fonts, "taskcards", cards)
    colours = category_colours(cards)
    unfit: List[str] = []
    out = io.BytesIO()
    sheet = Sheet(out, paper, fonts, "Finger weg! task cards")
    grid = Grid(sheet, (layout.card_width, layout.card_height), layout.gap, layout.margin)
    for start in range(0, len(cards), grid.per_page):
        page = cards[start:start + grid.per_page]
        for k, card in enumerate(page):
            _each(unfit, _task_card, sheet, layout, *grid.place(k), card)
        grid.crop_marks(sheet, len(page))
        sheet.next_page()
        if duplex is not None:
            for k, card in enumerate(page):
                _each(unfit, _task_back, sheet, layout, *grid.place(k, duplex), card,
                      colours[card.category])
            grid.crop_marks(sheet, len(page), duplex)
            sheet.next_page()
        if progress:
            progress(start + len(page), len(cards))
    _refuse(unfit)
    sheet.save()
    return out.getvalue(), sheet.pages


def _decimal(value, lang: str) -> str:
    from rules.pimaldaumen import decimal_text
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
    from rules.pimaldaumen import exact
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


def _question_side(sheet: Sheet, x: float, top: float, card, lang: str, frame: str) -> None:
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


def questions_pdf(cards: Sequence, lang: str, paper: str, duplex: str, gap: float, margin: float,
                  progress: Progress = None) -> Tuple[bytes, int]:
    """(PDF bytes, pages): a page of white-frame sides, then the page of their violet sides
    mirrored for `duplex` ("long": flipped on the long edge, columns mirrored; "short": rows), so
    the violet side of card i is printed behind its white side."""
    fonts = Fonts()
    _unprintable(fonts, "questions", cards)
    out = io.BytesIO()
    unfit: List[str] = []
    sheet = Sheet(out, paper, fonts, "Pi mal Daumen question cards")
    grid = Grid(sheet, QUESTION_CARD, gap, margin)
    for start in range(0, len(cards), grid.per_page):
        page = cards[start:start + grid.per_page]
        for back, frame in ((False, "white"), (True, "violet")):
            mirror = duplex if back else None
            for k, card in enumerate(page):
                _each(unfit, _question_side, sheet, *grid.place(k, mirror), card, lang, frame)
            grid.crop_marks(sheet, len(page), mirror)
            sheet.next_page()
        if progress:
            progress(start + len(page), len(cards))
    _refuse(unfit)
    sheet.save()
    return out.getvalue(), sheet.pages


def _ruler(sheet: Sheet, x: float, top: float, length: float, vertical: bool) -> None:
    """A millimetre ruler from (x, top): ticks every mm, longer every 5, numbers every 10."""
    for k in range(int(length) + 1):
        tick = 4.0 if k % 10 == 0 else 2.5 if k % 5 == 0 else 1.5
        if vertical:
            sheet.line(x - tick, top + k, x, top + k, width=0.15)
            if k % 10 == 0:
                sheet.text(x - 4.5, top + k + 1, str(k), 5.5, align="right")
        else:
            sheet.line(x + k, top - tick, x + k, top, width=0.15)
            if k % 10 == 0:
                sheet.text(x + k, top - 5, str(k), 5.5, align="centre")


def calibration_pdf(layout: Layout, paper: str, lang: str) -> Tuple[bytes, int]:
    """(PDF bytes, 1): the card outline at the layout's size, rulers along it, the windows as
    dashed boxes, a 100 mm bar for the printer's scale and what to measure."""
    import json
    fonts = Fonts()
    words = WORDS[lang]
    out = io.BytesIO()
    sheet = Sheet(out, paper, fonts, words["calibration"])
    left, top = 22.0, 24.0
    if left + layout.card_width + 5 > sheet.width or top + layout.card_height + 40 > sheet.height:
        raise PrintError("a %g x %g mm card does not fit on the calibration page with its rulers"
                         % (layout.card_width, layout.card_height))
    sheet.text(left, 10, words["calibration"], 12, bold=True)
    _ruler(sheet, left, top, layout.card_height, vertical=True)
    _ruler(sheet, left, top, layout.card_width, vertical=False)
    sheet.rect(left, top, layout.card_width, layout.card_height, width=0.4)
    sheet.rect(left + layout.statement_left, top + layout.text_top,
               layout.card_width - 2 * layout.statement_left, layout.text_height, stroke=(0.6, 0.6, 0.6),
               width=0.2, dash=[1, 1])
    for window in range(1, WINDOWS + 1):
        middle = top + layout.window_middle(window)
        sheet.rect(left + layout.window_left, middle - layout.window_height / 2, layout.window_width,
                   layout.window_height, stroke=BOLT_RED, width=0.3, dash=[2, 1])
        sheet.line(left, middle, left + layout.window_left, middle, width=0.1, colour=(0.6, 0.6, 0.6),
                   dash=[0.5, 1])
        sheet.text(left + layout.window_left + layout.window_width / 2, middle + 1, str(window), 7,
                   align="centre", colour=BOLT_RED)
    bar_top = top + layout.card_height + 10
    sheet.rect(left, bar_top, 100, 3, stroke=None, fill=(0, 0, 0))
    _ruler(sheet, left, bar_top + 8, 100, vertical=False)
    sheet.paragraph(left, bar_top + 10, sheet.width - left - 15, 10, words["bar"], 8, 6)
    column = left + layout.card_width + 8
    if sheet.width - column - 10 >= 45:
        text_left, text_top, text_width = column, top, sheet.width - column - 10
    else:
        text_left, text_top, text_width = left, bar_top + 22, sheet.width - left - 15
    at = text_top
    for step in words["steps"]:
        sheet.paragraph(text_left, at, text_width, 30, step, 8, 6)
        lines, size = sheet.fitted(step, text_width, 30, 8, 6)
        at += len(lines) * size * 1.2 / 72 * 25.4 + 2
    example = json.dumps({"card_width": layout.card_width, "card_height": layout.card_height,
                          "first_window": layout.first_window, "window_pitch": layout.window_pitch})
    sheet.paragraph(text_left, at, text_width, 20, example, 7, 5.5)
    at += 10
    sheet.paragraph(text_left, at, text_width, 8, "propctl cards print --layout layout.json -o cards.pdf",
                    7, 5)
    at += 8
    sheet.text(text_left, at, words["now"], 7, bold=True)
    for k, (name, value) in enumerate(layout.as_dict().items()):
        sheet.text(text_left, at + 4 + k * 3.4, "%s = %g mm" % (name, value), 6.5)
    sheet.next_page()
    sheet.save()
    return out.getvalue(), sheet.pages
