"""A PDF page of cards (reportlab): the fonts, the sheet, the grid of cards with their crop marks.

What every printed deck shares; the cards themselves are drawn by print_taskcards and
print_questions, and put on pages by print_pdf.
"""
import os
from typing import Dict, List, Optional, Tuple

from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from propctl.cards.print_text import fit

PAPERS = {"a4": A4, "letter": LETTER}
MARK_OFFSET = 1.0   # mm between a card's corner and its crop mark
MARK_LENGTH = 5.0   # mm, at most
_FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu", "/usr/local/share/fonts",
              "/Library/Fonts", os.path.expanduser("~/.fonts"), "C:/Windows/Fonts")


class PrintError(ValueError):
    """The deck cannot be printed as asked; str() says why and what to change."""


class TextDoesNotFit(PrintError):
    """A text cannot fit its box at the smallest size, even broken at syllables."""


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
    """DejaVu Sans from the first folder whose pair reads as TrueType, else reportlab's Vera.

    A damaged or foreign file under the right name (a truncated download, an OpenType font in
    ~/.fonts) is passed over for the next candidate, never a traceback; if no pair reads,
    PrintError says so in one line."""
    import reportlab
    vera = os.path.join(os.path.dirname(reportlab.__file__), "fonts")
    candidates = [(os.path.join(folder, "DejaVuSans.ttf"), os.path.join(folder, "DejaVuSans-Bold.ttf"))
                  for folder in _FONT_DIRS]
    candidates.append((os.path.join(vera, "Vera.ttf"), os.path.join(vera, "VeraBd.ttf")))
    tried = []
    for regular, bold in candidates:
        if not (os.path.isfile(regular) and os.path.isfile(bold)):
            continue
        try:
            fonts = (TTFont("CardSans", regular), TTFont("CardSans-Bold", bold))
        except Exception as exc:  # reportlab's TTFError, or OSError: a file that is no font
            tried.append("%s (%s)" % (regular, str(exc).splitlines()[0] if str(exc) else type(exc).__name__))
            continue
        for font in fonts:
            pdfmetrics.registerFont(font)
        chars = set(fonts[0].face.charToGlyph) & set(fonts[1].face.charToGlyph)
        return "CardSans", "CardSans-Bold", chars
    raise PrintError("no font to print with: %s; install the DejaVu fonts (e.g. the package "
                     "fonts-dejavu-core) or reinstall reportlab"
                     % ("; ".join(tried) if tried else "neither DejaVu Sans nor reportlab's Vera found"))


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

    def fitted(self, text, width, height, size, smallest, bold=False, what="a text"
               ) -> Tuple[List[str], float]:
        """(lines, font size): `text` in width x height mm at the largest size from `size` down to
        `smallest`, wrapped at spaces, then also at syllables (propctl.cards.print_text);
        TextDoesNotFit naming `what` if it cannot fit: text never runs out of its box."""
        font = self.fonts.bold if bold else self.fonts.regular
        found = fit(text, width, height, size, smallest,
                    lambda line, at: pdfmetrics.stringWidth(line, font, at) / mm)
        if found is None:
            shown = text if len(text) <= 40 else text[:37] + "..."
            raise TextDoesNotFit("%s does not fit its %.0f x %.0f mm box even at %g pt and broken "
                                 "at syllables: %r; shorten it" % (what, width, height, smallest, shown))
        return found

    def paragraph(self, x, top, width, height, text, size, smallest, bold=False, middle=False,
                  colour=(0, 0, 0), what="a text") -> None:
        """Text wrapped into a box (mm); `middle`: centred vertically in it."""
        lines, size = self.fitted(text, width, height, size, smallest, bold, what)
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
