"""`propctl deploy`: put the firmware (or a card deck) on a board, copying only what changed.

Steps: compile the firmware with mpy-cross for the board's architecture;
ask a running prop over the link to reboot into maintenance (prop and
watchdog off); enter the raw REPL with mpremote's transport; compare with the
board's record of what it holds (/.deploy.json: path -> sha256, size); copy
only new or changed files, remove files an earlier deploy put there that the
firmware no longer has; write config.json (prop, board, --set values); clear
the safe-mode count; reset; wait until the prop runs past its boot guard.

It refuses (non-zero exit, nothing removed) a firmware tree that compiled to
nothing or lacks main.py or the prop, a board whose MicroPython or chip does
not fit --board, and a --cards file that is not a sound card pack. A board
that ends up in safe mode or keeps crashing is a failed deploy.
"""
import contextlib
import hashlib
import io
import json
import sys
import tempfile
import time
from pathlib import Path

from propctl.build import BOARD_ARCH, FIRMWARE_DIR, PROPS, build_tree, is_firmware_tree
from propctl.overrides import combine, parse_sets

MANIFEST = ".deploy.json"
CONFIG = "config.json"
# Files main.py's boot modes keep on the flash (firmware/lib/safemode.py); deploy clears them.
MAINTENANCE_FLAG = "maintenance"
BOOT_FLAGS = ("boot_count", MAINTENANCE_FLAG)
# Never copied to a board: the freeze manifest is for building firmware images.
HOST_ONLY = {"manifest.py"}
CHUNK = 1024
# A deck bigger than this cannot be a card pack meant for a board's flash.
MAX_CARDS_BYTES = 8 * 1024 * 1024
# After the reset the prop must run this long (safemode.STABLE_MS plus margin) without a fault.
SETTLE_S = 2.0


class DeployError(Exception):
    """Deploy cannot go on; the message says why and what to do."""


class DeployUsageError(DeployError):
    """The command line asks for something the firmware would not take (exit 2); the board was not touched."""


class DeployInterrupted(DeployError):
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
        _end_progress()
        raise DeployInterrupted(message) from None


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


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
    missing = [path for path in ("main.py", "lib/link/board.mpy", "lib/props/%s/__init__.mpy" % prop)
               if path not in local]
    if missing:
        return "it lacks %s" % ", ".join(missing)
    return None


def check_pack(data: bytes, name: str) -> str:
    """The pack's summary ("TASK, 28 records"); DeployError if it is not a sound card pack.

    Uses the firmware's own reader (cardpack.pack): header, every record's CRC
    and the whole-file CRC, exactly what the board will check.
    """
    from cardpack.pack import Pack, PackError
    try:
        pack = Pack(io.BytesIO(data))
        pack.verify()
        for k in range(len(pack)):
            pack.record(k)
    except (PackError, IndexError) as exc:
        raise DeployError("%s is not a card pack a board can read: %s. Make one with "
                          "`propctl cards pack DECK.csv -o %s`" % (name, exc, Path(name).name)) from None
    return "%s, %d records" % (pack.kind, len(pack))


def read_cards(path: str) -> bytes:
    """The bytes of --cards PATH; DeployError for a folder, an unreadable or oversized file."""
    target = Path(path)
    try:
        if target.is_dir():
            raise DeployError("--cards %s is a folder; give the packed deck file (DECK.bin)" % path)
        if not target.is_file():
            raise DeployError("--cards %s: %s" % (path, "no such file" if not target.exists()
                                                  else "not a regular file"))
        if target.stat().st_size > MAX_CARDS_BYTES:
            raise DeployError("--cards %s is %d bytes, more than a card pack for a board can be (%d)"
                              % (path, target.stat().st_size, MAX_CARDS_BYTES))
        return target.read_bytes()
    except OSError as exc:
        raise DeployError("cannot read --cards %s: %s" % (path, exc.strerror or exc)) from None


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


def check_settings(settings: dict, root: Path) -> None:
    """DeployUsageError naming every --set key the firmware in `root` does not know, and every
    value it would refuse (wrong type, out of range), before anything touches the board."""
    from propctl.board.settings_check import SettingsUnreadable, check_sets
    try:
        problems = check_sets(settings, root)
    except SettingsUnreadable as exc:
        raise DeployError("%s: nothing was copied or removed" % exc) from None
    if problems:
        raise DeployUsageError("--set: " + "; ".join(problems) + ". Nothing was copied or removed")


