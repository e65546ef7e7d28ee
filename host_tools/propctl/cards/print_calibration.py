"""The calibration page: a task card's outline and the fuse box's windows with rulers, which a
builder prints, cuts out and slides into the box's slot to measure the layout (print_layout) with.
"""
import io
from typing import Tuple

from propctl.cards.print_layout import WINDOWS, Layout
from propctl.cards.print_sheet import Fonts, PrintError, Sheet
from propctl.cards.print_taskcards import BOLT_RED

WORDS = {
    "en": {"calibration": "Finger weg! task cards: calibration page",
           "bar": "This bar must measure exactly 100 mm. If not, print at 100 % (\"actual size\", "
                  "no \"fit to page\") and measure again.",
           "steps": ["1. Cut out the card outline (solid line) and slide it into the fuse box's slot "
                     "like a task card.",
                     "2. Each dashed box must show whole in its window. If not, read the rulers: "
                     "card size, top edge to the middle of window 1, middle of window 1 to "
                     "the middle of window 8 divided by 7, windows' left edge and width.",
                     "3. Write what differs into a layout file and print the cards with it:"],
           "now": "This page uses:"},
    "de": {"calibration": "Finger weg! Aufgabenkarten: Kalibrierseite",
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
