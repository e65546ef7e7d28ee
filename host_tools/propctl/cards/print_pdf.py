"""Print-ready PDF of a deck (reportlab): cards on A4 or Letter with crop marks.

Task cards (Finger weg!): the task text at the top, the eight statements level
with the fuse box's eight windows, and the red bolt only inside the bolt
window's opening, so the box shows it only when that slider opens. The
geometry comes from a Layout (print_layout); `calibration_pdf` prints the page
a builder measures the slot with.

Question cards (Pi mal Daumen): the front holds the six questions in the
card's frames (white frame, then violet) and colours (salmon at the top, then
green, yellow, as on the card); the back holds units, scales and answers. Backs
are mirrored so that, printed duplex, each back lands behind its front: across
the sheet for flipping on the long edge, top to bottom for the short edge.

Fonts: DejaVu Sans where the system has it (it covers nearly every Latin
letter), else the Bitstream Vera that ships with reportlab. A character
neither can draw is refused before anything is written, naming the card.
"""
import io
import os
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from propctl.cards.print_layout import WINDOWS, Layout

PAPERS = {"a4": A4, "letter": LETTER}
# Pi mal Daumen cards are not slid into anything: one size, the task cards' default.
QUESTION_CARD = (88.0, 125.0)
BOLT_RED = (0.85, 0.1, 0.1)
FRAME_COLOURS = {"white": (0.75, 0.75, 0.75), "violet": (0.49, 0.3, 0.63)}
FIELD_COLOURS = {"salmon": (0.98, 0.66, 0.56), "green": (0.68, 0.85, 0.45), "yellow": (1.0, 0.88, 0.4)}
# The card's order top to bottom (the rulebook: "the top (salmon-coloured) question").
CARD_COLOURS = ("salmon", "green", "yellow")
MARK_OFFSET = 1.0   # mm between a card's corner and its crop mark
MARK_LENGTH = 5.0   # mm, at most
_FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu", "/usr/local/share/fonts",
              "/Library/Fonts", os.path.expanduser("~/.fonts"), "C:/Windows/Fonts")

