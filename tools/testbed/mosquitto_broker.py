"""A private Mosquitto for the venue tests and the venue bench: a free port, a password file,
an ACL, its own log.

    with Mosquitto(tmp_path, {"clock1": "pw1", "venue": "pw"}) as broker:
        broker.port; broker.kill(); broker.start()   # the same port, the same users

The ACL is the one docs/venue.md recommends: a prop (user = its id) may
publish only under PREFIX/ITS_ID/ and read only its own cmd and claim topics;
`venue` (propctl venue) reads everything under the prefix and may write
commands (and, for --forget, statuses, states and Home Assistant configs);
`homeassistant` reads the props and discovery and presses buttons; `admin`
reads and writes everything (the tests' eavesdropper).

Without mosquitto installed the tests that use it skip with a line saying so;
under CI ($PROPS_REQUIRE_MOSQUITTO) they fail instead.
"""
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest
from waits import START_S

ADMIN_PASSWORD = "admin-pw-7Q"

ACL = """\
user admin
topic readwrite #

""" + """\
user venue
topic read {prefix}/#
topic write {prefix}/+/cmd
topic write {prefix}/+/status
topic write {prefix}/+/state
topic readwrite homeassistant/#

user homeassistant
topic readwrite homeassistant/#
topic read {prefix}/#
topic write {prefix}/+/cmd

pattern write {prefix}/%u/#
pattern read {prefix}/%u/cmd
pattern read {prefix}/%u/claim
pattern write homeassistant/+/{prefix}_%u/#
"""
VENUE_ACL = ACL.split("\n\n", 1)[1]  # what docs/venue.md recommends (tests/venue/test_venue_ha.py checks)


def mosquitto_binary():
    """The broker program, or skip (fail under CI) when it is not installed."""
    found = shutil.which("mosquitto") or next(
        (p for p in ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto") if os.access(p, os.X_OK)), None)
    if found is None:
        message = ("venue tests SKIPPED: mosquitto is not installed, so the MQTT leg did not run "
                   "(sudo apt-get install mosquitto, then make test)")
        if os.environ.get("PROPS_REQUIRE_MOSQUITTO"):
            pytest.fail(message.replace("SKIPPED", "cannot run"))
        pytest.skip(message)
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Mosquitto:
    def __init__(self, folder: Path, users: dict, prefix: str = "props", tls=None) -> None:
        """tls: {"cert", "key"} (tls_certs.make_pki): a second listener, tls_port, speaks TLS."""
        self.binary = mosquitto_binary()
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.users = dict(users)
        self.users.setdefault("admin", ADMIN_PASSWORD)
        self.log = self.folder / "mosquitto.log"
        passwd = self.folder / "passwd"
        passwd.write_text("".join("%s:%s\n" % (u, p) for u, p in self.users.items()))
        passwd.chmod(0o600)
        subprocess.run([shutil.which("mosquitto_passwd") or "mosquitto_passwd", "-U", str(passwd)],
                       check=True, capture_output=True)  # hashes the file in place
        acl = self.folder / "acl"
        acl.write_text(ACL.format(prefix=prefix))
        acl.chmod(0o600)
        self.conf = self.folder / "mosquitto.conf"
        self.conf.write_text(
            "listener %d 127.0.0.1\nallow_anonymous false\npassword_file %s\nacl_file %s\n"
            "persistence false\nlog_dest file %s\nlog_type all\nconnection_messages true\n"
            % (self.port, passwd, acl, self.log)
            # as root (CI) mosquitto would switch to the user mosquitto, who cannot read this folder
            + ("user root\n" if os.geteuid() == 0 else ""))
        self.tls_port = None
        if tls is not None:
            self.tls_port = free_port()
            with open(self.conf, "a") as conf:
                conf.write("listener %d 127.0.0.1\ncertfile %s\nkeyfile %s\n"
                           % (self.tls_port, tls["cert"], tls["key"]))
        self._proc = None

    def start(self) -> "Mosquitto":
        self._proc = subprocess.Popen([self.binary, "-c", str(self.conf)], stdout=subprocess.DEVNULL,
                                      stderr=subprocess.PIPE, start_new_session=True)
        deadline = time.monotonic() + START_S
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                if self._proc.poll() is not None:
                    raise RuntimeError("mosquitto ended at start: %s"
                                       % self._proc.stderr.read().decode()) from None
                time.sleep(0.02)
        raise RuntimeError("mosquitto did not listen on port %d" % self.port)

    def kill(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            os.killpg(self._proc.pid, signal.SIGKILL)
            self._proc.wait(timeout=5)

    def stop(self) -> None:
        self.kill()

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def __enter__(self) -> "Mosquitto":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
