"""Files a person names for output (`sim --wav`, `sim clock --picture`, `plan --svg`) are checked
before the work that fills them, by one check (propctl.atomic.check_output).

Before: the round was played, then a traceback lost it (a missing folder, a folder, /dev/full,
a link to it); a FIFO hung forever after the round, deaf to SIGTERM; `plan --svg -` wrote a file
named '-' and `plan --svg /proc/version` said 'No such file or directory'.
"""
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROPCTL = [sys.executable, "-m", "propctl.cli"]


def propctl(*args, stdin="", timeout=30, cwd=None):
    """Run propctl; a run still going after `timeout` gets SIGTERM (then 5 s more) and fails the test."""
    env = dict(os.environ, CI="1")
    proc = subprocess.Popen(PROPCTL + list(args), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, cwd=str(cwd or ROOT))
    try:
        out, err = proc.communicate(stdin, timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGTERM)
        try:
            out, err = proc.communicate(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            raise AssertionError("still running %d s after SIGTERM: %s" % (5, args)) from None
        raise AssertionError("still running after %d s (ended on SIGTERM): %s\n%s"
                             % (timeout, args, err)) from None
    return subprocess.CompletedProcess(args, proc.returncode, out, err)


@pytest.fixture
def places(tmp_path):
    """Output paths that cannot take a file, by name, and the words that must say why."""
    (tmp_path / "folder").mkdir()
    os.mkfifo(tmp_path / "fifo")
    os.symlink("/dev/full", tmp_path / "to-full")
    missing = "the folder %s does not exist" % (tmp_path / "missing")
    return {"missing folder": (tmp_path / "missing" / "x", missing),
            "folder": (tmp_path / "folder", "is a directory, not a regular file"),
            "FIFO": (tmp_path / "fifo", "is a pipe (FIFO), not a regular file"),
            "/dev/full": (Path("/dev/full"), "is a device, not a regular file"),
            "link to /dev/full": (tmp_path / "to-full", "is a device, not a regular file"),
            "/proc": (Path("/proc/propctl-test.wav"), "the folder /proc takes no new files")}


SIMS = {"clock --wav": ["sim", "clock", "--seed", "3", "--wav"],
        "clock --picture": ["sim", "clock", "--seed", "3", "--picture"],
        "football --wav": ["sim", "football", "--seed", "3", "--wav"],
        "fusebox --wav": ["sim", "fusebox", "--script", "-", "--wav"]}


PLACES = ["missing folder", "folder", "FIFO", "/dev/full", "link to /dev/full", "/proc"]


# every place for one sim, the two worst (lost round, hang) for the others: the same check
@pytest.mark.parametrize("sim, place", [("clock --wav", place) for place in PLACES]
                         + [(sim, place) for sim in sorted(SIMS) if sim != "clock --wav"
                            for place in ("missing folder", "FIFO")])
def test_a_sim_refuses_an_output_that_cannot_be_written_before_it_runs(sim, place, places):
    path, reason = places[place]
    done = propctl(*SIMS[sim], str(path), stdin="open 1\n", timeout=20)
    assert done.returncode == 2, done.stderr
    assert "%s: %s; nothing was run" % (path, reason) in done.stderr
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr
    assert "done:" not in done.stdout and "> open 1" not in done.stdout  # refused before the run


def test_a_sim_refuses_standard_output_as_its_file():
    done = propctl("sim", "clock", "--seed", "3", "--wav", "-")
    assert done.returncode == 2 and "--wav -: standard output carries the run's log" in done.stderr


def test_a_wav_that_cannot_be_written_at_the_end_is_one_line_not_a_traceback(tmp_path):
    # checked before the run, the place can still change during it (here: a folder appears)
    from propctl.sound import Piezo
    piezo = Piezo(mute=True, wav=str(tmp_path / "late"), bell=None, pause_ms=500, lead_ms=100)
    piezo.change({"t": 0, "what": "freq", "value": 440})
    piezo.change({"t": 0, "what": "duty", "value": 512})
    piezo.change({"t": 200, "what": "duty", "value": 0})
    (tmp_path / "late").mkdir()
    piezo.finish()
    assert piezo.wav_problem == "cannot write the recording %s: is a directory, not a regular file" % (
        tmp_path / "late")


def test_the_sims_still_write_their_files(tmp_path):
    done = propctl("sim", "clock", "--seed", "3", "--wav", str(tmp_path / "r.wav"),
                   "--picture", str(tmp_path / "r.svg"))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "r.wav").read_bytes()[:4] == b"RIFF"
    assert (tmp_path / "r.svg").read_text().startswith("<svg")


def test_plan_svg_dash_is_standard_output_and_no_file_named_dash(tmp_path):
    done = propctl("plan", "--seed", "3", "--svg", "-", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("<svg") and done.stdout.rstrip().endswith("</svg>")
    assert "stop after" in done.stderr  # the table, out of the picture's way
    assert os.listdir(tmp_path) == []


def test_plan_svg_in_proc_says_why():
    done = propctl("plan", "--seed", "3", "--svg", "/proc/version")
    assert done.returncode == 2
    assert "No such file" not in done.stderr
    assert done.stderr.startswith("propctl plan: cannot write the picture /proc/version: ")
    assert done.stdout == ""  # refused before the table


@pytest.mark.parametrize("name, reason", [("", "an empty name is no file name"),
                                          ("out/", "names a folder, not a file"),
                                          ("-", "'-' is standard output, which takes no file here; "
                                                "name a file (./- for one called '-')")])
def test_names_that_are_no_file(name, reason, tmp_path, monkeypatch):
    from propctl.atomic import output_problem
    monkeypatch.chdir(tmp_path)
    assert output_problem(name) == reason
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("argv", [["cards", "pack", "--lang", "en", "-o", "-"],
                                  ["play", "fingerfootball", "--save", "-"]])
def test_no_file_called_dash_is_written(argv, tmp_path):
    # before: both wrote a file named '-' (the pack, the game) where '-' means standard output
    done = propctl(*argv, cwd=tmp_path)
    assert done.returncode in (1, 2) and "'-' is standard output" in done.stderr + done.stdout
    assert os.listdir(tmp_path) == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write a read-only file")
def test_a_read_only_file_is_refused_not_replaced(tmp_path):
    target = tmp_path / "keep.svg"
    target.write_text("mine")
    target.chmod(0o444)
    from propctl.atomic import output_problem
    assert output_problem(target) == "is read-only"
