"""`propctl sim --broker` processes as a venue owner runs them.

    8   two sims given one --id are two boards: the newcomer reports id_taken and stands
        back, the first stays online (before: one client id for both, so the broker
        dropped one for the other, status flipping offline/online, no id_taken)
    10  a SIGKILLed `propctl sim` takes its firmware with it (before: the firmware stayed
        online, answering with OSError 32), leaves no file with the password (before:
        /tmp/netprop-*/config.json) and never had it in the firmware's environment
"""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from mosquitto_broker import Mosquitto
from venue_helpers import Listener
from waits import WAIT_S

PROPCTL = str(Path(sys.executable).parent / "propctl")
PW = "sim-Pw-9xQ"


@pytest.fixture
def broker(tmp_path):
    with Mosquitto(tmp_path / "broker", {"same": PW}) as b:
        yield b


def sim(broker, log, prop_id="same"):
    env = dict(os.environ, PROPCTL_MQTT_PASSWORD=PW)
    return subprocess.Popen([PROPCTL, "sim", "clock", "--broker", "mqtt://same@127.0.0.1:%d" % broker.port,
                             "--id", prop_id], stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                            env=env)


def children(pid: int) -> list:
    found = []
    for task in Path("/proc/%d/task" % pid).iterdir():
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return found


def alive(pid: int) -> bool:
    try:
        state = Path("/proc/%d/stat" % pid).read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_two_sims_on_one_id_meet_as_two_boards(broker, tmp_path):
    listener = Listener(broker.port)
    first = sim(broker, open(tmp_path / "first.log", "w"))
    second = None
    try:
        assert listener.wait(lambda t, p, r: t == "props/same/status" and p == b"online", WAIT_S)
        time.sleep(2.5)  # net.venue.CLAIM_WINDOW_MS has passed: the first is the incumbent
        start = listener.count()
        second = sim(broker, open(tmp_path / "second.log", "w"))
        deadline = time.monotonic() + WAIT_S
        while "another prop is on the broker as same" not in (tmp_path / "second.log").read_text():
            assert time.monotonic() < deadline, (tmp_path / "second.log").read_text()
            time.sleep(0.1)
        time.sleep(3)
        statuses = [p for _, t, p, _ in listener.messages[start:] if t == "props/same/status"]
        assert b"offline" not in statuses, statuses  # before: offline/online ten times in ten seconds
        assert first.poll() is None and second.poll() is None
        first_log = (tmp_path / "first.log").read_text()
        assert "id_conflict" in first_log or "another prop tried to use same" in first_log, first_log
    finally:
        for process in (first, second):
            if process is not None and process.poll() is None:
                process.terminate()
                process.wait(timeout=10)
        listener.close()


def test_a_sigkilled_sim_takes_its_firmware_and_leaves_no_password(broker, tmp_path):
    listener = Listener(broker.port)
    process = sim(broker, open(tmp_path / "sim.log", "w"))
    firmware = None
    try:
        assert listener.wait(lambda t, p, r: t == "props/same/status" and p == b"online", WAIT_S)
        kids = children(process.pid)
        assert len(kids) == 1, kids
        firmware = kids[0]
        assert b"micropython" in Path("/proc/%d/cmdline" % firmware).read_bytes()
        environ = Path("/proc/%d/environ" % firmware).read_bytes()
        assert PW.encode() not in environ and b"PROPCTL_MQTT_PASSWORD" not in environ
        folder = Path(os.readlink("/proc/%d/cwd" % firmware))
        assert folder.name.startswith("netprop-")
        config = folder / "config.json"
        assert config.is_fifo()  # the password never rests in a file (the firmware read it at boot)
        start = listener.count()
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=5)
        deadline = time.monotonic() + WAIT_S
        while alive(firmware):
            assert time.monotonic() < deadline, "the firmware outlived its sim"
            time.sleep(0.02)
        # the broker sees it go: the will
        assert listener.wait(lambda t, p, r: t == "props/same/status" and p == b"offline", 10, start)
        for path in (folder.rglob("*") if folder.exists() else []):
            if path.is_file():
                assert PW.encode() not in path.read_bytes(), path
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        if firmware is not None and alive(firmware):
            os.kill(firmware, signal.SIGKILL)
        listener.close()
