"""Print-ready PDF of a deck (reportlab): cards on A4 or Letter with crop marks, fronts and backs.

Task cards (Finger weg!, drawn by print_taskcards): each page of fronts is followed by its page
of backs, mirrored for duplex like the question cards; or none (blank backs). Question cards (Pi
mal Daumen, drawn by print_questions): each page of white-frame sides is followed by its violet
sides, mirrored so that, printed duplex, each lands behind its white side: across the sheet for
flipping on the long edge, top to bottom for the short edge.

Fonts: DejaVu Sans where the system has it (it covers nearly every Latin letter), else the
Bitstream Vera that ships with reportlab. A deck is refused before anything is written when a
character neither can draw or a text that reads right to left is on it, naming the cards; every
text that does not fit its place is named at the end. The page itself (fonts, sheet, the grid
with crop marks) is print_sheet; the calibration page is print_calibration.
"""
import io
from typing import Callable, List, Optional, Sequence, Tuple

from propctl.cards.print_layout import Layout
from propctl.cards.print_questions import QUESTION_CARD, question_side
from propctl.cards.print_sheet import Fonts, Grid, PrintError, Sheet, TextDoesNotFit
from propctl.cards.print_taskcards import category_colours, task_back, task_front
from propctl.cards.print_text import right_to_left


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
            _each(unfit, task_front, sheet, layout, *grid.place(k), card)
        grid.crop_marks(sheet, len(page))
        sheet.next_page()
        if duplex is not None:
            for k, card in enumerate(page):
                _each(unfit, task_back, sheet, layout, *grid.place(k, duplex), card,
                      colours[card.category])
            grid.crop_marks(sheet, len(page), duplex)
            sheet.next_page()
        if progress:
            progress(start + len(page), len(cards))
    _refuse(unfit)
    sheet.save()
    return out.getvalue(), sheet.pages


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
                _each(unfit, question_side, sheet, *grid.place(k, mirror), card, lang, frame)
            grid.crop_marks(sheet, len(page), mirror)
            sheet.next_page()
        if progress:
            progress(start + len(page), len(cards))
    _refuse(unfit)
    sheet.save()
    return out.getvalue(), sheet.pages
