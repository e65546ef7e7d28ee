"""`propctl deploy`: put the firmware (or a card deck) on a board, copying only what changed.

Steps: compile the firmware with mpy-cross for the board's architecture;
ask a running prop over the link to reboot into maintenance (prop and
watchdog off); enter the raw REPL with mpremote's transport; compare with the
board's record of what it holds (/.deploy.json: path -> sha256, size); copy
only new or changed files, remove files an earlier deploy put there that the
firmware no longer has; write config.json (prop, board, --set values); clear
the safe-mode count; reset; wait until the prop runs past its boot guard.

It refuses (non-zero exit, nothing removed) a firmware tree that compiled to
nothing or lacks main.py or the prop, a --set the firmware would not take, a
board whose MicroPython or chip does not fit --board, and a --cards file that
is not a sound card pack. A board that ends up in safe mode or keeps crashing
is a failed deploy.

This module holds the copy plan, the config and the command; the board's end
(link, file transport, modes, card checks) is propctl.serial_link. Writing a board's
flash has rules; each step of `_to_board` below keeps one and says which.
"""
import contextlib
import json
import sys
import tempfile
from pathlib import Path

from propctl.build import BOARD_ARCH, FIRMWARE_DIR, PROPS, build_tree, is_firmware_tree
from propctl.overrides import combine, parse_sets
from propctl.progress import end_progress, progress_line
from propctl.serial_link import BoardError
from propctl.serial_link.cards import card_destination, check_pack, read_cards
from propctl.serial_link.files import CONFIG, RECORD, record_entry, record_text
from propctl.serial_link.flash import write_board
from propctl.serial_link.ports import add_port_option
from propctl.serial_link.session import confirm_running
from propctl.termsafe import printable

# Never copied to a board: the freeze manifest is for building firmware images.
HOST_ONLY = {"manifest.py"}


class DeployUsageError(BoardError):
    """The command line asks for something the firmware would not take (exit 2); the board was not touched."""


class DeployInterrupted(BoardError):
    """Ctrl-C: the message says what state the board was left in and what to do (exit 130)."""


# What a Ctrl-C leaves, by the step it came in.
INTERRUPTED_LOCAL = "interrupted before the board was touched: it runs as before"
INTERRUPTED_COPYING = (
    "interrupted while deploying to %s: the board may hold part of the new files and no prop "
    "runs (it is in maintenance mode, or at its REPL). Run the same deploy again: it copies what "
    "is missing, writes config.json and starts the prop")
INTERRUPTED_DRY_RUN = (
    "interrupted during the dry run on %s: nothing was copied, but no prop runs (the board is in "
    "maintenance mode, or at its REPL). Run the dry run again to its end, or the deploy, and the "
    "board restarts its prop")
INTERRUPTED_WAITING = (
    "interrupted while waiting for the board: every file was copied and the board was reset; "
    "`propctl monitor --port %s` shows whether the prop runs")


@contextlib.contextmanager
def _on_ctrl_c(message: str):
    try:
        yield
    except KeyboardInterrupt:
        end_progress()
        raise DeployInterrupted(message) from None


def _say(message: str) -> None:
    print(message, flush=True)


# --- what goes onto the board ---------------------------------------------------

def firmware_files(board: str, progress=None, root=None) -> dict:
    """Compiled firmware for `board` from `root` (default: FIRMWARE_DIR): path -> bytes."""
    arch = BOARD_ARCH[board]
    files = {}
    with tempfile.TemporaryDirectory(prefix="propctl-build-") as out:
        written = build_tree(Path(out), root=Path(root) if root is not None else FIRMWARE_DIR, arch=arch,
                             progress=progress)
        for rel in written:
            if str(rel) in HOST_ONLY:
                continue
            files[rel.as_posix()] = (Path(out) / rel).read_bytes()
    return files


def incomplete_firmware(local: dict, prop: str):
    """Why the compiled tree `local` must not go onto a board (None if it is complete).

    A deploy removes what the tree no longer has, so an empty or partial tree
    would wipe the board: refuse it instead.
    """
    if not local:
        return "it compiled nothing"
    missing = [path for path in ("main.py", "lib/link/startup.mpy", "lib/props/%s/__init__.mpy" % prop)
               if path not in local]
    if missing:
        return "it lacks %s" % ", ".join(missing)
    return None


