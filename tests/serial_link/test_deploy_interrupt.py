"""Ctrl-C during `propctl deploy`: one line saying what the board was left with and what to do.

The board's side is a stand-in here (the served virtual board's deploys are in
test_deploy_e2e.py); what is tested is which message each step's Ctrl-C gives.
"""
import pytest

from propctl import deploy
from propctl.cli import main
from propctl.serial_link import flash

PORT = "/dev/ttyFAKE0"


class Board:
    """Stands in for BoardFiles: an empty flash; Ctrl-C comes with the first file written."""

    opened = 0

    def __init__(self, port):
        Board.opened += 1
        self.written = []

    def read(self, path):
        return None

    def sizes(self, paths):
        return {}

    def make_dirs(self, paths):
        pass

    def write(self, path, data, progress=None):
        raise KeyboardInterrupt

    def write_atomic(self, path, data):
        self.written.append(path)

    def remove(self, path):
        pass

    def reset_and_close(self):
        pass

    def close(self):
        pass


@pytest.fixture
def board(monkeypatch):
    Board.opened = 0
    monkeypatch.setattr(flash, "BoardFiles", Board)
    monkeypatch.setattr(flash, "request_maintenance", lambda port, say: "run")
    monkeypatch.setattr(flash, "check_board", lambda files, board, say: None)
    monkeypatch.setattr(deploy, "firmware_files",
                        lambda board, progress=None, root=None: {"main.py": b"pass\n"})
    monkeypatch.setattr(deploy, "incomplete_firmware", lambda local, prop: None)
    return Board


def run(capsys, *extra):
    code = main(["deploy", "--port", PORT, "--prop", "clock", "--board", "pico", *extra])
    return code, capsys.readouterr().err


def test_ctrl_c_while_compiling_says_the_board_was_not_touched(board, capsys, monkeypatch):
    def interrupted(board, progress=None, root=None):
        raise KeyboardInterrupt
    monkeypatch.setattr(deploy, "firmware_files", interrupted)
    code, err = run(capsys)
    assert code == 130
    assert err == "propctl deploy: interrupted before the board was touched: it runs as before\n"
    assert board.opened == 0


def test_ctrl_c_while_copying_says_to_run_the_same_deploy_again(board, capsys):
    code, err = run(capsys)
    assert code == 130
    assert err.startswith("propctl deploy: interrupted while deploying to %s: " % PORT)
    assert "no prop runs" in err and "Run the same deploy again" in err
    assert err.count("\n") == 1


def test_ctrl_c_during_a_dry_run_says_no_file_was_copied(board, capsys, monkeypatch):
    monkeypatch.setattr(Board, "remove", lambda self, path: (_ for _ in ()).throw(KeyboardInterrupt))
    code, err = run(capsys, "--dry-run")
    assert code == 130
    assert err.startswith("propctl deploy: interrupted during the dry run on %s: nothing was copied" % PORT)


def test_ctrl_c_while_waiting_for_the_prop_says_how_to_look(board, capsys, monkeypatch):
    monkeypatch.setattr(Board, "write", lambda self, path, data, progress=None: None)

    def waiting(port, prop, say=None):
        raise KeyboardInterrupt
    monkeypatch.setattr(deploy, "confirm_running", waiting)
    code, err = run(capsys)
    assert code == 130
    assert err == ("propctl deploy: interrupted while waiting for the board: every file was copied and "
                   "the board was reset; `propctl monitor --port %s` shows whether the prop runs\n" % PORT)
