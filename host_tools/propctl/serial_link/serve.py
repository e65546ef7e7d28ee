"""The virtual board on a serial port, for deploy, monitor and repl:
  propctl sim serve --flash /tmp/flash    # prints its port, e.g. /dev/pts/3
  propctl deploy --port /dev/pts/3 --prop clock --board pico
  propctl monitor --port /dev/pts/3 --send start_round --until chime

Runs the MicroPython unix port with the fake `machine` (propctl/vboard) in a
folder that plays the board's flash, behind a pseudo-terminal, and prints the
port. `propctl deploy`, `propctl monitor` and `mpremote connect PORT resume ...`
then work against it as against a board. A reset of the virtual board
(machine.reset(), a crash that resets, the process ending) restarts the
process, which runs main.py from the flash again, as a board does.

Blank flash: the board starts at the REPL, ready for `propctl deploy`.
"""
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Optional

from propctl.argtypes import Size
from propctl.inputfile import what_kind
from propctl.invocation import propctl_command
from propctl.launcher import board_env, command, find_micropython
from propctl.serial_link.announce import announce, withdraw
from propctl.serial_link.vserial import VirtualSerial
from propctl.termsafe import printable

# MicroPython heap of the virtual board: about what a Pico leaves free.
DEFAULT_HEAP = "256K"
# --heap: below this no prop boots; above it no board comes close
HEAP = Size(64 * 1024, 64 * 1024 * 1024)
RESTART_PAUSE_S = 0.2
# A board process that ends this soon after its boot, this many times in a row, will not come
# up by itself (a broken interpreter, main.py ending at once): stop with its words instead of
# resetting 4 times a second forever. A prop's own crash loop ends in safe mode after 3 boots.
QUICK_END_S = 1.0
QUICK_ENDS = 8