WORDS = {
    "en": {"answer": "answer", "scale": "scale", "frame": {"white": "white frame", "violet": "violet frame"},
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
    "de": {"answer": "Antwort", "scale": "Skala",
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


class PrintError(ValueError):
    """The deck cannot be printed as asked; str() says why and what to change."""


class Fonts:
    """The regular and bold font, registered with reportlab once per process."""

    _cache: Dict[str, Tuple[str, str, set]] = {}

    def __init__(self) -> None:
        if "fonts" not in self._cache:
            self._cache["fonts"] = _register()
        self.regular, self.bold, self.chars = self._cache["fonts"]

    def missing(self, text: str) -> str:
        """The characters of `text` the fonts cannot draw ('' if none)."""
        return "".join(sorted(set(c for c in text if ord(c) not in self.chars and c not in "\n")))


def _register() -> Tuple[str, str, set]:
    for folder in _FONT_DIRS:
        regular = os.path.join(folder, "DejaVuSans.ttf")
        bold = os.path.join(folder, "DejaVuSans-Bold.ttf")
        if os.path.isfile(regular) and os.path.isfile(bold):
            break
    else:
        import reportlab
        folder = os.path.join(os.path.dirname(reportlab.__file__), "fonts")
        regular, bold = os.path.join(folder, "Vera.ttf"), os.path.join(folder, "VeraBd.ttf")
    fonts = (TTFont("CardSans", regular), TTFont("CardSans-Bold", bold))
    for font in fonts:
        pdfmetrics.registerFont(font)
    chars = set(fonts[0].face.charToGlyph) & set(fonts[1].face.charToGlyph)
    return "CardSans", "CardSans-Bold", chars


class Sheet:
    """A reportlab canvas addressed in mm from the page's top-left corner."""

    def __init__(self, stream, paper: str, fonts: Fonts, title: str) -> None:
        self.size = PAPERS[paper]
        self.width, self.height = self.size[0] / mm, self.size[1] / mm
        self.canvas = Canvas(stream, pagesize=self.size, pageCompression=1)
        self.canvas.setTitle(title)
        self.canvas.setCreator("propctl cards print")
        self.fonts = fonts
        self.pages = 0

    def y(self, top: float) -> float:
        return (self.height - top) * mm

    def line(self, x1, y1, x2, y2, width=0.25, colour=(0, 0, 0), dash=None) -> None:
        c = self.canvas
        c.setStrokeColorRGB(*colour)
        c.setLineWidth(width)
        c.setDash(dash or [])
        c.line(x1 * mm, self.y(y1), x2 * mm, self.y(y2))

    def rect(self, x, top, w, h, stroke=(0, 0, 0), fill=None, width=0.3, dash=None) -> None:
        c = self.canvas
        c.setLineWidth(width)
        c.setDash(dash or [])
        if stroke is not None:
            c.setStrokeColorRGB(*stroke)
        if fill is not None:
            c.setFillColorRGB(*fill)
        c.rect(x * mm, self.y(top + h), w * mm, h * mm, stroke=int(stroke is not None),
               fill=int(fill is not None))

    def text(self, x, baseline, text, size, bold=False, colour=(0, 0, 0), align="left") -> None:
        c = self.canvas
        c.setFillColorRGB(*colour)
        c.setFont(self.fonts.bold if bold else self.fonts.regular, size)
        draw = {"left": c.drawString, "right": c.drawRightString, "centre": c.drawCentredString}[align]
        draw(x * mm, self.y(baseline), text)

    def width_of(self, text, size, bold=False) -> float:
        return pdfmetrics.stringWidth(text, self.fonts.bold if bold else self.fonts.regular, size) / mm

    def fitted(self, text, width, height, size, smallest, bold=False) -> Tuple[List[str], float]:
        """(lines, font size): `text` wrapped into width x height mm at the largest size from
        `size` down to `smallest` that fits (at `smallest` it may run over: never dropped)."""
        while True:
            lines = simpleSplit(text, self.fonts.bold if bold else self.fonts.regular, size, width * mm)
            if (len(lines) * size * 1.2 / 72 * 25.4 <= height) or size <= smallest:
                return lines, size
            size = max(smallest, size - 0.5)

    def paragraph(self, x, top, width, height, text, size, smallest, bold=False, middle=False,
                  colour=(0, 0, 0)) -> None:
        """Text wrapped into a box (mm); `middle`: centred vertically in it."""
        lines, size = self.fitted(text, width, height, size, smallest, bold)
        leading = size * 1.2 / 72 * 25.4
        used = len(lines) * leading
        first = top + ((height - used) / 2 if middle else 0) + size * 0.95 / 72 * 25.4
        for k, line in enumerate(lines):
            self.text(x, first + k * leading, line, size, bold, colour)

    def next_page(self) -> None:
        self.canvas.showPage()
        self.pages += 1

    def save(self) -> None:
        self.canvas.save()


class Grid:
    """Where the cards of a page go: columns x rows of w x h mm, centred on the sheet."""

    def __init__(self, sheet: Sheet, card: Tuple[float, float], gap: float, margin: float) -> None:
        w, h = card
        self.w, self.h, self.gap = w, h, gap
        self.cols = int((sheet.width - 2 * margin + gap) // (w + gap))
        self.rows = int((sheet.height - 2 * margin + gap) // (h + gap))
        if self.cols < 1 or self.rows < 1:
            raise PrintError("a %g x %g mm card does not fit on a %.0f x %.0f mm sheet with %g mm margins; "
                             "make the card smaller or the margin narrower" % (w, h, sheet.width,
                                                                                sheet.height, margin))
        self.left = (sheet.width - self.cols * w - (self.cols - 1) * gap) / 2
        self.top = (sheet.height - self.rows * h - (self.rows - 1) * gap) / 2
        self.per_page = self.cols * self.rows

    def place(self, k: int, mirror: Optional[str] = None) -> Tuple[float, float]:
        """Top-left corner (mm) of the k-th card of a page; `mirror` "long"/"short" for a back."""
        col, row = k % self.cols, k // self.cols
        if mirror == "long":
            col = self.cols - 1 - col
        elif mirror == "short":
            row = self.rows - 1 - row
        return self.left + col * (self.w + self.gap), self.top + row * (self.h + self.gap)

    def crop_marks(self, sheet: Sheet, count: int, mirror: Optional[str] = None) -> None:
        """Cut marks at every corner of the page's `count` cards, outside the cards, in the gaps."""
        inner = min(MARK_LENGTH, self.gap / 2 - MARK_OFFSET)
        for k in range(count):
            x, top = self.place(k, mirror)
            col = round((x - self.left) / (self.w + self.gap))
            row = round((top - self.top) / (self.h + self.gap))
            room = {"left": inner if col > 0 else MARK_LENGTH, "right": inner if col < self.cols - 1
                    else MARK_LENGTH, "up": inner if row > 0 else MARK_LENGTH,
                    "down": inner if row < self.rows - 1 else MARK_LENGTH}
            for cx, side_x in ((x, "left"), (x + self.w, "right")):
                for cy, side_y in ((top, "up"), (top + self.h, "down")):
                    sx = -1 if side_x == "left" else 1
                    sy = -1 if side_y == "up" else 1
                    if room[side_x] >= 1:
                        start = cx + sx * MARK_OFFSET
                        sheet.line(start, cy, start + sx * room[side_x], cy, width=0.3)
                    if room[side_y] >= 1:
                        start = cy + sy * MARK_OFFSET
                        sheet.line(cx, start, cx, start + sy * room[side_y], width=0.3)


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
                    card.text, 11, 6.5, bold=True)
    room = layout.window_left - layout.statement_left - 2  # mm left of the windows
    for window in range(1, WINDOWS + 1):
        middle = top + layout.window_middle(window)
        sheet.paragraph(x + layout.statement_left, middle - layout.window_pitch / 2, room,
                        layout.window_pitch, card.statements[window - 1], 10, 5.5, middle=True)
        if window - 1 == card.bolt:
            _bolt(sheet, x + layout.window_left, middle - layout.window_height / 2,
                  layout.window_width, layout.window_height)
    label = "%s · %s" % (card.id, card.category)
    below = layout.card_height - (layout.window_middle(WINDOWS) + layout.window_height / 2)
    baseline = top + layout.card_height - 2 if below >= 4 else top + 3
    sheet.text(x + layout.card_width - layout.statement_left, baseline, label, 6, colour=(0.4, 0.4, 0.4),
               align="right")


def _unprintable(fonts: Fonts, kind_name: str, cards) -> None:
    problems = []
    for card in cards:
        texts = [card.text] + list(card.statements) + [card.category] if kind_name == "taskcards" else \
            [t for q in card.questions for t in (q.text, q.unit or "", q.source or "")]
        missing = fonts.missing(" ".join(texts))
        if missing:
            problems.append("card %s: %s" % (card.id, " ".join("%r (U+%04X)" % (c, ord(c)) for c in missing)))
    if problems:
        raise PrintError("the font cannot draw these characters: %s; install the DejaVu fonts "
                         "(e.g. the package fonts-dejavu-core) or change the cards" % "; ".join(problems))


Progress = Optional[Callable[[int, int], None]]


def taskcards_pdf(cards: Sequence, layout: Layout, paper: str,
                  progress: Progress = None) -> Tuple[bytes, int]:
    """(PDF bytes, pages) of the task cards, as many per page as fit, crop marks around each."""
    fonts = Fonts()
    _unprintable(fonts, "taskcards", cards)
    out = io.BytesIO()
    sheet = Sheet(out, paper, fonts, "Finger weg! task cards")
    grid = Grid(sheet, (layout.card_width, layout.card_height), layout.gap, layout.margin)
    for start in range(0, len(cards), grid.per_page):
        page = cards[start:start + grid.per_page]
        for k, card in enumerate(page):
            _task_card(sheet, layout, *grid.place(k), card)
        grid.crop_marks(sheet, len(page))
        sheet.next_page()
        if progress:
            progress(start + len(page), len(cards))
    sheet.save()
    return out.getvalue(), sheet.pages


def _decimal(value, lang: str) -> str:
    from rules.pimaldaumen import decimal_text
    text = decimal_text(value) if not isinstance(value, str) else value
    if lang != "de":
        return text
    whole, _, fraction = text.partition(".")
    sign = "-" if whole.startswith("-") else ""
    digits = whole.lstrip("-")
    if len(digits) > 4:  # German style: 1.050 is 1050, 10.000 ten thousand; four digits stay whole
        digits = ".".join(_groups(digits))
    return sign + digits + ("," + fraction if fraction else "")


def _groups(digits: str) -> List[str]:
    head = len(digits) % 3 or 3
    return [digits[:head]] + [digits[k:k + 3] for k in range(head, len(digits), 3)]


def _scale_text(scale, lang: str) -> str:
    parts = [_decimal(scale[0], lang)]
    for k in range(1, len(scale), 2):
        parts.append("|%d|" % scale[k])
        parts.append(_decimal(scale[k + 1], lang))
    return " ".join(parts)


def _question_side(sheet: Sheet, x: float, top: float, card, lang: str, back: bool) -> None:
    from propctl.cards.questions import SLOTS
    w, h = QUESTION_CARD
    words = WORDS[lang]
    sheet.rect(x, top, w, h, stroke=(0.8, 0.8, 0.8), width=0.2)
    by_slot = dict(zip(SLOTS, card.questions))
    half = (h - 4) / 2
    for f, frame in enumerate(("white", "violet")):
        ftop = top + 2 + f * half
        sheet.rect(x + 2, ftop, w - 4, half - 1, stroke=FRAME_COLOURS[frame], width=2.2)
        sheet.text(x + 5, ftop + 3.6, "%s  %s" % (card.id, words["frame"][frame]), 5.5,
                   colour=(0.35, 0.35, 0.35))
        band = (half - 7) / 3
        for c, colour in enumerate(CARD_COLOURS):
            btop = ftop + 5 + c * band
            sheet.rect(x + 4, btop, w - 8, band - 0.8, stroke=None, fill=FIELD_COLOURS[colour])
            question = by_slot[(frame, colour)]
            if back:
                unit = " (%s)" % question.unit if question.unit else ""
                sheet.paragraph(x + 5.5, btop + 0.8, w - 11, band - 2.4,
                                "%s: %s%s" % (words["answer"], _decimal(question.answer, lang), unit),
                                8, 5.5, bold=True)
                sheet.paragraph(x + 5.5, btop + 5.0, w - 11, band - 6,
                                "%s: %s" % (words["scale"], _scale_text(question.scale, lang)), 7.5, 5)
            else:
                unit = " (%s)" % question.unit if question.unit else ""
                sheet.paragraph(x + 5.5, btop + 0.8, w - 11, band - 2.4, question.text + unit, 8, 5)


def questions_pdf(cards: Sequence, lang: str, paper: str, duplex: str, gap: float, margin: float,
                  progress: Progress = None) -> Tuple[bytes, int]:
    """(PDF bytes, pages): for every sheet of fronts, the page of backs behind it (mirrored for `duplex`)."""
    fonts = Fonts()
    _unprintable(fonts, "questions", cards)
    out = io.BytesIO()
    sheet = Sheet(out, paper, fonts, "Pi mal Daumen question cards")
    grid = Grid(sheet, QUESTION_CARD, gap, margin)
    for start in range(0, len(cards), grid.per_page):
        page = cards[start:start + grid.per_page]
        for back in (False, True):
            mirror = duplex if back else None
            for k, card in enumerate(page):
                _question_side(sheet, *grid.place(k, mirror), card, lang, back)
            grid.crop_marks(sheet, len(page), mirror)
            sheet.next_page()
        if progress:
            progress(start + len(page), len(cards))
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
