"""A --port that names no serial port, or a REPL asked for without a terminal: one plain
sentence and an exit code, before anything is sent to a board.

Before: `--port /dev/null` (or a FIFO, a file) said pyserial's own words, "Could not
configure port: (25, 'Inappropriate ioctl for device')", and `propctl repl` with its input
not a terminal went through the maintenance hand-off and ended in mpremote's termios.error
traceback."""
import os
from pathlib import Path

import pytest

from propctl.cli import main


def run(argv, capsys):
    code = main(argv)
    err = capsys.readouterr().err
    return code, " ".join(err.split())


DECK = Path(__file__).resolve().parents[2] / "host_tools/propctl/data/decks/taskcards.en.csv"


@pytest.fixture(scope="module")
def pack(tmp_path_factory):
    path = tmp_path_factory.mktemp("pack") / "taskcards.bin"
    assert main(["cards", "pack", str(DECK), "-o", str(path)]) == 0
    return str(path)


@pytest.mark.parametrize("command", [["monitor"], ["selftest", "--non-interactive"],
                                     ["deploy", "--cards", "PACK"]])
@pytest.mark.parametrize("kind", ["device", "file", "fifo", "folder"])
def test_a_port_that_is_no_serial_port_says_so(command, kind, tmp_path, capsys, pack):
    command = [pack if word == "PACK" else word for word in command]
    path = {"device": "/dev/null", "file": str(tmp_path / "f"), "fifo": str(tmp_path / "p"),
            "folder": str(tmp_path)}[kind]
    if kind == "file":
        open(path, "w").close()
    if kind == "fifo":
        os.mkfifo(path)
    code, err = run(command + ["--port", path], capsys)
    assert code == 1, err
    assert "is not a serial port" in err, err
    assert "ioctl" not in err and "Errno" not in err, err


def test_the_repl_without_a_terminal_says_so_before_touching_the_board(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin.isatty", lambda: False, raising=False)
    code, err = run(["repl", "--port", "/dev/null"], capsys)
    assert code == 2, err
    assert "needs a terminal" in err and "--print" in err, err
