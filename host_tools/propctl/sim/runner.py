"""What every `propctl sim` runner shares: the JSON lines, the screen, the settings, and the
clean-up of a run however it ends.

Each prop's firmware runs inside the MicroPython unix port on the fake
`machine` of propctl/vboard and talks JSON lines on stdout; propctl.launcher
finds the interpreter and builds the virtual board's environment (its names are
here too, for the sims). This module reads the lines, checks `--set` keys
(parsed by propctl.overrides) against the firmware's own settings
(propctl.settings, the reader deploy uses too), and (`Run`) lets go of what a
run holds when it ends, also on SIGTERM or SIGHUP. It imports only leaves of
propctl (launcher, inputfile, keys, settings).
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, List, Optional

from propctl.launcher import REPO_FIRMWARE_LIB, VBOARD_DIR, SimError, find_micropython
from propctl.launcher import board_env as runner_env
from propctl.overrides import load_config

__all__ = ["REPO_FIRMWARE_LIB", "VBOARD_DIR", "SimError", "find_micropython", "runner_env", "Run",
           "Stopped", "setup", "interactive_default", "records", "check_settings", "overrides_args",
           "load_config"]


class Stopped(BaseException):
    """SIGTERM or SIGHUP arrived during a run (raised where the sim was, so its clean-up runs as
    for Ctrl-C); `code` is the exit code a shell gives a process the signal ended."""

    def __init__(self, signum: int) -> None:
        super().__init__("stopped by signal %d" % signum)
        self.code = 128 + signum


STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


class Run:
    """What a sim run holds, let go however the run ends (its end, an error, Ctrl-C, or SIGTERM
    and SIGHUP, which raise Stopped while it runs): the terminal's mode and the screen, the
    runner process, the piezo's players and files, and the run's temporary folder.

        with Run() as run:
            run.proc = subprocess.Popen(... run.folder ...)
            run.sound = ...; run.cbreak(); run.screen = ...
    """

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="propctl-sim-"))
        self.proc: Optional[subprocess.Popen] = None
        self.screen: Any = None   # has close(): the cursor back, below the drawing
        self.sound: Any = None    # has finish(abort): propctl.sound.Piezo
        self.first: List[Callable[[], object]] = []  # called before the rest, e.g. stop a key reader
        self._tty: Optional[list] = None
        self._handlers: dict = {}

    def cbreak(self) -> None:
        """Keys one at a time, not echoed, Ctrl-C a key like any other (propctl.keys.keys_mode),
        until the run ends (the terminal's mode is saved)."""
        from propctl.keys import keys_mode  # a leaf as well
        self._tty = keys_mode(sys.stdin.fileno())

    def restore_terminal(self) -> None:
        """The terminal as the run found it, the screen closed (again: nothing happens)."""
        if self._tty is not None:
            import termios
            termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, self._tty)
            self._tty = None
        if self.screen is not None:
            screen, self.screen = self.screen, None
            screen.close()

    def __enter__(self) -> "Run":
        def stop(signum, frame):
            raise Stopped(signum)
        try:
            for signum in STOP_SIGNALS:
                self._handlers[signum] = signal.signal(signum, stop)
        except ValueError:  # not the main thread: the signals end the process as they would
            pass
        return self

    def __exit__(self, kind, value, traceback) -> None:
        for signum in self._handlers:  # a second signal does not cut the clean-up short
            signal.signal(signum, signal.SIG_IGN)
        try:
            for call in self.first:
                call()
            self.restore_terminal()
            if self.proc is not None and self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            if self.sound is not None:
                self.sound.finish(abort=kind is not None)
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
            for signum, handler in self._handlers.items():
                signal.signal(signum, handler)


def setup(firmware: Optional[str], prop_module: str) -> tuple:
    """(micropython, firmware lib folder) for a prop whose firmware is the package props/<prop_module>/."""
    firmware_lib = Path(firmware) if firmware else REPO_FIRMWARE_LIB
    # os.path.isfile, not Path.exists: a name too long (ENAMETOOLONG) is False, not a traceback
    if not os.path.isfile(firmware_lib / "props" / prop_module / "__init__.py"):
        raise SimError("no %s firmware at %s; run from a clone of the project or pass --firmware DIR"
                       % (prop_module, firmware_lib))
    try:
        return find_micropython(), firmware_lib
    except FileNotFoundError as exc:
        raise SimError(str(exc)) from None


def interactive_default() -> bool:
    """Draw in place only for a person at a terminal (not in CI, not with redirected input, not
    at TERM=dumb: Emacs' shell and some IDE consoles cannot move the cursor or clear)."""
    if os.environ.get("CI") or os.environ.get("TERM") == "dumb":
        return False
    return sys.stdin.isatty() and sys.stdout.isatty()


def records(lines: Iterable[str], junk: Callable[[str], None]) -> Iterator[dict]:
    """The JSON objects among a runner's output lines; any other line goes to junk(line)."""
    for raw in lines:
        try:
            record = json.loads(raw)
        except ValueError:
            record = None
        if isinstance(record, dict):
            yield record
        else:
            junk(raw.rstrip("\n"))


# --- settings ----------------------------------------------------------------

def check_settings(sets: dict, config: dict, firmware_lib: Path, config_path: Optional[str] = None) -> None:
    """SimError (exit 2) naming every --set key the firmware does not know, and any section of
    --config that is not an object (unknown keys in the file only warn, as on a board). A value
    the firmware refuses is left to the board, which reports it and goes on with the default."""
    from propctl.settings import SettingsUnreadable, firmware_settings, unknown_keys  # a leaf as well
    try:
        defaults = firmware_settings(firmware_lib).defaults()
    except SettingsUnreadable as exc:
        raise SimError(str(exc)) from None
    problems = unknown_keys(sets, defaults)
    if problems:
        raise SimError("--set: " + "; ".join(problems), 2)
    problems = [p for p in unknown_keys(config, defaults) if " is a section, " in p]
    if problems:
        raise SimError("--config %s: %s" % (config_path, "; ".join(problems)), 2)


def overrides_args(overrides: dict, folder: Path) -> list:
    """["--overrides", FILE] for a vboard runner, `overrides` written as JSON to FILE in `folder`
    ([] when there are none). A file, not the JSON itself: MicroPython's unix port interns every
    argument as a qstr, at most 255 bytes, and dies on a longer one (FATAL: uncaught NLR)."""
    if not overrides:
        return []
    path = Path(folder) / "overrides.json"
    path.write_text(json.dumps(overrides), encoding="utf-8")
    return ["--overrides", str(path)]
