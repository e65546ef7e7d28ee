"""`propctl cards check|pack|show`: card decks from CSV/JSON to a board's binary pack."""
import argparse
import functools
import json
import os
import re
import sys

from cardpack import Pack, PackError
from propctl.atomic import write_atomic
from propctl.cards import kinds
from propctl.cards.container import pack_chunks
from propctl.cards.load import Deck, load_deck
from propctl.inputfile import InputFileError, open_regular

# Decks at least this big report progress while packing.
PROGRESS_FROM = 1000

EPILOG = """\
examples:
  propctl cards check host_tools/propctl/data/decks/taskcards.csv
  propctl cards check extra.json more.csv            # several files form one deck
  propctl cards pack host_tools/propctl/data/decks/taskcards.csv -o taskcards.bin
  propctl cards show taskcards.bin                   # list every card
  propctl cards show taskcards.bin GEO-01            # print one card, bolt marked

The kind of cards comes from the CSV header or the JSON "kind" key; --kind
overrides it. Exit codes: 0 fine, 1 problems found (nothing written),
2 bad command line. README.md, section "Card decks", describes the formats.
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
        "cards", help="check, pack and show card decks (CSV/JSON -> binary pack)",
        description="Card decks: humans edit CSV or JSON; `check` lists every problem, `pack` "
                    "writes the compact binary deck a board reads one card at a time, `show` "
                    "prints cards from a pack.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(title="actions", metavar="ACTION")
    kind_help = "card kind, if the files do not say (%s)" % ", ".join(kinds.names())

    check = sub.add_parser(
        "check", help="report every problem in card files",
        description="Read the files as one deck and report every problem: file, line, card, "
                    "field, what is wrong and what is allowed. Exit 1 if any, 0 if clean.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    check.add_argument("files", nargs="+", metavar="FILE", help="CSV or JSON card files")
    check.add_argument("--kind", choices=kinds.names(), help=kind_help)
    check.set_defaults(func=run_check)

    pack = sub.add_parser(
        "pack", help="write a binary pack for a board",
        description="Check the files and, only if they are clean, write the binary pack "
                    "atomically (a failure leaves no file and no half file).",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    pack.add_argument("files", nargs="+", metavar="FILE", help="CSV or JSON card files")
    pack.add_argument("-o", "--output", required=True, metavar="DECK.bin", help="the pack to write")
    pack.add_argument("--kind", choices=kinds.names(), help=kind_help)
    pack.add_argument("-q", "--quiet", action="store_true", help="no progress or summary")
    pack.set_defaults(func=run_pack)

    show = sub.add_parser(
        "show", help="print a card (or list all) from a pack",
        description="Verify a pack and print the card with the given id, or list every card.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    show.add_argument("pack", metavar="DECK.bin", help="a pack written by `propctl cards pack`")
    show.add_argument("id", nargs="?", metavar="ID", help="the card id; leave out to list all cards")
    show.add_argument("--json", action="store_true", help="print in the JSON file format")
    show.set_defaults(func=run_show)

    parser.set_defaults(func=lambda args: _usage(parser))


def _usage(parser) -> int:
    parser.print_help(sys.stderr)
    return 2


def _report(deck: Deck) -> int:
    for problem in deck.problems:
        print(problem)
    if deck.problems:
        print("%d problem%s found" % (len(deck.problems), "" if len(deck.problems) == 1 else "s"),
              file=sys.stderr)
        return 1
    return 0


@_quiet_on_broken_pipe
def run_check(args) -> int:
    """`propctl cards check`: every problem, including every limit `pack` enforces."""
    deck = load_deck(args.files, args.kind)
    if _report(deck) or deck.kind is None:
        return 1
    print("%d %s: no problems" % (len(deck.records), deck.kind.TITLE))
    return 0


@_quiet_on_broken_pipe
def run_pack(args) -> int:
    """`propctl cards pack`."""
    target = os.path.realpath(args.output)
    if any(os.path.realpath(f) == target for f in args.files):
        print("-o %s would overwrite a card file you are packing; choose another name" % args.output,
              file=sys.stderr)
        return 2
    deck = load_deck(args.files, args.kind)
    if _report(deck) or deck.kind is None:
        print("nothing written", file=sys.stderr)
        return 1
    kind, total = deck.kind, len(deck.records)
    progress = None if args.quiet or total < PROGRESS_FROM else _Progress(total)
    pieces = pack_chunks(kind.CODE, kind.VERSION, deck.records,
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
_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f]")


def _safe(text: str) -> str:
    return _CONTROL.sub(lambda m: "\\u%04x" % ord(m.group()), text)


@_quiet_on_broken_pipe
def run_show(args) -> int:
    """`propctl cards show`."""
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
            print(_safe("  ".join(kind.describe(card).splitlines()[:2]) if not args.json
                        else json.dumps(kind.to_json(card), ensure_ascii=False)))
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


class _Progress:
    """Progress on stderr in 10 % steps (a line each, so logs stay readable)."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.next = total // 10

    def __call__(self, done: int, what: str) -> None:
        if done >= self.next:
            print("  %s %d/%d cards (%d%%)" % (what, done, self.total, 100 * done // self.total),
                  file=sys.stderr)
            self.next = done + max(1, self.total // 10)

    def done(self) -> None:
        print("  written", file=sys.stderr)
