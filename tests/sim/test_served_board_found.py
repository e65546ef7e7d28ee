"""`propctl sim serve` announces itself where `--port auto` and `propctl ports` look.

Before: with `propctl sim serve` running, `propctl deploy --port auto --prop clock --board pico
--dry-run` said "found no MicroPython board" (though that very error suggests `propctl sim serve`),
and `propctl ports` never listed it.
"""
import json
import os
import signal
import stat
import subprocess
import sys

import pytest
import sim_serve
from sim_serve import PROPCTL, stop_serve

from propctl.serial_link import announce, ports


@pytest.fixture
def no_usb(monkeypatch):
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: [])


def start_serve(tmp_path):
    proc, lines, port = sim_serve.start_serve(tmp_path / "flash", "(--port auto")
    if port is None:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail("sim serve printed no port: %r" % lines)
    return proc, port, "".join(lines)


def test_deploy_port_auto_finds_a_running_sim_serve_and_forgets_it_when_it_stops(tmp_path, no_usb):
    proc, port, said = start_serve(tmp_path)
    try:
        assert "--port auto and `propctl ports` find it" in said
        folder = announce.runtime_folder()
        files = [name for name in os.listdir(folder) if name.startswith("vboard-")]
        assert files == ["vboard-%d.json" % proc.pid]
        path = os.path.join(folder, files[0])
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
        assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
        assert json.loads(open(path).read())["port"] == port
        # in this process (USB ports faked away) and in a fresh one, as a user types it
        assert ports.resolve_port("auto") == port
        listed = subprocess.run(PROPCTL + ["ports"], capture_output=True, text=True, timeout=60)
        assert any(line.startswith("* " + port) and "sim serve" in line
                   for line in listed.stdout.splitlines()), listed.stdout
        deployed = subprocess.run(PROPCTL + ["deploy", "--port", "auto", "--prop", "clock", "--board",
                                             "pico", "--dry-run"], capture_output=True, text=True,
                                  timeout=180)
        out = deployed.stdout + deployed.stderr
        assert deployed.returncode == 0, out
        assert "found no MicroPython board" not in out
        assert "board mode" in out and "the board stays as it was found (repl)" in out
    finally:
        stop_serve(proc)
    assert proc.returncode == 0
    assert not [name for name in os.listdir(announce.runtime_folder()) if name.startswith("vboard-")]
    with pytest.raises(ports.PortError, match="found no MicroPython board"):
        ports.resolve_port("auto")


def test_a_stale_announcement_is_ignored_and_removed(tmp_path, no_usb):
    folder = announce.runtime_folder(make=True)
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    # a server killed with SIGKILL left its file: its pid is gone (the pty it named may be reused)
    with open(os.path.join(folder, "vboard-%d.json" % dead.pid), "w") as out:
        json.dump({"port": "/dev/tty", "pid": dead.pid}, out)
    # a live pid whose port is gone
    with open(os.path.join(folder, "vboard-%d.json" % os.getpid()), "w") as out:
        json.dump({"port": str(tmp_path / "pts-gone"), "pid": os.getpid()}, out)
    # not an announcement at all
    with open(os.path.join(folder, "vboard-1.json"), "w") as out:
        out.write("[1, 2")
    assert announce.served_boards() == []
    with pytest.raises(ports.PortError, match="found no MicroPython board"):
        ports.resolve_port("auto")
    assert sorted(os.listdir(folder)) == ["vboard-1.json"]


def test_a_live_announcement_is_found_a_real_board_first(tmp_path, monkeypatch):
    folder = announce.runtime_folder(make=True)
    path = announce.announce("/dev/tty")
    assert path is not None and os.path.dirname(path) == folder
    assert announce.served_boards() == [("/dev/tty", os.getpid())]
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: [])
    assert ports.resolve_port("auto") == "/dev/tty"
    from types import SimpleNamespace
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: [
        SimpleNamespace(device="/dev/ttyACM0", vid=0x2E8A, pid=5, description="Board")])
    assert ports.resolve_port("auto") == "/dev/ttyACM0"
    announce.withdraw(path)
    assert announce.served_boards() == []


def test_a_runtime_folder_others_may_write_is_not_used(tmp_path, monkeypatch):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(shared))
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    mine = str(tmp_path / "tmp" / ("propctl-%d" % os.getuid()))
    # XDG_RUNTIME_DIR writable by all: the user's own folder in the temp folder instead
    assert announce.runtime_folder(make=True) == mine
    assert stat.S_IMODE(os.stat(mine).st_mode) == 0o700
    # and that one opened to others (or someone else's): no announcement at all
    os.chmod(mine, 0o777)
    assert announce.runtime_folder() is None and announce.announce("/dev/tty") is None
    assert announce.served_boards() == []
