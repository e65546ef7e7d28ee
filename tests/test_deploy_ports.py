"""`propctl ports`: likely boards first, a helpful message when there is none."""
from types import SimpleNamespace

from propctl import ports
from propctl.cli import main


def fake_port(device, vid=None, pid=None, description="n/a"):
    return SimpleNamespace(device=device, vid=vid, pid=pid, description=description)


def test_likely_boards_come_first_and_are_marked(monkeypatch, capsys):
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: [
        fake_port("/dev/ttyS0"),
        fake_port("/dev/ttyUSB0", 0x10C4, 0xEA60, "CP2102 USB to UART"),
        fake_port("/dev/ttyACM0", 0x2E8A, 0x0005, "Board in FS mode"),
    ])
    assert [row[0] for row in ports.candidates()] == ["/dev/ttyACM0", "/dev/ttyUSB0", "/dev/ttyS0"]
    assert main(["ports"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("* /dev/ttyACM0") and "Raspberry Pi" in lines[0]
    assert lines[2].startswith("  /dev/ttyS0")


def test_no_ports_says_what_to_check(monkeypatch, capsys):
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: [])
    assert main(["ports"]) == 1
    out = capsys.readouterr().out
    assert "dialout" in out and "propctl sim serve" in out
