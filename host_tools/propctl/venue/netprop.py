"""One prop's real firmware on the virtual board, connected to an MQTT broker.

    prop = NetProp("clock", broker, "clock1", password="...")
    prop.start()          # main.py under the MicroPython unix port, in a folder of its own
    prop.wait_event(lambda e: e["ev"] == "net" and e["data"]["state"] == "up", 5)
    prop.stop()

The folder plays the board's flash: config.json (prop, board, the net
section with the broker and its login), the game's saves and, for Wi-Fi
tests, vboard_wifi.json. config.json is a named pipe (mkfifo) that the
firmware reads once at boot, as main.py does, and this process writes into:
the passwords never rest in a file, so a sim killed with SIGKILL leaves none
behind. With tie_to_parent (propctl sim) the firmware gets SIGKILL from the
kernel when the process that started it dies (prctl PR_SET_PDEATHSIG), so a
killed `propctl sim` takes its firmware with it; the firmware's environment
never holds $PROPCTL_MQTT_PASSWORD. The
firmware runs from main.py exactly as on a board: the net layer, the serial
link on the process's stdin/stdout (its event lines are collected here),
the virtual board's `machine`, `time` (ticks wrapping at 2^30) and
`network`; sockets are the unix port's own. Each prop gets its own board id
($VBOARD_UID), as two boards would have.
"""
import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable, Optional

from propctl.build import FIRMWARE_DIR
from propctl.launcher import board_env, command, find_micropython
from propctl.venue.broker import PASSWORD_ENV

# About a Pico's 234 KB of heap in 64-bit objects (x 1.55, GUIDE.md), which the prop, the
# net layer and the virtual board's own recorder share (`sim serve` gives 256K: no net layer)
DEFAULT_HEAP = "360K"


PR_SET_PDEATHSIG = 1  # linux/prctl.h