class BoardFiles:
    """The board's filesystem through mpremote's transport (raw REPL, no soft reset)."""

    def __init__(self, port: str, attempts: int = 4) -> None:
        from mpremote.transport import TransportError
        from mpremote.transport_serial import SerialTransport
        # a read timeout: on a pseudo-terminal mpremote reads block without one
        self.transport = SerialTransport(port, baudrate=115200, timeout=2)
        for attempt in range(attempts):
            try:
                # mpremote prints what it got when the handshake fails: not for our user
                with contextlib.redirect_stdout(io.StringIO()):
                    self.transport.enter_raw_repl(soft_reset=False, timeout_overall=5)
                    # a slow board may still be stopping its program or printing a banner
                    # after the raw REPL's prompt: only a command that runs proves it is ready
                    self.transport.exec("pass")
                return
            except TransportError:
                if attempt == attempts - 1:
                    self.transport.close()
                    raise
                # a board in a crash loop may be resetting right now: let it settle, try again
                time.sleep(0.5 + attempt)
                self.transport.serial.reset_input_buffer()

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
    from propctl.board.linkclient import LinkClient, LinkFailure
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


def wait_for_hello(port: str, timeout: float = 15.0, on_line=None):
    """After the reset: the board's hello (dict), or None if it did not answer in time.

    Lines read meanwhile (a crashing prop's fault events) go to on_line(Line).
    """
    from propctl.board.linkclient import LinkClient, LinkFailure
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            client = LinkClient.open(port, wait_s=max(0.1, deadline - time.monotonic()))
        except OSError:
            return None
        try:
            while time.monotonic() < deadline:
                try:
                    return client.request("hello", timeout=1.0, on_line=on_line)
                except LinkFailure:
                    continue
        except OSError:
            time.sleep(0.2)  # a real board re-enumerates its USB port after a reset
        finally:
            client.close()
    return None


def card_destination(name: str, data: bytes) -> str:
    """Where --cards puts a deck: a task-card pack where the fuse box reads it, anything else in cards/."""
    from cardpack import Pack, taskcard
    try:
        if Pack(io.BytesIO(data)).kind == taskcard.KIND:
            return taskcard.PACK_PATH
    except (ValueError, OSError):  # PackError: not a pack the board could read as one
        pass
    return "cards/" + name


def _is_crash(line) -> bool:
    """A line that says the prop crashed (its fault event before the reset) or the board restarted."""
    if line.restarted:
        return True
    data = line.message.get("data") if line.message else None
    return line.event == "fault" and isinstance(data, dict) and data.get("action") == "reset"


def confirm_running(port: str, prop: str, timeout: float = 45.0, say=_say) -> dict:
    """Wait until the board runs `prop` past its boot guard; its hello, else DeployError saying why.

    A board that comes up in safe mode, runs another prop, or keeps crashing
    is a failed deploy: the reason is the board's own (crash count, advice,
    the last fault, the config errors).
    """
    from propctl.board.linkclient import LinkClient, LinkFailure
    faults: list = []

    def collect(line) -> None:
        data = line.message.get("data") if line.message else None
        if line.event == "fault" and isinstance(data, dict) and data.get("error"):
            faults.append(str(data["error"]))
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        info = wait_for_hello(port, timeout=max(1.0, deadline - time.monotonic()), on_line=collect)
        if not isinstance(info, dict):
            break
        errors = [str(e) for e in info.get("config_errors") or []]
        mode = info.get("mode")
        if mode == "safe":
            advice: dict = {}
            try:
                with LinkClient.open(port) as client:
                    advice = client.request("why", timeout=2.0) or {}
            except (LinkFailure, OSError):
                pass
            raise DeployError(_not_running("the board is in SAFE MODE: %s" % advice.get(
                "why", "the prop crashed during several boots in a row"), faults, errors,
                advice.get("fix", "fix the cause and deploy again")))
        if mode != "run":
            raise DeployError(_not_running("the board came up in %s mode, not running a prop" % mode,
                                           faults, errors, "deploy again"))
        if info.get("prop") != prop:
            raise DeployError(_not_running("the board runs the %s prop, not %s" % (info.get("prop"), prop),
                                           faults, errors, "check config.json on the board and deploy again"))
        try:
            with LinkClient.open(port) as client:
                client.request("hello", timeout=2.0, on_line=collect)
                crash = client.wait_for(_is_crash, SETTLE_S, on_line=collect)
        except (LinkFailure, OSError):
            continue  # it went away meanwhile: a reset; ask again
        if crash is None:
            for message in errors:
                say("config problem: %s" % message)
            return info
    from propctl.invocation import propctl_command
    raise DeployError(_not_running("no steady hello from the board after the reset", faults, [],
                                   "watch it with `%s monitor --port %s`" % (propctl_command(), port)))


def _not_running(what: str, faults: list, errors: list, fix: str) -> str:
    text = what
    if faults:
        text += "; last crash: %s" % faults[-1]
    if errors:
        text += "; config problems: %s" % "; ".join(errors)
    return text + ". What to do: %s" % fix


