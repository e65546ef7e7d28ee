"""`propctl cards print`: a deck as a PDF to print on A4 or Letter and cut out."""
import argparse
import os
import sys

from propctl.atomic import output_problem, write_atomic
from propctl.cards import family, kinds, print_layout
from propctl.cards import lang as langs
from propctl.cards.report import Progress, add_strict, judged, report
from propctl.cards.select import one_deck, select

# reportlab is imported only when a PDF is made: every other propctl command starts without it.
PAPERS = ("a4", "letter")
DUPLEX = ("long", "short")

EPILOG = """\
examples:
  propctl cards print --calibration -o cal.pdf   # 1. print, cut, hold in slot
  propctl cards print --lang de -o karten.pdf    # 2. the German task cards
  propctl cards print --lang de --family -o familie.pdf   # age 10+ cards only
  propctl cards print --layout box.json -o cards.pdf   # with your measurements
  propctl cards print --kind questions --lang de -o fragen.pdf   # duplex

Print at 100 %% ("actual size"), never "fit to page": the calibration page has a
100 mm bar to check. Task cards come with backs (category name and colour, for
drawing blind from a category's stack) on every second page, mirrored for
duplex; --blank-backs prints the fronts only. Question cards are double-sided, one frame a side (the
questioner reads from the back, so players never see the asked side): pairs of
pages, white sides then violet sides, mirrored so they line up when printed
duplex (--duplex long: flip on the long edge, the usual setting; short: short
edge).
A layout file is JSON with lengths in mm, e.g. {"first_window": 41.5}; keys:
  %s
docs/cards-print.md explains each length with a picture.
Exit codes: 0 written, 1 problems (nothing written), 2 bad command line.
""" % "\n  ".join(", ".join(list(print_layout.FIELDS)[k:k + 4])
                   for k in range(0, len(print_layout.FIELDS), 4))


def register(sub) -> None:
    """Add `propctl cards print` to the `cards` actions."""
    parser = sub.add_parser(
        "print", help="write a print-ready PDF of a deck (crop marks, A4/Letter)",
        description="Check a deck and write it as a PDF to print and cut: task cards with the "
                    "statements beside the fuse box's windows and the bolt where only its window "
                    "shows it; question cards with one frame a side, for duplex printing.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*", metavar="FILE",
                        help="CSV or JSON card files of one kind (none: the shipped task cards, "
                             "or with --kind questions the shipped questions)")
    parser.add_argument("-o", "--output", required=True, metavar="CARDS.pdf", help="the PDF to write")
    parser.add_argument("--kind", choices=kinds.names(), help="card kind, if the files do not say")
    add_strict(parser)
    langs.add_argument(parser, "the deck and the page's words")
    parser.add_argument("--paper", choices=sorted(PAPERS), default="a4", help="sheet size (default: a4)")
    parser.add_argument("--layout", metavar="FILE",
                        help="JSON file with the slot's measurements in mm (default: built-in values)")
    parser.add_argument("--calibration", action="store_true",
                        help="write only the calibration page: card outline, window boxes, rulers")
    parser.add_argument("--duplex", choices=DUPLEX, default="long",
                        help="the edge the printer flips on (default: long); the backs are "
                             "mirrored for it")
    parser.add_argument("--blank-backs", action="store_true",
                        help="task cards: no back pages (one-sided; default: a back with the "
                             "category's name and colour behind each front)")
    parser.add_argument("--family", action="store_true",
                        help="only the family cards (age 10+; column family yes)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress or summary")
    parser.set_defaults(func=run_print)


def _say(args, text: str) -> None:
    if not args.quiet:
        print(text, file=sys.stderr)


def run_print(args) -> int:
    """`propctl cards print`."""
    if not args.output.lower().endswith(".pdf"):
        print("-o %s: the output is a PDF; name it something.pdf" % args.output, file=sys.stderr)
        return 2
    target = os.path.realpath(args.output)
    if any(os.path.realpath(f) == target for f in args.files + ([args.layout] if args.layout else [])):
        print("-o %s would overwrite one of your input files; choose another name" % args.output,
              file=sys.stderr)
        return 2
    problem = output_problem(args.output)  # before the layout: a deck takes a while to lay out
    if problem:
        print("cannot write %s: %s; nothing written" % (args.output, problem), file=sys.stderr)
        return 1
    try:
        layout = print_layout.load(args.layout) if args.layout else print_layout.defaults()
    except print_layout.LayoutError as exc:
        print("%s; nothing written" % exc, file=sys.stderr)
        return 1
    from propctl.cards.print_calibration import calibration_pdf
    from propctl.cards.print_sheet import PrintError
    lang = langs.chosen(args)
    try:
        if args.calibration:
            data, pages = calibration_pdf(layout, args.paper, lang)
            what = "calibration page"
        else:
            made = _deck_pdf(args, layout)
            if made is None:
                return 1
            data, pages, what = made
    except PrintError as exc:
        print("%s; nothing written" % exc, file=sys.stderr)
        return 1
    try:
        write_atomic(args.output, data)
    except OSError as exc:
        print("cannot write %s: %s; nothing written" % (args.output, exc.strerror or exc), file=sys.stderr)
        return 1
    if not args.quiet:
        print("%s: %s, %d page%s (%s), %d bytes; print at 100 %%" % (
            args.output, what, pages, "" if pages == 1 else "s", args.paper.upper() if args.paper == "a4"
            else args.paper.capitalize(), len(data)))
    return 0


def _deck_pdf(args, layout):
    """(data, pages, what) for the chosen deck, or None after reporting its problems."""
    from propctl.cards.print_pdf import questions_pdf, taskcards_pdf
    selection = select(args.files, args.kind or (None if args.files else "taskcards"), args.lang)
    deck = one_deck(selection)
    if report(judged(selection, deck), args.strict, args.all) or deck.kind is None:
        print("nothing written", file=sys.stderr)
        return None
    lang = selection.lang or langs.chosen(args)
    cards = family.only(deck.cards) if args.family else deck.cards
    if not cards:
        print("--family: the deck has no family cards (family: yes); nothing written", file=sys.stderr)
        return None
    total = len(cards)

    counter = Progress(total)

    def progress(done, whole):
        if not args.quiet:
            counter(done, "laid out")

    _say(args, "laying out %d %s on %s" % (total, deck.kind.TITLE, args.paper))
    if deck.kind.NAME == "taskcards":
        data, pages = taskcards_pdf(cards, layout, args.paper, progress,
                                    None if args.blank_backs else args.duplex)
    else:
        data, pages = questions_pdf(cards, lang if lang in ("de", "en") else "en", args.paper,
                                    args.duplex, layout.gap, layout.margin, progress)
    return data, pages, "%d %s" % (total, deck.kind.TITLE)
