"""What the option fuzz (test_option_fuzz.py) and cases of our own found, one test each.

Before: `sim fusebox --script FIFO` waited forever and `--script /dev/zero` read until memory
ran out; `sim clock --firmware <3,000 characters>` was an OSError traceback (name too long);
`deploy --ask-passwords` without a terminal an EOFError traceback after echoing a warning;
`sim serve --broker URL` without --flash (or with a new one) a TypeError or FileNotFoundError
traceback.
"""
import os
import signal
import subprocess
import sys
import time

from waits import WAIT_S

PROPCTL = [sys.executable, "-m", "propctl.cli"]


def propctl(*args, timeout=30):
    proc = subprocess.Popen(PROPCTL + list(args), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=dict(os.environ, CI="1"),
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise AssertionError("still running after %d s: %s" % (timeout, args)) from None
    assert "Traceback" not in out + err, err
    return proc.returncode, out, err


def test_a_fusebox_script_that_is_no_regular_file_is_refused(tmp_path):
    os.mkfifo(tmp_path / "fifo")
    for script, kind in ((str(tmp_path / "fifo"), "a pipe (FIFO)"), ("/dev/zero", "a device")):
        code, _, err = propctl("sim", "fusebox", "--script", script, timeout=20)
        assert code == 1 and "--script %s is %s, not a regular file" % (script, kind) in err


def test_a_firmware_folder_name_too_long_is_a_message():
    code, _, err = propctl("sim", "clock", "--firmware", "a" * 3000)
    assert code == 1 and "no clock firmware at aaa" in err


def test_ask_passwords_without_a_terminal_is_refused(tmp_path):
    code, _, err = propctl("deploy", "--port", str(tmp_path / "port"), "--prop", "clock", "--board", "pico",
                           "--ask-passwords")
    assert code == 2 and "--ask-passwords needs a terminal" in err
    assert "Password input may be echoed" not in err


def test_serve_with_a_broker_makes_its_flash_folder_first(tmp_path):
    for flash in ([], ["--flash", str(tmp_path / "new" / "flash")]):
        proc = subprocess.Popen(PROPCTL + ["sim", "serve", "--broker", "mqtt://127.0.0.1:1", *flash],
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, start_new_session=True)
        try:
            deadline = time.monotonic() + WAIT_S
            line = proc.stdout.readline()
            while line and "virtual board on" not in line and time.monotonic() < deadline:
                line = proc.stdout.readline()
            assert "virtual board on" in line, proc.stderr.read() if proc.poll() is not None else line
            proc.send_signal(signal.SIGTERM)
            _, err = proc.communicate(timeout=10)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.communicate()
        assert proc.returncode == 0 and "Traceback" not in err, err
    assert (tmp_path / "new" / "flash" / "config.json").exists()


def test_venue_refuses_broker_urls_and_password_files_it_cannot_use(tmp_path):
    # before: '[x]' in a URL was a ValueError traceback from urlsplit; a FIFO as the password
    # file waited forever and /dev/zero was read without end
    os.mkfifo(tmp_path / "fifo")
    for url, words in (("mqtt://[x]:1", "is not a broker URL"),
                       ("\x1b[31m\x1b]0;pwn\x07", "has no spaces or control characters")):
        code, out, err = propctl("venue", "--broker", url, "--seconds", "1")
        assert code == 2 and words in err and "\x1b" not in out + err, err
    for path, words in ((tmp_path / "fifo", "is a pipe (FIFO), not a regular file"),
                        ("/dev/zero", "is a device, not a regular file")):
        code, _, err = propctl("venue", "--broker", "mqtt://127.0.0.1:1", "--password-file", str(path),
                               "--seconds", "1", timeout=15)
        assert code == 2 and "the password file %s %s" % (path, words) in err, err


def test_a_question_deck_that_is_a_fifo_is_refused_not_waited_on(tmp_path):
    # before: play pimaldaumen --deck FIFO opened it to look for a pack header, and waited for a
    # writer forever (the stricter fuzz, which holds a command that should end to 20 s, found it)
    os.mkfifo(tmp_path / "fifo")
    code, out, err = propctl("play", "pimaldaumen", "--players", "A,B", "--deck", str(tmp_path / "fifo"),
                             "--save", str(tmp_path / "s.json"), timeout=20)
    squeezed = "".join((out + err).split())  # the game master wraps lines, a long path inside too
    assert code == 1 and "fifo:isapipe(FIFO),notaregularfile" in squeezed


def test_wokwi_with_a_folder_name_too_long_is_a_message():
    for option in ("--out", "--firmware"):
        code, _, err = propctl("wokwi", "--check", option, "a" * 3000)
        assert code == 2 and err.startswith("propctl wokwi: "), err