def merged_config(existing, prop, board, settings: dict) -> tuple:
    """(config text, notes): the board's config with prop, board and --set values applied."""
    notes = []
    config = {}
    if existing is not None:
        try:
            config = json.loads(existing)
        except ValueError:
            notes.append("the board's config.json was not valid JSON: replaced")
        if not isinstance(config, dict):
            config = {}
    if prop:
        config["prop"] = prop
    if board:
        config["board"] = board
    config = combine(config, settings)
    return json.dumps(config, indent=1, sort_keys=True) + "\n", notes


def contradicting_sets(settings: dict, prop, board) -> str:
    """Why --set prop=... or --set board=... cannot go with --prop and --board ("" if it can).

    deploy checks the chip against --board and waits for --prop; a config.json that names
    another board would drive this chip with the other board's pins, another prop would run
    a prop nobody asked for. The same value again is harmless."""
    problems = []
    for key, given in (("board", board), ("prop", prop)):
        if key in settings and given is not None and settings[key] != given:
            value = settings[key]
            problems.append("--set %s=%s contradicts --%s %s (name the %s with --%s alone)" % (
                key, printable(value if isinstance(value, str) else json.dumps(value), newlines=False),
                key, given, key, key))
    if not problems:
        return ""
    return "; ".join(problems) + ". Nothing was copied or removed"


def parse_set(items) -> dict:
    """--set KEY=VALUE options -> nested overrides (propctl.overrides); BoardError if one is malformed."""
    try:
        return parse_sets(items)
    except ValueError as exc:
        raise BoardError(str(exc)) from None


def check_settings(settings: dict, root: Path) -> None:
    """DeployUsageError naming every --set key the firmware in `root` does not know, and every
    value it would refuse (wrong type, out of range), before anything touches the board."""
    from propctl.settings import SettingsUnreadable, check_sets
    try:
        problems = check_sets(settings, Path(root) / "lib")
    except SettingsUnreadable as exc:
        raise BoardError("%s: nothing was copied or removed" % exc) from None
    if problems:
        raise DeployUsageError("--set: " + "; ".join(problems) + ". Nothing was copied or removed")


def card_files(cards, say) -> dict:
    """The card deck --cards names, checked as the board reads it: {destination: bytes}."""
    data = read_cards(cards)
    summary_text = check_pack(data, cards)
    destination = card_destination(Path(cards).name, data)
    say("card deck %s: %d bytes, %s -> /%s" % (cards, len(data), summary_text, destination))
    return {destination: data}


def firmware_set(prop, board, firmware, settings: dict, say) -> dict:
    """The compiled firmware for --prop and --board, path -> bytes, after every check deploy
    makes before a board is touched (the prop and board known, a firmware tree, the --set
    values the firmware takes, nothing missing). `propctl deploy` copies it to a board,
    `propctl image` writes it into a filesystem image: one path for both."""
    if prop not in PROPS or board not in BOARD_ARCH:
        raise BoardError("need --prop (%s) and --board (%s)" % ("|".join(PROPS), "|".join(BOARD_ARCH)))
    root = Path(firmware) if firmware is not None else FIRMWARE_DIR
    if not is_firmware_tree(root):
        raise BoardError("%s is not a firmware tree (no main.py or lib/link/startup.py): nothing was "
                         "copied or removed. Pass --firmware DIR (the firmware/ folder of a clone) "
                         "or reinstall propctl" % root)
    check_settings(settings, root)
    say("compiling the firmware in %s for %s (mpy-cross -march=%s)" % (root, board, BOARD_ARCH[board]))
    local = firmware_files(board, progress=progress_line("compiling"), root=root)
    end_progress()
    say("  compiled %d files" % len(local))
    why = incomplete_firmware(local, prop)
    if why:
        raise BoardError("refusing to deploy %s: %s. Nothing was copied or removed." % (root, why))
    return local


def _local_files(prop, board, cards, firmware, say, settings) -> tuple:
    """What goes onto the board, path -> bytes, and its kind ("firmware" or "cards")."""
    if cards is not None:
        return card_files(cards, say), "cards"
    return firmware_set(prop, board, firmware, settings, say), "firmware"


