"""Where things sit on a printed task card: the fuse box's slot, measured once.

All lengths in millimetres, measured on the card as it lies in the slot,
printed side up, task text at the top (docs/cards-print.md shows each one).
A layout file is a JSON object with any of the keys below; keys left out keep
their defaults, so a builder writes only what the calibration page made them
measure:

    {"card_width": 88, "card_height": 125, "first_window": 40, "window_pitch": 10}

The defaults are a starting point, not a measurement of the original box
(its card size is not in any document we have): print the calibration page
(`propctl cards print --calibration`), hold it against the slot, write what
the rulers say into the file and print again.
"""
from typing import Dict, Iterable, Tuple

from propctl.inputfile import InputFileError, read_json

# name: (default, smallest, largest, what it is) -- the help text and the docs use the last field.
FIELDS: Dict[str, Tuple[float, float, float, str]] = {
    "card_width": (88.0, 40.0, 200.0, "width of the card"),
    "card_height": (125.0, 60.0, 270.0, "height of the card"),
    "text_top": (5.0, 0.0, 100.0, "card top edge to the top of the task text"),
    "text_height": (24.0, 5.0, 150.0, "height of the task text's box"),
    "first_window": (40.0, 5.0, 260.0, "card top edge to the middle of window 1"),
    "window_pitch": (10.0, 3.0, 40.0, "middle of one window to the middle of the next"),
    "window_height": (7.0, 2.0, 40.0, "height of a window's opening"),
    "window_left": (66.0, 0.0, 190.0, "card left edge to the left side of the windows"),
    "window_width": (14.0, 3.0, 100.0, "width of a window's opening"),
    "statement_left": (5.0, 0.0, 190.0, "card left edge to the start of the statements"),
    "gap": (8.0, 0.0, 40.0, "space between cards on the sheet (the crop marks sit in it)"),
    "margin": (10.0, 3.0, 40.0, "page edge to the cards (printers leave about 5 mm blank)"),
}
WINDOWS = 8
MAX_LAYOUT_BYTES = 64 * 1024


class LayoutError(ValueError):
    """A layout that cannot be printed; str() names the key and what is allowed."""


class Layout:
    """The measured geometry of a task card (attributes named as in FIELDS, in mm)."""

    def __init__(self, values: Dict[str, float]) -> None:
        for name in FIELDS:
            setattr(self, name, float(values[name]))

    card_width: float
    card_height: float
    text_top: float
    text_height: float
    first_window: float
    window_pitch: float
    window_height: float
    window_left: float
    window_width: float
    statement_left: float
    gap: float
    margin: float

    def window_middle(self, window: int) -> float:
        """Card top edge to the middle of window `window` (1..8, as printed on the box)."""
        return self.first_window + (window - 1) * self.window_pitch

    def as_dict(self) -> Dict[str, float]:
        return dict((name, getattr(self, name)) for name in FIELDS)


def defaults() -> Layout:
    return Layout(dict((name, spec[0]) for name, spec in FIELDS.items()))


def from_values(values: dict, where: str = "the layout") -> Layout:
    """A Layout from the defaults overridden by `values`; LayoutError for every problem at once."""
    if not isinstance(values, dict):
        raise LayoutError("%s must be a JSON object of lengths in mm, e.g. {\"card_width\": 88}" % where)
    problems = []
    merged = dict((name, spec[0]) for name, spec in FIELDS.items())
    for name, value in values.items():
        if name not in FIELDS:
            problems.append("%r is not a layout key; allowed: %s" % (name, ", ".join(FIELDS)))
            continue
        low, high = FIELDS[name][1:3]
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            problems.append("%s: %r is not a number of millimetres" % (name, value))
        elif not low <= value <= high:
            problems.append("%s: %s mm is outside %g..%g mm" % (name, value, low, high))
        else:
            merged[name] = float(value)
    if not problems:
        problems.extend(_fits(merged))
    if problems:
        raise LayoutError("%s: %s" % (where, "; ".join(problems)))
    return Layout(merged)


def _fits(v: Dict[str, float]) -> Iterable[str]:
    """What does not fit on the card: windows, text and statements must stay inside it."""
    last = v["first_window"] + (WINDOWS - 1) * v["window_pitch"] + v["window_height"] / 2
    if last > v["card_height"]:
        yield ("window 8 ends %.1f mm below the card top (first_window + 7 x window_pitch + "
               "window_height / 2) but the card is %g mm high" % (last, v["card_height"]))
    if v["window_height"] > v["window_pitch"]:
        yield "window_height %g mm is more than window_pitch %g mm: windows would overlap" % (
            v["window_height"], v["window_pitch"])
    if v["window_left"] + v["window_width"] > v["card_width"]:
        yield "the windows end at %g mm (window_left + window_width), beyond card_width %g mm" % (
            v["window_left"] + v["window_width"], v["card_width"])
    if v["statement_left"] + 10 > v["window_left"]:
        yield "statement_left %g mm leaves less than 10 mm for a statement before window_left %g mm" % (
            v["statement_left"], v["window_left"])
    top_window = v["first_window"] - v["window_height"] / 2
    if v["text_top"] + v["text_height"] > top_window:
        yield ("the task text ends at %g mm (text_top + text_height), below the top of window 1 "
               "at %g mm" % (v["text_top"] + v["text_height"], top_window))


def load(path) -> Layout:
    """The layout in the JSON file `path`; LayoutError saying what is wrong and where."""
    try:
        values = read_json(path, MAX_LAYOUT_BYTES)
    except InputFileError as exc:
        raise LayoutError("layout %s %s" % (path, exc)) from None
    return from_values(values, "layout %s" % path)
