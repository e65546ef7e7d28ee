"""`propctl ports`: likely boards first, a helpful message when there is none."""
from types import SimpleNamespace

from propctl.cli import main
from propctl.serial_link import ports


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
    assert "dialout" in out and "propctl sim serve" in out and "BOOTSEL" in out


def test_no_likely_board_says_what_to_do(monkeypatch, capsys):
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: [fake_port("/dev/ttyS0")])
    assert main(["ports"]) == 0
    out = capsys.readouterr().out
    assert "none of these looks like a MicroPython board" in out and "BOOTSEL" in out


def test_port_auto_picks_the_first_likely_board_or_says_none_was_found(monkeypatch, capsys):
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: [
        fake_port("/dev/ttyS0"), fake_port("/dev/ttyACM1", 0x2E8A, 0x0005)])
    assert ports.resolve_port("auto") == "/dev/ttyACM1"
    assert ports.resolve_port("/dev/ttyUSB3") == "/dev/ttyUSB3"
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: [fake_port("/dev/ttyS0")])
    assert main(["deploy", "--port", "auto", "--prop", "clock", "--board", "pico"]) == 1
    assert main(["monitor", "--port", "auto", "--timeout", "0.1"]) == 1
    err = capsys.readouterr().err
    assert err.count("--port auto found no MicroPython board") == 2 and "Traceback" not in err


def test_every_board_command_takes_port_auto(monkeypatch, capsys):
    # Before: README's `propctl selftest --port auto` said 'cannot open auto: No such file or
    # directory' (only deploy and monitor knew auto); repl the same
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: [])
    for command in (["selftest"], ["repl"], ["monitor"]):
        assert main(command + ["--port", "auto"]) == 1
        err = " ".join(capsys.readouterr().err.split())
        assert "--port auto found no MicroPython board" in err, (command, err)
        assert "cannot open auto" not in err
    opened = []
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: [
        fake_port("/dev/ttyACM7", 0x2E8A, 0x0005, "Board in FS mode")])
    from propctl.serial_link import selftest
    monkeypatch.setattr(selftest, "run", lambda args: opened.append(args.port) or 0)
    assert main(["selftest", "--port", "auto"]) == 0
    assert opened == ["/dev/ttyACM7"]
