"""`propctl cards check|pack|show`: card decks from CSV/JSON to a board's binary pack."""
import argparse
import functools
import json
import os
import sys

from propctl.atomic import write_atomic
from propctl.cards import family, kinds
from propctl.cards import lang as langs
from propctl.cards.container import pack_chunks
from propctl.cards.load import load_deck
from propctl.cards.report import Progress, add_strict, judged, report
from propctl.cards.select import one_deck, select
from propctl.inputfile import InputFileError, open_regular
from propctl.shared.cardpack import Pack, PackError
from propctl.termsafe import printable
from propctl.termtext import cells, cut

# Decks at least this big report progress while packing.
PROGRESS_FROM = 1000

EPILOG = """\
examples:
  propctl cards check --lang de                # the shipped German decks
  propctl cards check mydeck.en.csv more.en.json   # one deck per kind
  propctl cards pack --lang de -o taskcards.bin    # shipped German task cards
  propctl cards pack mydeck.en.csv -o taskcards.bin
  propctl cards pack --lang de --family -o family.bin   # age 10+ cards only
  propctl cards show taskcards.bin             # list every card
  propctl cards show taskcards.bin GEO-01      # one card, bolt marked
  propctl cards show --lang en GEO-01          # a card of the shipped deck
  propctl cards print --lang de -o karten.pdf  # German task cards to print
  propctl cards print --calibration -o cal.pdf # measure the box's slot first

The kind of cards comes from the CSV header or the JSON "kind" key; --kind
overrides it. A file's name may say its language (deck.de.csv); a deck and a
pack hold one language. `check` and `pack` also judge the content (wording,
order of statements, sources, scales, facts used twice: propctl.cards.quality).
Two levels: errors are what the box or game cannot play (a missing or bad bolt,
a bad or duplicate id, a card too large): `pack` and `print` refuse them.
Warnings are the house rules the shipped decks keep (family share, sources,
as-of dates, notes, the wording "Keep your fingers off", spread of the bolts,
statements in order): reported for any deck, failing only with --strict. A rule
broken on several cards is one line ("warning: no source on 12 cards (lines
2-13)"); --all (and --strict) list each warning on its own line.
Exit codes: 0 fine (warnings allowed), 1 errors found (or warnings with
--strict; nothing written), 2 bad command line.
docs/cards.md describes the formats.
"""


def _quiet_on_broken_pipe(run):
    """`propctl cards show x.bin | head`: a reader that stops early is not an error."""
    @functools.wraps(run)
    def wrapper(args) -> int:
        try:
            code = run(args)
            sys.stdout.flush()
            return code
        except BrokenPipeError:
            try:  # the interpreter flushes stdout once more at exit: point it at nothing
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            except (OSError, ValueError):
                pass
            return 0
    return wrapper