# What each board profile's MicroPython says it runs on (os.uname().machine, e.g.
# "Raspberry Pi Pico with RP2040"): a word it must contain, and words that mean another board.
BOARD_MACHINES = {
    "pico": ("RP2040", {"Pico W": "a Pico W: deploy with --board pico_w (its LED hangs on the Wi-Fi "
                                  "chip, and GPIO 25 selects that chip)",
                        "RP2350": "a Pico 2 (RP2350): deploy with --board pico2"}),
    "pico_w": ("Pico W", {"RP2350": "a Pico 2 W (RP2350): no profile for it yet"}),
    "pico2": ("RP2350", {" W ": "a Pico 2 W: its LED hangs on the Wi-Fi chip; no profile for it yet"}),
    "esp32": ("ESP32", {"ESP32S3": "an ESP32-S3: deploy with --board esp32s3 (the ESP32-S3-DevKitC-1 "
                                  "pins)",
                        "ESP32S2": "an ESP32-S2: no profile for it yet",
                        "ESP32C": "an ESP32-C series chip (RISC-V): no profile for it yet"}),
    "esp32s3": ("ESP32S3", {}),
}
# The oldest MicroPython that loads the .mpy files deploy writes (format 6, bytecode only).
MIN_MICROPYTHON = (1, 19)
_PROBE = ("import sys,json\ntry:\n import os\n m=os.uname().machine\nexcept Exception:\n"
          " m=getattr(sys.implementation,'_machine','')\n"
          "print(json.dumps([sys.implementation.name,list(sys.implementation.version)[:3],m,sys.platform]))")


def board_problem(board: str, name: str, version, machine: str, platform: str) -> tuple:
    """(problem or None, description) for a board that reported this identity, against `board`."""
    shown = "%s %s on %s" % (name, ".".join(str(v) for v in version), machine or platform)
    if name != "micropython":
        return ("the board runs %s, not MicroPython: flash MicroPython first (see the README, "
                "'Flashing a board')" % shown, shown)
    if tuple(version[:2]) < MIN_MICROPYTHON:
        return ("the board has MicroPython %s; the firmware needs %d.%d or newer: flash a current "
                "release (see the README, 'Flashing a board')" % (".".join(str(v) for v in version),
                                                                   *MIN_MICROPYTHON), shown)
    if platform == "linux":
        return None, shown + " (the MicroPython unix port: a virtual board, no chip to check)"
    needed, others = BOARD_MACHINES.get(board, ("", {}))
    chip = machine.replace("ESP32-", "ESP32")  # newer builds say "ESP32-S3", older ones "ESP32S3"
    for word, why in others.items():
        if word in chip:
            return ("--board %s does not fit this board: it is %s" % (board, why), shown)
    if needed not in chip:
        return ("the board reports %r, but --board %s is for boards that report %s: pick the "
                "matching --board or flash the build for this board (README, 'Flashing a board')"
                % (machine or platform, board, needed), shown)
    return None, shown


def check_board(files, board: str, say=_say) -> None:
    """Ask the board what it is (at the REPL); DeployError if it cannot run the firmware for `board`."""
    try:
        name, version, machine, platform = json.loads(files.transport.exec(_PROBE).decode())
    except (ValueError, TypeError, UnicodeError) as exc:
        raise DeployError("the board did not say which MicroPython it runs (%s)" % exc) from None
    problem, shown = board_problem(board, name, version, machine, platform)
    if problem:
        raise DeployError(problem)
    say("board: %s" % shown)


def _lost(port: str, exc) -> DeployError:
    """The one-line error for a board that reset or went away in the middle of a deploy."""
    return DeployError("lost the board on %s during the deploy (%s: %s). It reset or was unplugged. "
                       "Plug it in again and run the same deploy: it goes on from where it stopped"
                       % (port, type(exc).__name__, str(exc).strip() or "no answer"))


def deploy(port: str, prop=None, board=None, cards=None, settings=None, dry_run: bool = False,
           wait: bool = True, say=_say, firmware=None) -> dict:
    """Do the deploy; returns a summary dict (copied, removed, skipped, ...).

    Ctrl-C raises DeployInterrupted, whose message says what the board was left with."""
    from propctl.board.ports import resolve_port
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