def whole_board(prop, board, settings: dict, firmware=None, cards=None, existing=None, say=_say) -> dict:
    """Every file a board holds after `propctl deploy --prop --board [--set]` and, with `cards`,
    `propctl deploy --cards`, onto an empty filesystem: the firmware, config.json (prop, board,
    --set and secrets merged as deploy merges them) and deploy's record (/.deploy.json), so a
    later deploy copies only what changed. `existing`: a config.json's text to start from, as
    deploy starts from the board's. path -> bytes. For `propctl image`."""
    contradiction = contradicting_sets(settings, prop, board)
    if contradiction:
        raise DeployUsageError(contradiction)
    deck = card_files(cards, say) if cards is not None else {}  # checked before the compiling
    files = firmware_set(prop, board, firmware, settings, say)
    kinds = dict.fromkeys(files, "firmware")
    files.update(deck)
    kinds.update(dict.fromkeys(deck, "cards"))
    record = {path: record_entry(files[path], kinds[path]) for path in files}
    text, notes = merged_config(existing, prop, board, settings)
    for note in notes:
        say("note: " + note)
    files[CONFIG] = text.encode()
    files[RECORD] = record_text(record)
    return files


# --- the deploy ------------------------------------------------------------------

def deploy(port: str, prop=None, board=None, cards=None, settings=None, dry_run: bool = False,
           wait: bool = True, say=_say, firmware=None) -> dict:
    """Do the deploy; returns a summary dict (copied, removed, skipped, ...).

    Ctrl-C raises DeployInterrupted, whose message says what the board was left with."""
    from propctl.serial_link.ports import resolve_port
    contradiction = contradicting_sets(settings or {}, prop, board)
    if contradiction:
        raise DeployUsageError(contradiction)
    port = resolve_port(port)
    with _on_ctrl_c(INTERRUPTED_LOCAL):
        local, kind = _local_files(prop, board, cards, firmware, say, settings or {})
    with _on_ctrl_c((INTERRUPTED_DRY_RUN if dry_run else INTERRUPTED_COPYING) % port):
        summary = _to_board(port, prop, board, local, kind, settings, dry_run, say)
    if wait and kind == "firmware" and not dry_run:
        with _on_ctrl_c(INTERRUPTED_WAITING % port):
            info = confirm_running(port, prop, say=say)
        summary["hello"] = info
        say("board up: %s prop on %s, firmware %s, link protocol %s, mode %s"
            % (info.get("prop"), info.get("board"), info.get("firmware"), info.get("protocol"),
               info.get("mode")))
    return summary


def _to_board(port, prop, board, local, kind, settings, dry_run, say) -> dict:
    """The board's part (propctl.serial_link.flash), with config.json from prop, board and --set."""
    from propctl.venue.secrets import hidden

    def new_config(old):
        return merged_config(old, prop, board, settings or {})
    return write_board(port, local, kind, board=board, new_config=new_config if kind == "firmware" else None,
                       dry_run=dry_run, say=say, shown=hidden)


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "deploy", help="compile and copy the firmware (or a card deck) to a board",
        description="Compile the firmware with mpy-cross for the board and copy it with mpremote's "
                    "transport, only the files that changed (the board keeps a record of hashes in "
                    "/.deploy.json). Writes config.json (prop, board, --set values), clears safe mode, "
                    "resets the board and waits until the prop runs (safe mode or a crashing prop is a "
                    "failure, with the board's reason). Refuses an incomplete firmware tree, a board "
                    "whose MicroPython or chip does not fit --board, and a --cards file that is not a "
                    "sound card pack, before touching the board. Works the same against the virtual "
                    "board of `propctl sim serve`.",
        epilog="Examples:\n"
               "  propctl deploy --port /dev/ttyACM0 --prop clock --board pico\n"
               "  propctl deploy --port /dev/ttyUSB0 --prop clock --board esp32 \\\n"
               "      --set clock.chime=solenoid\n"
               "  propctl deploy --port /dev/ttyACM0 --cards deck.bin\n"
               "  propctl deploy --port /dev/ttyACM0 --prop clock --board pico --dry-run",
        formatter_class=__import__("argparse").RawDescriptionHelpFormatter)
    add_port_option(parser)
    parser.add_argument("--prop", choices=PROPS, help="which prop the board runs")
    parser.add_argument("--board", choices=sorted(BOARD_ARCH), help="board profile (pins, architecture)")
    parser.add_argument("--cards", metavar="DECK.bin",
                        help="copy a packed card deck instead of the firmware (on its own: not with "
                             "--prop, --board, --set or --firmware)")
    parser.add_argument("--set", action="append", metavar="KEY=VALUE", dest="settings",
                        help="also set a config value (JSON or a bare word), e.g. clock.seed=7; repeatable. "
                             "A key the firmware does not know or a value it refuses is an error "
                             "(exit 2) before the board is touched")
    parser.add_argument("--secrets", metavar="FILE",
                        help="venue mode: the Wi-Fi and broker passwords from a JSON file "
                             "{\"password\": ..., \"broker_password\": ...} (docs/venue.md)")
    parser.add_argument("--ask-passwords", action="store_true",
                        help="venue mode: ask for the Wi-Fi and broker passwords (nothing is shown)")
    parser.add_argument("--firmware", metavar="DIR",
                        help="firmware tree to deploy (default: the one installed with propctl, "
                             "else firmware/ of this clone)")
    parser.add_argument("--dry-run", action="store_true",
                        help="list what would be copied; copies nothing (a prop it stopped to "
                             "look restarts; a board found in maintenance or safe mode stays so)")
    parser.add_argument("--no-wait", action="store_true", help="do not wait for the board's hello")
    parser.set_defaults(func=run, usage_problem=usage_problem)


