"""A Finger weg! task card drawn on the sheet: its front and its back.

The front: the task text at the top, the eight statements level with the fuse box's eight
windows, and the red bolt only inside the bolt window's opening, so the box shows it only when
that slider opens; the geometry comes from a Layout (print_layout). The back: the category's name
on the category's colour, for the rulebook's seven face-down stacks. print_pdf puts the cards on
pages.
"""
from typing import Sequence

from reportlab.lib.units import mm

from propctl.cards.print_layout import WINDOWS, Layout
from propctl.cards.print_sheet import Sheet

BOLT_RED = (0.85, 0.1, 0.1)


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


def task_front(sheet: Sheet, layout: Layout, x: float, top: float, card) -> None:
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


def task_back(sheet: Sheet, layout: Layout, x: float, top: float, card, colour) -> None:
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

