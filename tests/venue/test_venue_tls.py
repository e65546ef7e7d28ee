"""TLS to the broker, on the board (the firmware under the unix port: its
ssl module, mbedtls) and on the desktop (paho), against the private Mosquitto on a TLS
listener with a CA and a certificate the test makes with openssl.

Before: `mqtts://` was refused; a prop pointed at a TLS port sent its login, password
included, in clear text and looped on ECONNRESET.
"""
import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from mosquitto_broker import Mosquitto
from tls_certs import make_pki
from venue_helpers import Listener, request
from waits import WAIT_S

from propctl.venue.netprop import NetProp

PROPCTL = str(Path(sys.executable).parent / "propctl")
PW = "tls-Pw-4Rt"


@pytest.fixture
def pki(tmp_path):
    return make_pki(tmp_path / "pki")


@pytest.fixture
def broker(tmp_path, pki):
    with Mosquitto(tmp_path / "broker", {"t1": PW, "venue": "venue-pw"}, tls=pki) as b:
        yield b


def tls_prop(broker, ca, **kw):
    return NetProp("clock", "127.0.0.1", broker.tls_port, "t1", user="t1", password=PW, ca_file=ca,
                   settings={"clock": {"max_run_ms": 1500}}, **kw)


def propctl(*args, password="venue-pw"):
    env = dict(os.environ, PROPCTL_MQTT_PASSWORD=password)
    return subprocess.run([PROPCTL, *args], capture_output=True, text=True, env=env, timeout=30,
                          stdin=subprocess.DEVNULL)


def test_a_round_over_mqtts_with_the_test_ca(broker, pki):
    listener = Listener(broker.port)  # the plain listener: the same broker, the same topics
    with tls_prop(broker, pki["ca"]) as prop:
        online = listener.wait(lambda t, p, r: t == "props/t1/status" and p == b"online", WAIT_S)
        assert online, prop.net_events()
        reply = request(listener, "t1", 5, "start_round")
        assert reply is not None and reply["ok"]["state"] == "running", reply
        assert prop.wait_event(lambda e: e["ev"] == "stop", WAIT_S)
        assert prop.net_events("up")[0]["broker"] == "127.0.0.1:%d" % broker.tls_port
        # the desktop over TLS too: the table and a command
        url = "mqtts://venue@127.0.0.1:%d" % broker.tls_port
        done = propctl("venue", "--broker", url, "--ca-file", str(pki["ca"]), "--seconds", "0.5")
        assert done.returncode == 0, done.stderr
        assert any(line.split()[:3] == ["t1", "clock", "online"] for line in done.stdout.splitlines())
        done = propctl("venue", "--broker", url, "--ca-file", str(pki["ca"]), "--send", "t1", "ping")
        assert done.returncode == 0 and json.loads(done.stdout)["ok"] == {"pong": True}, done
    listener.close()
    assert "New client connected" in broker.log_text()


def test_a_wrong_ca_is_refused_with_a_clear_line_and_nothing_in_the_clear(broker, tmp_path):
    other = make_pki(tmp_path / "other", ca_name="some other CA")
    listener = Listener(broker.port)
    with tls_prop(broker, other["ca"]) as prop:
        lost = prop.wait_event(lambda e: e["ev"] == "net" and e["data"]["state"] == "lost", WAIT_S)
        assert lost is not None, prop.events[-5:]
        assert "TLS handshake with the broker failed" in lost["data"]["why"], lost
        assert "certificate was refused" in lost["data"]["why"], lost
        assert not listener.wait(lambda t, p, r: t == "props/t1/status" and p == b"online", 1)
    listener.close()
    url = "mqtts://venue@127.0.0.1:%d" % broker.tls_port
    done = propctl("venue", "--broker", url, "--ca-file", str(other["ca"]), "--seconds", "0")
    assert done.returncode == 1
    assert "TLS failed: its certificate was refused: not signed by the CA in" in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_certificate_for_another_name_is_refused(tmp_path):
    wrong = make_pki(tmp_path / "wrong", names=("DNS:broker.other.example",))
    with Mosquitto(tmp_path / "broker", {"t1": PW, "venue": "venue-pw"}, tls=wrong) as broker:
        with tls_prop(broker, wrong["ca"]) as prop:  # the right CA, the wrong name
            lost = prop.wait_event(lambda e: e["ev"] == "net" and e["data"]["state"] == "lost", WAIT_S)
            assert lost is not None and "TLS handshake with the broker failed" in lost["data"]["why"], lost
            assert not prop.net_events("up")
        done = propctl("venue", "--broker", "mqtts://venue@127.0.0.1:%d" % broker.tls_port,
                       "--ca-file", str(wrong["ca"]), "--seconds", "0")
        assert done.returncode == 1 and "not made for this host name" in done.stderr, done.stderr


class Recorder:
    """A TCP server that records what a client sends first (and answers nothing)."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(4)
        self.port = self.sock.getsockname()[1]
        self.received = b""
        self.connections = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            conn.settimeout(2)
            try:
                while True:
                    data = conn.recv(4096)
                    if not data:
                        break
                    self.received += data
            except OSError:
                pass
            conn.close()

    def close(self) -> None:
        self.sock.close()


def test_no_clear_text_login_with_tls_and_none_at_all_without_a_ca(pki, tmp_path):
    recorder = Recorder()
    try:
        prop = NetProp("clock", "127.0.0.1", recorder.port, "t1", user="t1", password=PW, ca_file=pki["ca"])
        with prop:
            deadline = time.monotonic() + WAIT_S
            while not recorder.received and time.monotonic() < deadline:
                time.sleep(0.05)
            assert recorder.received[:1] == b"\x16", recorder.received[:16]  # a TLS handshake record
            assert PW.encode() not in recorder.received and b"MQTT" not in recorder.received
        # net.tls with a CA file that is not there: no connection at all, never in the clear
        before = recorder.connections
        bad = NetProp("clock", "127.0.0.1", recorder.port, "t1", user="t1", password=PW,
                      net={"tls": True, "ca": "missing.pem"})
        with bad:
            lost = bad.wait_event(lambda e: e["ev"] == "net" and e["data"]["state"] == "lost", WAIT_S)
            assert lost is not None and "net.ca missing.pem cannot be read" in lost["data"]["why"], lost
            time.sleep(0.5)
        assert recorder.connections == before
        assert PW.encode() not in recorder.received
    finally:
        recorder.close()


def test_the_desktop_says_what_to_do(broker, pki):
    # plain mqtt:// at the TLS port: a hint instead of a bare "did not answer"
    done = propctl("venue", "--broker", "mqtt://venue@127.0.0.1:%d" % broker.tls_port, "--seconds", "0")
    assert done.returncode == 1 and "if that port speaks TLS, write mqtts://" in done.stderr, done.stderr
    done = propctl("venue", "--broker", "mqtts://venue@127.0.0.1:%d" % broker.port, "--ca-file",
                   str(pki["ca"]), "--seconds", "0")
    assert done.returncode == 1 and "no TLS on that port" in done.stderr, done.stderr
    done = propctl("sim", "clock", "--broker", "mqtts://t1@127.0.0.1:%d" % broker.tls_port, "--id", "t1")
    assert done.returncode == 2 and "--ca-file" in done.stderr
    done = propctl("venue", "--broker", "mqtt://venue@127.0.0.1:%d" % broker.port, "--ca-file",
                   str(pki["ca"]), "--seconds", "0")
    assert done.returncode == 1 and "--ca-file is for TLS" in done.stderr
