"""Every `propctl` command's options, fuzzed: no traceback, no hang, only the exit codes it promises.

The commands and their options are read from the CLI's own parser, so a command added later
is fuzzed too. For each, seeded cases draw options and values: numbers at and beside their
range's ends and not numbers at all, choices and non-choices, and for every text option and
file argument paths of every kind (missing, a missing folder, a folder, a FIFO, /dev/null,
/dev/full, /dev/zero, a link to /dev/full, a dangling link, /proc/version, '-', '') and odd
text (ESC, CJK, 3,000 characters, '='). A case argparse refuses is checked in-process (exit 2,
no traceback); PER_COMMAND cases it takes per command run as a real `propctl` process, which
must end by itself within LIMIT_S with 0, 1, 2 or 130 (a command that runs until stopped, such
as a server, gets SIGTERM sooner and must end within TERM_S); stdout and stderr must hold no
traceback and no typed control sequence shown raw (the title and red-ink values: no screen here
draws them, so seen raw they came from a value typed on the command line).

PROPCTL_FUZZ_SEED=N picks other cases, PROPCTL_FUZZ_RUNS=N runs more of them per command.
"""
import argparse
import contextlib
import io
import os
import random
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from propctl.argtypes import Seconds, Size, Whole
from propctl.cli import build_parser

SEED = int(os.environ.get("PROPCTL_FUZZ_SEED", "27"))
PER_COMMAND = int(os.environ.get("PROPCTL_FUZZ_RUNS", "2"))  # real runs per command
TRIES = 40       # cases drawn per command at most, to find PER_COMMAND that argparse takes
LIMIT_S = 20     # a command that ends by itself must have ended by then (a deploy retries its port)
TERM_S = 5       # a run still going then gets SIGTERM, and must end within this
# Commands that run until they are stopped (a server, a monitor without --timeout, a REPL that
# waits for its board): SIGTERM after this, which they must obey. The first word is enough
# (`sim serve` is `sim --serve` too); a sim that plays is `sim clock`, which must end by itself.
SERVING_S = {("web",): 2, ("sim",): 3, ("sim", "serve"): 3, ("venue",): 3, ("monitor",): 3,
             ("repl",): 3}
CODES = {0, 1, 2, 130}
TERM_CODES = CODES | {143, -signal.SIGTERM}  # a sim ended by SIGTERM says 143 (128 + 15)
PROPCTL = [sys.executable, "-m", "propctl.cli"]


def commands(parser=None, path=()):
    """(words, parser) for every parser below `parser` that runs something (has a func)."""
    parser = parser or build_parser()
    if parser._defaults.get("func") is not None:
        yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from commands(sub, path + (name,))


def options(parser):
    """The actions a case can draw: every option and positional but help and version."""
    return [a for a in parser._actions
            if not isinstance(a, (argparse._HelpAction, argparse._VersionAction, argparse._SubParsersAction))]


def number_values(kind, good: bool) -> list:
    lo, hi = kind.lo, kind.hi
    if isinstance(kind, Size):
        return [Size.written(lo), Size.written(hi)] if good else [
            str(lo - 1), Size.written(hi + 1024), "0", "abc", "", "12Q", "-1K"]
    if isinstance(kind, Seconds):
        return ["%g" % lo, "%g" % min(hi, lo + 1)] if good else [
            "%g" % (lo - 0.5), "%g" % (hi + 1), "nan", "inf", "abc", ""]
    return [str(lo), str(min(hi, lo + 3))] if good else [
        str(lo - 1), str(hi + 1), str(10 ** 30), "abc", "", "1e3", "0x10"]


def places(tmp: Path) -> list:
    """Paths of every kind a person could name."""
    (tmp / "folder").mkdir()
    (tmp / "file.txt").write_text("not what any command wants\n")
    (tmp / "empty").write_bytes(b"")
    (tmp / "junk.bin").write_bytes(bytes(range(256)) * 4)
    os.mkfifo(tmp / "fifo")
    os.symlink("/dev/full", tmp / "to-full")
    os.symlink(tmp / "nowhere", tmp / "dangling")
    mine = ("missing", "no/such/x", "folder", "file.txt", "empty", "junk.bin", "fifo", "to-full", "dangling")
    system = ["/dev/null", "/dev/full", "/dev/zero", "/proc/version", "-", ""]
    return [str(tmp / name) for name in mine] + system


# The terminal's title and red ink: a sim's screen uses neither, so seen raw they came from a value.
RAW = ("\x1b]0;pwn\x07", "\x1b[31m")
TEXTS = ["x", " ", "\x1b[31m\x1b]0;pwn\x07", "東京タワー", "a" * 3000, "=", "a=b", "clock.seed=-1",
         "board=esp32", "{", "none", "-1", "mqtt://nohost.invalid:1"]


def draw_value(rng, action, paths, good: bool) -> list:
    """Words for one action: [] for a flag not given, else its option string and value(s)."""
    flag = [action.option_strings[0]] if action.option_strings else []
    if action.nargs == 0:  # store_true/false, count
        return flag
    if action.choices is not None:
        pool = list(action.choices) if good else list(action.choices) + ["nope", ""]
    elif isinstance(action.type, (Whole, Seconds, Size)):
        pool = number_values(action.type, good)
    else:  # text: a path or odd text (a Path type takes any text too)
        pool = paths + TEXTS
    count = rng.choice([1, 2]) if action.nargs in ("*", "+") else 1
    if action.nargs == "*" and not good and rng.random() < 0.2:
        count = 0
    words = [rng.choice(pool) for _ in range(count)]
    if flag:
        return [word for value in words for word in flag + [value]]
    return words