def with_secrets(settings: dict, args) -> dict:
    """--set values plus the passwords of --secrets or --ask-passwords (never from --set)."""
    from propctl.venue import secrets
    refused = secrets.on_command_line(settings)
    if refused:
        raise DeployUsageError(refused + ". Nothing was copied")
    try:
        if args.secrets:
            settings = combine(settings, secrets.from_file(args.secrets))
        if getattr(args, "ask_passwords", False):
            settings = combine(settings, secrets.ask())
    except secrets.SecretsError as exc:
        raise DeployUsageError("%s. Nothing was copied" % exc) from None
    return settings


def usage_problem(args) -> str:
    """Why this command line cannot work, as the message to print ("" if it can): the
    cli asks this before it finds `--port auto`, so a usage error is exit 2 with or without a
    board plugged in."""
    problem = _usage_reason(args)
    return "propctl deploy: %s" % problem if problem else ""


def _usage_reason(args) -> str:
    if args.cards is None and (args.prop is None or args.board is None):
        return "give --prop and --board (or --cards DECK.bin)"
    if args.cards is not None:
        # a deck deploy copies the deck only: these would be dropped without a word
        unused = [name for name, value in (("--prop", args.prop), ("--board", args.board),
                                           ("--set", args.settings), ("--firmware", args.firmware),
                                           ("--secrets", args.secrets),
                                           ("--ask-passwords", args.ask_passwords))
                  if value]
        if unused:
            return ("--cards copies the card deck only; %s would be ignored. Deploy the firmware "
                    "(with %s) and the deck in two runs. Nothing was copied"
                    % (", ".join(unused), " ".join(unused)))
    try:
        return contradicting_sets(parse_set(args.settings), args.prop, args.board)
    except BoardError as exc:  # a malformed --set: say it here, as run() would
        return str(exc)


def run(args) -> int:
    problem = usage_problem(args)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    from propctl.build import CompileError
    from propctl.serial_link.ports import PortError
    try:
        settings = parse_set(args.settings)
        settings = with_secrets(settings, args)
        deploy(args.port, prop=args.prop, board=args.board, cards=args.cards, settings=settings,
               dry_run=args.dry_run, wait=not args.no_wait, firmware=args.firmware)
    except DeployInterrupted as exc:
        print("propctl deploy: %s" % exc, file=sys.stderr)
        return 130
    except DeployUsageError as exc:
        print("propctl deploy: %s" % exc, file=sys.stderr)
        return 2
    except (BoardError, PortError) as exc:
        print("propctl deploy: %s" % exc, file=sys.stderr)
        return 1
    except CompileError as exc:
        print("propctl deploy: mpy-cross refused a file, nothing was copied: %s" % exc, file=sys.stderr)
        return 1
    return 0