def _local_files(prop, board, cards, firmware, say, settings) -> tuple:
    """What goes onto the board, path -> bytes, and its kind ("firmware" or "cards")."""
    local: dict = {}
    kind = "firmware"
    if cards is not None:
        kind = "cards"
        data = read_cards(cards)
        summary_text = check_pack(data, cards)
        destination = card_destination(Path(cards).name, data)
        local[destination] = data
        say("card deck %s: %d bytes, %s -> /%s" % (cards, len(data), summary_text, destination))
    else:
        if prop not in PROPS or board not in BOARD_ARCH:
            raise DeployError("need --prop (%s) and --board (%s)" % ("|".join(PROPS), "|".join(BOARD_ARCH)))
        root = Path(firmware) if firmware is not None else FIRMWARE_DIR
        if not is_firmware_tree(root):
            raise DeployError("%s is not a firmware tree (no main.py or lib/link/board.py): nothing was "
                              "copied or removed. Pass --firmware DIR (the firmware/ folder of a clone) "
                              "or reinstall propctl" % root)
        check_settings(settings, root)
        say("compiling the firmware in %s for %s (mpy-cross -march=%s)" % (root, board, BOARD_ARCH[board]))
        local = firmware_files(board, progress=_progress_line("compiling"), root=root)
        _end_progress()
        say("  compiled %d files" % len(local))
        why = incomplete_firmware(local, prop)
        if why:
            raise DeployError("refusing to deploy %s: %s. Nothing was copied or removed." % (root, why))
    return local, kind


def _to_board(port, prop, board, local, kind, settings, dry_run, say) -> dict:
    """Maintenance boot, copy what changed, config.json, reset; the summary dict."""
    from mpremote.transport import TransportError
    try:
        # a dry run too: a running watchdog would reset the board under the raw REPL
        mode = request_maintenance(port, say)
    except OSError as exc:
        raise _lost(port, exc) from None
    say("board mode before deploy: %s" % mode)
    try:
        files = BoardFiles(port)
    except Exception as exc:
        raise DeployError("no REPL on %s: %s (is it a MicroPython board? is another program "
                          "using the port?)" % (port, exc)) from None
    summary: dict = {"copied": [], "removed": [], "skipped": [], "config": None, "hello": None}
    try:
        if kind == "firmware":
            check_board(files, board, say)
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
    except BaseException as exc:
        _end_progress()
        try:
            files.close()
        except Exception:
            pass
        if isinstance(exc, (TransportError, OSError)):
            raise _lost(port, exc) from None
        raise
    return summary


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
    parser.add_argument("--port", required=True,
                        help="serial port of the board (see `propctl ports`), or `auto`: the first "
                             "USB port that looks like a MicroPython board")
    parser.add_argument("--prop", choices=PROPS, help="which prop the board runs")
    parser.add_argument("--board", choices=sorted(BOARD_ARCH), help="board profile (pins, architecture)")
    parser.add_argument("--cards", metavar="DECK.bin",
                        help="copy a packed card deck instead of the firmware (on its own: not with "
                             "--prop, --board, --set or --firmware)")
    parser.add_argument("--set", action="append", metavar="KEY=VALUE", dest="settings",
                        help="also set a config value (JSON or a bare word), e.g. clock.seed=7; repeatable. "
                             "A key the firmware does not know or a value it refuses is an error "
                             "(exit 2) before the board is touched")
    parser.add_argument("--firmware", metavar="DIR",
                        help="firmware tree to deploy (default: the one installed with propctl, "
                             "else firmware/ of this clone)")
    parser.add_argument("--dry-run", action="store_true",
                        help="list what would be copied; copies nothing (the board restarts)")
    parser.add_argument("--no-wait", action="store_true", help="do not wait for the board's hello")
    parser.set_defaults(func=run)


def run(args) -> int:
    if args.cards is None and (args.prop is None or args.board is None):
        print("propctl deploy: give --prop and --board (or --cards DECK.bin)", file=sys.stderr)
        return 2
    if args.cards is not None:
        # a deck deploy copies the deck only: these would be dropped without a word
        unused = [name for name, value in (("--prop", args.prop), ("--board", args.board),
                                           ("--set", args.settings), ("--firmware", args.firmware))
                  if value]
        if unused:
            print("propctl deploy: --cards copies the card deck only; %s would be ignored. Deploy "
                  "the firmware (with %s) and the deck in two runs. Nothing was copied"
                  % (", ".join(unused), " ".join(unused)), file=sys.stderr)
            return 2
    from propctl.board.ports import PortError
    from propctl.build import CompileError
    try:
        settings = parse_set(args.settings)
        deploy(args.port, prop=args.prop, board=args.board, cards=args.cards, settings=settings,
               dry_run=args.dry_run, wait=not args.no_wait, firmware=args.firmware)
    except DeployInterrupted as exc:
        print("propctl deploy: %s" % exc, file=sys.stderr)
        return 130
    except DeployUsageError as exc:
        print("propctl deploy: %s" % exc, file=sys.stderr)
        return 2
    except (DeployError, PortError) as exc:
        print("propctl deploy: %s" % exc, file=sys.stderr)
        return 1
    except CompileError as exc:
        print("propctl deploy: mpy-cross refused a file, nothing was copied: %s" % exc, file=sys.stderr)
        return 1
    return 0
