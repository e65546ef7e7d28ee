"""The rules of writing a board's flash (propctl.serial_link.flash), each step's, on a stand-in board.

The stand-in keeps its files in a dict and records what was done to it; the
served virtual board's real deploys are in test_deploy_e2e.py.
"""
import json

import pytest

from propctl.serial_link import flash
from propctl.serial_link.files import MAINTENANCE_FLAG, RECORD, sha256


class Flash:
    """Stands in for BoardFiles: files in a dict, every write and reset recorded."""

    files: dict = {}
    log: list = []
    cut_at = None  # a path whose write is cut short by a Ctrl-C, half written

    def __init__(self, port):
        pass

    def read(self, path):
        return Flash.files.get(path)

    def sizes(self, paths):
        return {p: len(Flash.files[p]) if p in Flash.files else -1 for p in paths}

    def make_dirs(self, paths):
        pass

    def write(self, path, data, progress=None):
        if path == Flash.cut_at:
            Flash.files[path] = data[:len(data) // 2]
            raise KeyboardInterrupt
        Flash.files[path] = data
        Flash.log.append(("write", path))

    def write_atomic(self, path, data):
        Flash.files[path] = data
        Flash.log.append(("write", path))

    def remove(self, path):
        Flash.files.pop(path, None)
        Flash.log.append(("remove", path))

    def reset_and_close(self):
        Flash.log.append(("reset",))

    def close(self):
        Flash.log.append(("close",))


@pytest.fixture
def board(monkeypatch):
    Flash.files, Flash.log, Flash.cut_at = {}, [], None
    monkeypatch.setattr(flash, "BoardFiles", Flash)
    monkeypatch.setattr(flash, "check_board", lambda files, board, say: None)
    return Flash


def found_in(monkeypatch, mode):
    monkeypatch.setattr(flash, "request_maintenance", lambda port, say: mode)


def deploy(local, dry_run=False):
    return flash.write_board("/dev/ttyFAKE0", local, "firmware", board="pico", dry_run=dry_run,
                             new_config=lambda old: ('{"prop": "clock"}\n', []), say=lambda text: None)


def record():
    return json.loads(Flash.files[RECORD])["files"]


@pytest.mark.parametrize("mode", ["maintenance", "safe", "repl"])
def test_a_dry_run_leaves_a_board_it_found_stopped_as_it_was(board, monkeypatch, mode):
    # e.g. `propctl repl` put it in maintenance: a dry run must not start the prop behind its back
    found_in(monkeypatch, mode)
    board.files[MAINTENANCE_FLAG] = b""
    summary = deploy({"main.py": b"new"}, dry_run=True)
    assert summary["copied"] == ["main.py"]
    assert board.log == [("close",)]
    assert MAINTENANCE_FLAG in board.files and "main.py" not in board.files


def test_a_dry_run_restarts_the_prop_it_stopped(board, monkeypatch):
    found_in(monkeypatch, "run")
    board.files[MAINTENANCE_FLAG] = b""
    deploy({"main.py": b"new"}, dry_run=True)
    assert board.log == [("remove", MAINTENANCE_FLAG), ("reset",)]
    assert "main.py" not in board.files


def test_a_first_deploy_writes_the_record_once_after_the_files(board, monkeypatch):
    found_in(monkeypatch, "repl")
    deploy({"main.py": b"boot", "lib/a.mpy": b"A"})
    writes = [entry[1] for entry in board.log if entry[0] == "write"]
    assert writes.count(RECORD) == 1
    assert writes.index(RECORD) > max(writes.index("main.py"), writes.index("lib/a.mpy"))
    assert writes.index("config.json") > writes.index(RECORD)
    assert record()["lib/a.mpy"] == {"sha256": sha256(b"A"), "size": 1, "kind": "firmware"}
    assert board.log[-1] == ("reset",)


def test_a_deploy_cut_short_never_trusts_the_half_written_file_not_even_for_the_old_version(
        board, monkeypatch):
    found_in(monkeypatch, "repl")
    old = {"main.py": b"boot", "lib/a.mpy": b"old!"}
    deploy(old)
    board.cut_at = "lib/a.mpy"
    with pytest.raises(KeyboardInterrupt):
        deploy({"main.py": b"boot", "lib/a.mpy": b"new!new!"})
    # half of the new file, as long as the old one: by size, the old record would vouch for it
    assert board.files["lib/a.mpy"] == b"new!"
    assert "lib/a.mpy" not in record() and "main.py" in record()
    board.cut_at = None
    summary = deploy(old)
    assert summary["copied"] == ["lib/a.mpy"]
    assert board.files["lib/a.mpy"] == b"old!"