def _die_with_parent() -> None:
    """In the child, before exec: SIGKILL when the thread that started it ends (Linux's
    prctl(PR_SET_PDEATHSIG); elsewhere nothing: stop() still ends it)."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass


class NetProp:
    """A virtual prop on a broker (see the module docstring)."""

    def __init__(self, prop: str, host: str, port: int, prop_id: str, user: str = "", password: str = "",
                 settings: Optional[dict] = None, net: Optional[dict] = None, folder=None,
                 micropython: Optional[str] = None, firmware_dir: Path = FIRMWARE_DIR,
                 heap: str = DEFAULT_HEAP, uid: Optional[str] = None,
                 echo: Optional[Callable] = None, env: Optional[dict] = None,
                 tie_to_parent: bool = False, ca_file=None) -> None:
        self.prop = prop
        self.prop_id = prop_id
        self._own_folder = folder is None
        self.folder = Path(folder) if folder is not None else Path(tempfile.mkdtemp(prefix="netprop-"))
        self.micropython = micropython or find_micropython()
        self.firmware_dir = Path(firmware_dir)
        self.heap = heap
        self.uid = uid or prop_id
        self.echo = echo
        self.extra_env = dict(env or {})  # e.g. VBOARD_TICKS_START: where the ticks start
        self.tie_to_parent = tie_to_parent
        config: dict = {"prop": prop, "board": "pico"}
        for key, value in (settings or {}).items():
            config[key] = value
        net_section = {"broker": host, "port": port, "id": prop_id}
        if user:
            net_section["user"] = user
        if password:
            net_section["broker_password"] = password
        if ca_file is not None:  # TLS: the CA goes onto the board's flash as net.ca
            import shutil as _shutil
            _shutil.copyfile(str(ca_file), str(self.folder / "ca.pem"))
            net_section["tls"] = True
            net_section["ca"] = "ca.pem"
        net_section.update(net or {})
        config["net"] = net_section
        self.config = config
        self.events: list = []     # every JSON line the firmware wrote (its serial link)
        self.other: list = []      # every other line (tracebacks, prints)
        self._cond = threading.Condition()
        self._proc: Optional[subprocess.Popen] = None
        self._reader: Optional[threading.Thread] = None

    def write_config(self) -> None:
        """config.json as a named pipe (0600) that the firmware reads at boot (_hand_config)."""
        path = self.folder / "config.json"
        path.unlink(missing_ok=True)
        os.mkfifo(str(path), 0o600)

    def _hand_config(self, proc: subprocess.Popen) -> None:
        """Write config.json into its pipe once the firmware opens it (it reads to the end).
        A firmware that ends first leaves nothing: the pipe holds no byte without a reader."""
        path = str(self.folder / "config.json")
        data = json.dumps(self.config).encode()
        while proc.poll() is None:
            try:
                fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)  # ENXIO while no reader has it open
            except OSError:
                time.sleep(0.005)
                continue
            try:
                os.set_blocking(fd, True)
                os.write(fd, data)  # at most 4 KB (settings.MAX_FILE_BYTES): less than a pipe holds
            except OSError:
                pass
            finally:
                os.close(fd)
            return

    def set_wifi(self, access_point: Optional[dict]) -> None:
        """The virtual access point (vboard network.py): ssid, password, join_ms, up; None: none."""
        path = self.folder / "vboard_wifi.json"
        if access_point is None:
            path.unlink(missing_ok=True)
            return
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(access_point))
        os.replace(tmp, path)

    def start(self) -> "NetProp":
        self.write_config()
        env = board_env(self.firmware_dir / "lib")
        env["VBOARD_UID"] = self.uid
        env.update(self.extra_env)
        env.pop("VBOARD_RESET_KILLS", None)
        env.pop(PASSWORD_ENV, None)  # the firmware has its password from config.json only
        self._proc = subprocess.Popen(
            command([self.firmware_dir / "main.py"], self.heap, self.micropython),
            cwd=str(self.folder), env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, start_new_session=True,
            preexec_fn=_die_with_parent if self.tie_to_parent else None)
        threading.Thread(target=self._hand_config, args=(self._proc,), name="config-" + self.prop_id,
                         daemon=True).start()
        self._reader = threading.Thread(target=self._read, name="netprop-" + self.prop_id, daemon=True)
        self._reader.start()
        return self

    def _read(self) -> None:
        assert self._proc is not None and self._proc.stdout is not None
        for raw in self._proc.stdout:
            text = raw.decode("utf-8", "replace").rstrip("\r\n")
            try:
                message = json.loads(text)
            except ValueError:
                message = None
            with self._cond:
                if isinstance(message, dict):
                    self.events.append(message)
                else:
                    self.other.append(text)
                self._cond.notify_all()
            if self.echo is not None:
                self.echo(self, message if isinstance(message, dict) else text)
        with self._cond:
            self._cond.notify_all()

    def send(self, line: str) -> None:
        """One request line on the serial link."""
        assert self._proc is not None and self._proc.stdin is not None
        self._proc.stdin.write(line.encode() + b"\n")
        self._proc.stdin.flush()

    def wait_event(self, predicate: Callable, timeout: float, start: int = 0):
        """The first event line (from index `start`) for which predicate holds, or None after timeout."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for message in self.events[start:]:
                    if "ev" in message and predicate(message):
                        return message
                left = deadline - time.monotonic()
                if left <= 0 or not self.running():
                    return None
                self._cond.wait(min(left, 0.2))

    def net_events(self, state: Optional[str] = None) -> list:
        with self._cond:
            return [m["data"] for m in self.events
                    if m.get("ev") == "net" and (state is None or m["data"].get("state") == state)]

    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def kill(self) -> None:
        """Cut the power (SIGKILL): the broker publishes the will."""
        if self._proc is not None and self._proc.poll() is None:
            os.killpg(self._proc.pid, signal.SIGKILL)
            self._proc.wait(timeout=5)

    def stop(self) -> None:
        """Stop and forget the folder (it holds the passwords) unless it was given."""
        if self._proc is not None and self._proc.poll() is None:
            os.killpg(self._proc.pid, signal.SIGTERM)
            try:
                self._proc.wait(timeout=3)
            except subprocess.TimeoutExpired:
                self.kill()
        if self._reader is not None:
            self._reader.join(timeout=2)
        if self._proc is not None and self._proc.stdin is not None:
            try:
                self._proc.stdin.close()
            except OSError:
                pass
        if self._own_folder:
            shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> "NetProp":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
