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
from pathlib import Path
from typing import Optional

from propctl.board.vserial import VirtualSerial
from propctl.invocation import propctl_command
from propctl.sim.runner import VBOARD_DIR, find_micropython

# MicroPython heap of the virtual board: about what a Pico leaves free.
DEFAULT_HEAP = "256K"
RESTART_PAUSE_S = 0.2


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
        self._log = log or (lambda message: None)
        self._proc: Optional[subprocess.Popen] = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None

    def _env(self) -> dict:
        env = dict(os.environ)
        # as on a board: the flash root, frozen modules, /lib; then the fake machine
        env["MICROPYPATH"] = ":".join(["", ".frozen", str(self.flash / "lib"), str(VBOARD_DIR)])
        env["VBOARD_RESET_KILLS"] = "1"  # machine.reset() ends the process; we boot it again
        return env

    def _command(self) -> list:
        command = [self.micropython, "-X", "heapsize=" + self.heap, "-i"]
        if (self.flash / "main.py").exists():
            command.append("main.py")
        return command

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
        while not self._stop.is_set():
            self._boot()
            proc = self._proc
            if proc is None:
                return
            code = proc.wait()
            if self._stop.is_set():
                return
            self.exit_codes.append(code)
            self._log("virtual board: process ended (code %s), resetting" % code)
            self._stop.wait(RESTART_PAUSE_S)

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


def main(args) -> int:
    """Entry for `propctl sim serve`: serve until Ctrl-C. Reads args.flash, args.link, args.heap."""
    flash = getattr(args, "flash", None)
    if not flash:
        flash = tempfile.mkdtemp(prefix="vboard-flash-")
    link_path = getattr(args, "link", None)
    heap = getattr(args, "heap", None) or DEFAULT_HEAP
    prop_id = None
    if getattr(args, "broker", None):
        from propctl.venue import netsim
        from propctl.venue.broker import BrokerError
        try:
            prop_id = netsim.prepare_flash(Path(flash), args)
        except BrokerError as exc:
            print("propctl sim serve: %s" % exc, file=sys.stderr)
            return 2
        if heap == DEFAULT_HEAP:
            heap = netsim.HEAP  # the net layer's code and buffers besides the prop
    # Before the first line is printed: whoever read it may stop us at once.
    stopped = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopped.set())
    board = VirtualBoard(Path(flash), heap=heap, link_path=link_path,
                         log=lambda m: print(m, file=sys.stderr, flush=True))
    board.start()
    print("virtual board on %s" % board.port, flush=True)
    print("flash folder: %s" % flash, flush=True)
    if link_path:
        print("also reachable as %s" % link_path, flush=True)
    if prop_id is not None:
        print("on the broker as %s once a prop is deployed (config.json has the net section)" % prop_id,
              flush=True)
    propctl = propctl_command()  # the hints must run as printed, .venv activated or not
    print("in another terminal, try:\n  %s deploy --port %s --prop clock --board pico\n"
          "  %s monitor --port %s\nCtrl-C here stops the virtual board"
          % (propctl, board.port, propctl, board.port), flush=True)
    try:
        while not stopped.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        board.stop()
    return 0


def add_arguments(parser) -> None:
    """The serve options of `propctl sim serve`."""
    parser.add_argument("--flash", help="folder that plays the board's flash (default: a new temp folder)")
    parser.add_argument("--link", help="also make this path a symlink to the port (like socat link=)")
    parser.add_argument("--heap", default=DEFAULT_HEAP, help="MicroPython heap size (default %(default)s)")
    parser.add_argument("--broker", metavar="URL",
                        help="also join this MQTT broker, mqtt://[USER@]HOST[:PORT] "
                             "(writes the net section of the flash's config.json)")
    parser.add_argument("--id", metavar="ID", help="with --broker: the prop's id there (default: its name)")
    parser.add_argument("--password-file", metavar="FILE",
                        help="with --broker: the broker password (else $PROPCTL_MQTT_PASSWORD)")


if __name__ == "__main__":
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(parser)
    sys.exit(main(parser.parse_args()))