def draw_case(rng, words, parser, paths, tmp: Path) -> list:
    argv = list(words)
    good = rng.random() < 0.6  # most cases should pass argparse and run
    for action in options(parser):
        if action.required or (not action.option_strings and action.nargs not in ("?", "*")):
            argv += draw_value(rng, action, paths, good or rng.random() < 0.7)
        elif rng.random() < 0.35:
            argv += draw_value(rng, action, paths, good or rng.random() < 0.5)
    return argv + SAFE.get(words, lambda argv, tmp: [])(argv, tmp)


# What keeps a case bounded and off the clone: a sim as fast as it goes (a person's --speed 1
# is a real-time round) and at most 2 rounds (out-of-range values still fail argparse first),
# wokwi writing into the temp folder, not the clone's hardware/.
SAFE = {("sim", "clock"): lambda argv, tmp: ["--speed", "0", "--rounds", "2"],
        ("sim", "football"): lambda argv, tmp: ["--speed", "0"],
        ("wokwi",): lambda argv, tmp: [] if "--out" in argv else ["--out", str(tmp / "wokwi")]}


def parse_in_process(argv) -> tuple:
    """(argparse took it, its stderr): a refusal must be exit 2 with a message, never a traceback."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            build_parser().parse_args(argv)
        except SystemExit as exc:
            assert exc.code == 2, (argv, exc.code, err.getvalue())
            return False, err.getvalue()
    return True, ""


def run(argv, cwd: Path, limit: float, serving: bool) -> dict:
    env = dict(os.environ, CI="1", HOME=str(cwd), PYTHONDONTWRITEBYTECODE="1")
    started = time.monotonic()
    proc = subprocess.Popen(PROPCTL + argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=str(cwd), env=env, start_new_session=True)
    termed = False
    try:
        out, err = proc.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        termed = True
        proc.send_signal(signal.SIGTERM)
        try:
            out, err = proc.communicate(timeout=TERM_S)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
            return {"argv": argv, "problem": "still running %d s after SIGTERM" % TERM_S, "err": err}
    finally:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)  # anything it left running (a board process)
    text = (out + err).decode("utf-8", "replace")
    problem = None
    if "Traceback (most recent call last)" in text or "Exception ignored" in text:
        problem = "a traceback"
    elif any(typed in text for typed in RAW):  # only a value typed on the command line holds them
        problem = "a typed control sequence shown raw: %r" % text[max(0, text.find("\x1b") - 60):][:120]
    elif termed and not serving:
        problem = "still running after %d s: a hang (it ended on SIGTERM)" % limit
    elif proc.returncode not in (TERM_CODES if termed else CODES):
        problem = "exit code %s%s" % (proc.returncode, " after SIGTERM" if termed else "")
    return {"argv": argv, "problem": problem, "err": text[-1500:], "termed": termed,
            "seconds": time.monotonic() - started}


def test_every_number_option_has_a_range():
    """One range check for every number option: an argparse type from propctl.argtypes."""
    bare = ["propctl %s %s" % (" ".join(words), "/".join(a.option_strings))
            for words, parser in commands() for a in options(parser) if a.type in (int, float)]
    assert bare == [], "options that take any int or float (use propctl.argtypes): %s" % bare


def test_every_command_survives_its_options(tmp_path):
    rng = random.Random(SEED)
    paths = places(tmp_path)
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    jobs, refused = [], 0
    for words, parser in commands():
        taken = 0
        for _ in range(TRIES):
            argv = draw_case(rng, words, parser, paths, tmp_path)
            ok, _ = parse_in_process(argv)
            if not ok:
                refused += 1
                continue
            # a prop's sim on a broker runs until it is stopped, as a prop in a venue does
            serving = words in SERVING_S or (words[:1] == ("sim",) and "--broker" in argv)
            jobs.append((argv, SERVING_S.get(words, 3) if serving else LIMIT_S, serving))
            taken += 1
            if taken == PER_COMMAND:
                break
        assert taken, "no case for propctl %s got past argparse in %d tries" % (" ".join(words), TRIES)
    with ThreadPoolExecutor(max_workers=6) as pool:
        results = list(pool.map(lambda job: run(job[0], cwd, job[1], job[2]), jobs))
    bad = [r for r in results if r["problem"]]
    report = "\n\n".join("propctl %s\n  -> %s\n%s" % (" ".join(repr(w) if not w or " " in w or "\x1b" in w
                                                              else w[:60] for w in r["argv"]),
                                                     r["problem"], r["err"])
                         for r in bad)
    assert not bad, "%d of %d runs (seed %d):\n%s" % (len(bad), len(results), SEED, report)
    assert refused > 0  # the refusals were checked too


@pytest.mark.parametrize("words", [w for w, _ in commands()], ids=lambda w: " ".join(w) or "propctl")
def test_every_command_refuses_a_bad_value_of_each_option_with_exit_2(words):
    """Each option on its own with a value it cannot take: argparse's exit 2, named."""
    parser = dict(commands())[words]
    for action in options(parser):
        if not action.option_strings or action.nargs == 0:
            continue
        if action.choices is not None:
            bad = "nope"
        elif isinstance(action.type, (Whole, Seconds, Size)):
            bad = "abc"
        else:
            continue
        ok, err = parse_in_process(list(words) + [action.option_strings[0], bad])
        assert not ok and action.option_strings[0] in err, (words, action.option_strings, err)