class VirtualBoard:
    """The board process behind a VirtualSerial, restarted whenever it ends."""

    def __init__(self, flash: Path, micropython=None, heap: str = DEFAULT_HEAP, link_path=None,
                 log=None) -> None:
        self.flash = Path(flash)
        self.flash.mkdir(parents=True, exist_ok=True)
        self.micropython = micropython or find_micropython()
        self.heap = heap
        self.serial = VirtualSerial(link_path)
        self.port = self.serial.port
        self.boots = 0
        self.exit_codes: list = []
        self.failed = ""  # why the board was given up (it kept ending at once), else ""
        self._log = log or (lambda message: None)
        self._proc: Optional[subprocess.Popen] = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None

    def _env(self) -> dict:
        # the fake machine; then as on a board: the flash root, frozen modules, /lib
        env = board_env(self.flash / "lib", root=True)
        env["VBOARD_RESET_KILLS"] = "1"  # machine.reset() ends the process; we boot it again
        return env

    def _command(self) -> list:
        return command(["-i"] + (["main.py"] if (self.flash / "main.py").exists() else []), self.heap,
                       self.micropython)

    def _boot(self) -> None:
        with self._lock:
            if self._stop.is_set():
                return
            self.boots += 1
            fd = self.serial.board_fd
            self._proc = subprocess.Popen(self._command(), stdin=fd, stdout=fd, stderr=fd,
                                          cwd=str(self.flash), env=self._env(), start_new_session=True)
        self._log("virtual board: boot %d%s" % (self.boots, "" if (self.flash / "main.py").exists()
                                                  else " (no main.py: REPL)"))

    def _supervise(self) -> None:
        quick = 0
        while not self._stop.is_set():
            started = time.monotonic()
            self._boot()
            proc = self._proc
            if proc is None:
                return
            code = proc.wait()
            if self._stop.is_set():
                return
            self.exit_codes.append(code)
            quick = quick + 1 if time.monotonic() - started < QUICK_END_S else 0
            if quick >= QUICK_ENDS:
                self.failed = ("the board process ended within %g s of its boot %d times in a row "
                               "(last exit code %s)%s" % (QUICK_END_S, quick, code, self._why()))
                self._log("virtual board: %s; stopped" % self.failed)
                self._stop.set()
                return
            if code == -signal.SIGKILL:  # machine.reset() (kill -9 $PPID), a deploy's or our reset
                self._log("virtual board: reset, booting again")
            else:
                self._log("virtual board: process ended (code %s), resetting" % code)
            self._stop.wait(RESTART_PAUSE_S)

    def _why(self) -> str:
        """What the board process says when it ends at once: one more boot, its output read."""
        try:
            done = subprocess.run(self._command(), stdin=subprocess.DEVNULL, capture_output=True,
                                  cwd=str(self.flash), env=self._env(), timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            return ""
        lines = [line for line in (done.stdout + done.stderr).decode("utf-8", "replace").splitlines()
                 if line.strip()]
        return ": %s" % printable(" / ".join(lines[-3:]), newlines=False) if lines else ""

    def start(self) -> "VirtualBoard":
        """Boot the board in the background (restarts on every exit)."""
        self._thread = threading.Thread(target=self._supervise, name="vboard", daemon=True)
        self._thread.start()
        return self

    def reset(self) -> None:
        """Power-cycle: kill the process; the supervisor boots it again."""
        self.kill()

    def kill(self) -> None:
        """Cut the power now (SIGKILL to the process group)."""
        with self._lock:
            proc = self._proc
        if proc is not None and proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def stop(self) -> None:
        """Stop for good: kill the process, close the port."""
        self._stop.set()
        self.kill()
        with self._lock:
            proc = self._proc
        if proc is not None:
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        if self._thread is not None:
            self._thread.join(timeout=5)
        self.serial.close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def path_problem(flash, link) -> str:
    """Why --flash or --link cannot be used ("" when both can): the flash must be a folder (it
    is made if missing) and the link a new name in an existing folder (or a symlink, replaced)."""
    if flash is not None:
        if not flash:
            return "--flash: an empty name is no folder"
        if os.path.lexists(flash) and not os.path.isdir(flash):
            kind = "a file" if os.path.isfile(flash) else _kind(flash)
            return "--flash %s is %s, not a folder" % (printable(flash), kind)
    if link is not None:
        if not link or link.endswith("/"):
            return "--link %r is no name for a new symlink" % printable(link)
        if os.path.lexists(link) and not os.path.islink(link):
            return ("--link %s is already there (%s): the link would replace it; name a new path"
                    % (printable(link), "a folder" if os.path.isdir(link) else "a file"
                       if os.path.isfile(link) else _kind(link)))
        folder = os.path.dirname(os.path.abspath(link))
        if not os.path.isdir(folder):
            return "--link %s: the folder %s does not exist" % (printable(link), printable(folder))
    return ""


def _kind(path) -> str:
    try:
        return what_kind(os.stat(path).st_mode)
    except OSError:
        return "a special file"


class ServeError(Exception):
    """`propctl sim serve` cannot start: the message, and the exit code (2: the options, 1: the rest)."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


def main(args) -> int:
    """Entry for `propctl sim serve`: serve until Ctrl-C. Reads args.flash, args.link, args.heap.
    0 when stopped (Ctrl-C, SIGTERM); 2 for a --flash or --link that cannot be used; 1 when the
    board cannot be made, or its process keeps ending at once."""
    link_path = getattr(args, "link", None)
    # Before the first line is printed: whoever read it may stop us at once.
    stopped = threading.Event()
    try:
        flash = _flash_folder(getattr(args, "flash", None), link_path)
        prop_id, heap = _join_broker(flash, args, getattr(args, "heap", None) or DEFAULT_HEAP)
        signal.signal(signal.SIGTERM, lambda *_: stopped.set())
        board = _make_board(flash, link_path, heap)
    except ServeError as exc:
        print("propctl sim serve: %s" % exc, file=sys.stderr)
        return exc.code
    board.start()
    # where --port auto and `propctl ports` look (propctl.serial_link.announce); gone when we stop
    announced = announce(board.port, link=link_path, flash=str(flash))
    try:
        _announce(board, flash, link_path, prop_id, announced is not None)
        while not stopped.wait(0.5):
            if board.failed:
                break
    except KeyboardInterrupt:
        pass
    finally:
        withdraw(announced)
        board.stop()
    if board.failed:
        print("propctl sim serve: %s" % board.failed, file=sys.stderr)
        return 1
    return 0


def _flash_folder(flash, link_path) -> str:
    """The folder that plays the flash (--flash, else a new temporary one), made if missing."""
    problem = path_problem(flash, link_path)
    if problem:
        raise ServeError(problem, 2)
    try:
        if not flash:
            flash = tempfile.mkdtemp(prefix="vboard-flash-")
        Path(flash).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ServeError("cannot make the flash folder %s: %s" % (printable(str(flash)), exc.strerror or exc),
                         1) from None
    return flash


def _join_broker(flash: str, args, heap: str) -> tuple:
    """(prop id or None, heap): with --broker, the flash's config.json gets the net section and
    the board the heap the net layer needs besides the prop."""
    if not getattr(args, "broker", None):
        return None, heap
    from propctl.venue import netsim
    from propctl.venue.broker import BrokerError
    try:
        prop_id = netsim.prepare_flash(Path(flash), args)
    except BrokerError as exc:
        raise ServeError(str(exc), 2) from None
    except OSError as exc:
        raise ServeError("cannot write the flash's config.json: %s" % (exc.strerror or exc), 1) from None
    return prop_id, netsim.HEAP if heap == DEFAULT_HEAP else heap


def _make_board(flash: str, link_path, heap: str) -> "VirtualBoard":
    try:
        return VirtualBoard(Path(flash), heap=heap, link_path=link_path,
                            log=lambda m: print(m, file=sys.stderr, flush=True))
    except OSError as exc:
        raise ServeError("cannot make the virtual board (flash %s%s): %s"
                         % (printable(flash), ", link %s" % printable(link_path) if link_path else "",
                            exc.strerror or exc), 1) from None


def _announce(board, flash: str, link_path, prop_id, findable: bool = False) -> None:
    """Where the board is, and the commands to try (they must run as printed)."""
    print("virtual board on %s" % board.port, flush=True)
    print("flash folder: %s" % printable(flash), flush=True)
    if link_path:
        print("also reachable as %s" % printable(link_path), flush=True)
    if prop_id is not None:
        print("on the broker as %s once a prop is deployed (config.json has the net section)" % prop_id,
              flush=True)
    propctl = propctl_command()  # the hints must run as printed, .venv activated or not
    port = board.port  # not `auto`: with two virtual boards served, auto finds the older one
    print("in another terminal, try:\n  %s deploy --port %s --prop clock --board pico\n"
          "  %s monitor --port %s\nCtrl-C here stops the virtual board"
          % (propctl, port, propctl, port), flush=True)
    if findable:
        print("(--port auto and `propctl ports` find it while it runs)", flush=True)


def add_arguments(parser) -> None:
    """The serve options of `propctl sim serve`."""
    parser.add_argument("--flash", help="folder that plays the board's flash (default: a new temp folder)")
    parser.add_argument("--link", help="also make this path a symlink to the port (like socat link=)")
    parser.add_argument("--heap", type=HEAP, default=DEFAULT_HEAP,
                        help="MicroPython heap size, %s..%s (default %%(default)s)"
                             % (HEAP.written(HEAP.lo), HEAP.written(HEAP.hi)))
    from propctl.venue import netsim
    netsim.add_arguments(parser, "also join this MQTT broker, mqtt://[USER@]HOST[:PORT] "
                                 "(writes the net section of the flash's config.json)")


if __name__ == "__main__":
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(parser)
    sys.exit(main(parser.parse_args()))
