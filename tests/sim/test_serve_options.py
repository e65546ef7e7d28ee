"""`propctl sim serve`: its paths are checked before the board is made, and a board that cannot
come up stops with its reason.

Before: `--link FILE` or `--link DIR` was a FileExistsError traceback, `--link /missing/d/p` a
FileNotFoundError one, `--flash FILE` or `--flash /dev/null` FileExistsError; `--heap abc` (0, 100)
was taken and the log said 'process ended (code 1), resetting' 4-5 times a second forever.
"""
import os
import signal
import subprocess
import sys

import pytest

PROPCTL = [sys.executable, "-m", "propctl.cli"]


def serve(*args, env=None, timeout=15):
    proc = subprocess.Popen(PROPCTL + ["sim", "serve", *args], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, **(env or {})), start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the server and its board process
        out, err = proc.communicate()
        raise AssertionError("still serving after %d s: %s\n%s" % (timeout, args, err[-600:])) from None
    return proc.returncode, out, err


@pytest.mark.parametrize("option, place, words", [
    ("--link", "file", "--link {p} is already there (a file)"),
    ("--link", "folder", "--link {p} is already there (a folder)"),
    ("--link", "missing/d/p", "--link {p}: the folder {tmp}/missing/d does not exist"),
    ("--flash", "file", "--flash {p} is a file, not a folder"),
    ("--flash", "/dev/null", "--flash {p} is a device, not a folder"),
    ("--flash", "fifo", "--flash {p} is a pipe (FIFO), not a folder"),
])
def test_a_path_serve_cannot_use_is_refused_before_the_board_is_made(option, place, words, tmp_path):
    (tmp_path / "file").write_text("mine")
    (tmp_path / "folder").mkdir()
    os.mkfifo(tmp_path / "fifo")
    path = place if place.startswith("/") else str(tmp_path / place)
    code, out, err = serve(option, path)
    assert code == 2, err
    assert "propctl sim serve: " + words.format(p=path, tmp=tmp_path) in err
    assert "Traceback" not in err and "virtual board on" not in out
    assert (tmp_path / "file").read_text() == "mine"


def test_a_board_that_ends_at_once_again_and_again_stops_with_its_reason(tmp_path):
    # a MicroPython that cannot start: what a heap too small or a broken interpreter does
    fake = tmp_path / "micropython"
    fake.write_text("#!/bin/sh\necho 'MemoryError: memory allocation failed' >&2\nexit 1\n")
    fake.chmod(0o755)
    code, out, err = serve("--flash", str(tmp_path / "flash"), env={"MICROPYTHON": str(fake)})
    assert code == 1
    last = err.strip().splitlines()[-1]
    assert last.startswith("propctl sim serve: the board process ended within 1 s of its boot")
    assert "times in a row (last exit code 1): MemoryError: memory allocation failed" in last
    assert err.count("resetting") < 10
