"""What `propctl` says when MICROPYTHON names no interpreter (propctl.launcher.find_micropython):
one line that says what is wrong with the value and what to do, never a traceback; a bare command
name is looked up on PATH like any command."""
import os
import subprocess
import sys

import pytest

from propctl import launcher


def sim_clock(value):
    env = dict(os.environ, MICROPYTHON=value)
    return subprocess.run([sys.executable, "-m", "propctl.cli", "sim", "clock", "--seed", "1",
                           "--non-interactive", "--mute"],
                          capture_output=True, text=True, timeout=120, env=env, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("case", ["missing", "folder", "not executable"])
def test_a_bad_micropython_gives_one_line_that_says_what_to_do(tmp_path, case):
    if case == "missing":
        value, said = str(tmp_path / "nowhere" / "micropython"), "names no such file"
    elif case == "folder":
        value, said = str(tmp_path), "is a folder"
    else:
        value, said = str(tmp_path / "micropython"), "not executable"
        (tmp_path / "micropython").write_text("#!/bin/sh\n")
    done = sim_clock(value)
    assert done.returncode == 1 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    line = lines[0]
    assert line.startswith("propctl sim clock: MICROPYTHON=%s" % value) and said in line, line
    assert "unset MICROPYTHON" in line and "make setup" in line, line


def test_a_bare_name_is_looked_up_on_path(tmp_path, monkeypatch):
    program = tmp_path / "mp-unix"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path) + os.pathsep + os.environ.get("PATH", ""))
    monkeypatch.setenv("MICROPYTHON", "mp-unix")
    assert launcher.find_micropython() == str(program)
    monkeypatch.setenv("MICROPYTHON", "no-such-program-here")
    with pytest.raises(launcher.MicroPythonNotFound, match="not on PATH"):
        launcher.find_micropython()


def test_unset_and_nowhere_to_be_found_says_make_setup(tmp_path, monkeypatch):
    monkeypatch.delenv("MICROPYTHON", raising=False)
    monkeypatch.setattr(launcher, "REPO_ROOT", tmp_path)
    monkeypatch.setattr(launcher.sys, "executable", str(tmp_path / "bin" / "python"))
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(launcher.MicroPythonNotFound) as caught:
        launcher.find_micropython()
    assert "make setup" in str(caught.value) and "MICROPYTHON=" in str(caught.value)