def register(subparsers) -> None:
    """Add `propctl cards` and its subcommands."""
    parser = subparsers.add_parser(
        "cards", help="check, pack, show and print card decks (CSV/JSON -> pack, PDF)",
        description="Card decks: humans edit CSV or JSON; `check` lists every problem, `pack` "
                    "writes the compact binary deck a board reads one card at a time, `show` "
                    "prints cards from a pack, `print` makes a PDF to print and cut.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(title="actions", metavar="ACTION")
    _register_check(sub)
    _register_pack(sub)
    _register_show(sub)
    from propctl.cards import print_cli
    print_cli.register(sub)

    parser.set_defaults(func=lambda args: _usage(parser))


def _kind_help() -> str:
    return "card kind, if the files do not say (%s)" % ", ".join(kinds.names())


def _register_check(sub) -> None:
    """`propctl cards check`: every problem in card files."""
    check = sub.add_parser(
        "check", help="report every problem in card files",
        description="Read the files as one deck per kind (no files: the shipped decks of --lang) "
                    "and report every problem, errors and house-rule warnings, in one run: file, "
                    "line, card, field, what is wrong and what is allowed, sorted by line and "
                    "field. A house rule broken on several cards is one line with their count "
                    "and lines; --all or --strict lists each. Exit 1 on errors (with --strict "
                    "also on warnings), else 0.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    check.add_argument("files", nargs="*", metavar="FILE",
                       help="CSV or JSON card files (none: the decks shipped with propctl)")
    check.add_argument("--kind", choices=kinds.names(), help=_kind_help())
    add_strict(check)
    langs.add_argument(check, "the decks")
    check.set_defaults(func=run_check)


def _register_pack(sub) -> None:
    """`propctl cards pack`: the binary pack a board reads."""
    pack = sub.add_parser(
        "pack", help="write a binary pack for a board",
        description="Check the files and, only if they have no errors (house-rule warnings are "
                    "shown; --strict refuses on them too), write the binary pack atomically (a "
                    "failure leaves no file and no half file).",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    pack.add_argument("files", nargs="*", metavar="FILE",
                      help="CSV or JSON card files of one kind (none: the shipped task cards, "
                           "or with --kind questions the shipped questions)")
    pack.add_argument("-o", "--output", required=True, metavar="DECK.bin", help="the pack to write")
    pack.add_argument("--kind", choices=kinds.names(), help=_kind_help())
    add_strict(pack)
    langs.add_argument(pack, "the deck")
    pack.add_argument("--family", action="store_true",
                      help="only the family cards (age 10+): CSV column family yes, JSON "
                           "\"family\": true")
    pack.add_argument("-q", "--quiet", action="store_true", help="no progress or summary")
    pack.set_defaults(func=run_pack)


def _register_show(sub) -> None:
    """`propctl cards show`: a card (or the list) from a pack."""
    show = sub.add_parser(
        "show", help="print a card (or list all) from a pack",
        description="Verify a pack and print the card with the given id, or list every card: one "
                    "line each, cut to 80 columns (give its ID for the whole card).",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    show.add_argument("pack", nargs="?", metavar="DECK.bin",
                      help="a pack written by `propctl cards pack` (with --lang: leave out to show "
                           "the shipped deck)")
    show.add_argument("id", nargs="?", metavar="ID",
                      help="the card id; leave out to list all cards (a line each, at most 80 columns)")
    show.add_argument("--json", action="store_true", help="print in the JSON file format")
    show.add_argument("--kind", choices=kinds.names(), default="taskcards",
                      help="with --lang: which shipped deck (default: taskcards)")
    langs.add_argument(show, "the shipped deck to show instead of a pack")
    show.set_defaults(func=run_show)


def _usage(parser) -> int:
    parser.print_help(sys.stderr)
    return 2


@_quiet_on_broken_pipe
def run_check(args) -> int:
    """`propctl cards check`: every problem, including every limit `pack` enforces."""
    selection = select(args.files, args.kind, args.lang)
    problems = judged(selection)
    if report(problems, args.strict, args.all) or any(deck.kind is None for deck in selection.decks):
        return 1
    for deck in selection.decks:
        assert deck.kind is not None
        print("%d %s%s: %s" % (len(deck.records), deck.kind.TITLE,
                               " (%s)" % selection.lang if selection.lang else "",
                               "no errors, house-rule warnings above" if problems else "no problems"))
    return 0


@_quiet_on_broken_pipe
def run_pack(args) -> int:
    """`propctl cards pack`."""
    target = os.path.realpath(args.output)
    if any(os.path.realpath(f) == target for f in args.files):
        print("-o %s would overwrite a card file you are packing; choose another name" % args.output,
              file=sys.stderr)
        return 2
    selection = select(args.files, args.kind or (None if args.files else "taskcards"), args.lang)
    deck = one_deck(selection)
    if report(judged(selection, deck), args.strict, args.all) or deck.kind is None:
        print("nothing written", file=sys.stderr)
        return 1
    kind, records = deck.kind, deck.records
    if getattr(args, "family", False):
        records = [records[i] for i, card in enumerate(deck.cards) if family.is_family(card)]
        if not records:
            print("--family: the deck has no family cards (family: yes); nothing written",
                  file=sys.stderr)
            return 1
    total = len(records)
    progress = None if args.quiet or total < PROGRESS_FROM else Progress(total)
    pieces = pack_chunks(kind.CODE, kind.VERSION, records,
                         None if progress is None else lambda done, _: progress(done, "packing"))
    size = 0

    def counted():
        nonlocal size
        for piece in pieces:
            size += len(piece)
            yield piece

    try:
        write_atomic(args.output, counted())
    except OSError as exc:
        print("cannot write %s: %s; nothing written" % (args.output, exc.strerror or exc), file=sys.stderr)
        return 1
    if progress is not None:
        progress.done()
    if not args.quiet:
        print("%s: %d %s, %d bytes" % (args.output, total, kind.TITLE, size))
    return 0


# Shown as \u escapes: a terminal obeys control characters (a pack may come from anywhere).
_safe = printable

LIST_WIDTH = 80  # a listed card is one line of a standard terminal; `show PACK ID` gives it whole


def _list_line(kind, card) -> str:
    """One card for the list: its first two lines (id, category or first question), cut to
    LIST_WIDTH columns (a CJK letter takes two)."""
    line = _safe("  ".join(kind.describe(card).splitlines()[:2]))
    return line if cells(line) <= LIST_WIDTH else cut(line, LIST_WIDTH - 3).rstrip() + "..."


@_quiet_on_broken_pipe
def run_show(args) -> int:
    """`propctl cards show`."""
    if args.lang and (args.pack is None or (args.id is None and not os.path.exists(args.pack))):
        return _show_shipped(args, args.pack)
    if args.pack is None:
        print("show needs a pack file, or --lang for the shipped deck", file=sys.stderr)
        return 2
    try:
        with open_regular(args.pack) as stream:
            pack = Pack(stream)
            pack.verify(chunk=64 * 1024)
            kind = kinds.by_code(pack.kind)
            if kind is None:
                raise PackError("holds records of kind %s, which propctl does not know" % pack.kind)
            if pack.kind_version != kind.VERSION:
                raise PackError("holds %s in layout version %d; this propctl reads version %d"
                                % (kind.TITLE, pack.kind_version, kind.VERSION))
            cards = [kind.decode(pack.record(k)) for k in range(len(pack))]
    except (InputFileError, PackError) as exc:
        print("%s: %s" % (args.pack, exc), file=sys.stderr)
        return 1
    except OSError as exc:
        print("%s: cannot be read: %s" % (args.pack, exc.strerror or exc), file=sys.stderr)
        return 1
    if args.id is None:
        for card in cards:
            print(_list_line(kind, card) if not args.json
                  else _safe(json.dumps(kind.to_json(card), ensure_ascii=False)))
        return 0
    for card in cards:
        if kind.key(card) == args.id:
            if args.json:
                print(_safe(json.dumps(kind.to_json(card), ensure_ascii=False, indent=2)))
            else:
                print(_safe(kind.describe(card)))
            return 0
    print("%s: no card with id %s (%d cards; `propctl cards show %s` lists them)"
          % (args.pack, _safe(repr(args.id)), len(cards), args.pack), file=sys.stderr)
    return 1


def _show_shipped(args, card_id) -> int:
    deck = load_deck([str(langs.shipped(args.kind, args.lang))], args.kind)
    kind = deck.kind
    if report(deck.problems) or kind is None:
        return 1
    for card in deck.cards:
        if card_id is None:
            print(_list_line(kind, card) if not args.json
                  else _safe(json.dumps(kind.to_json(card), ensure_ascii=False)))
        elif kind.key(card) == card_id:
            print(_safe(json.dumps(kind.to_json(card), ensure_ascii=False, indent=2) if args.json
                        else kind.describe(card)))
            return 0
    if card_id is None:
        return 0
    print("the shipped %s deck has no card with id %s" % (args.lang, _safe(repr(card_id))),
          file=sys.stderr)
    return 1
