"""`propctl sim fusebox`: scripted sessions end to end, and the keyboard mode on a pseudo-terminal."""
import csv
import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DECKS = ROOT / "host_tools" / "propctl" / "data" / "decks"
DECK = DECKS / "taskcards.en.csv"
PROPCTL = [sys.executable, "-m", "propctl.cli"]


def bolt_window(card_id, deck=DECK):
    """The bolt as people count windows (1-8), from the deck file."""
    with open(deck, encoding="utf-8-sig", newline="") as f:
        return {row["id"]: int(row["bolt"]) for row in csv.DictReader(f)}[card_id]


def sim(*args, stdin="", lang="en"):
    return subprocess.run(PROPCTL + ["sim", "fusebox", "--non-interactive", "--lang", lang, *args],
                          input=stdin, capture_output=True, text=True, timeout=60, cwd=ROOT)


def test_scripted_round_blows_the_fuse_at_the_bolt_window(tmp_path):
    bolt = bolt_window("GEO-01")
    safe = 1 if bolt != 1 else 2
    script = tmp_path / "round.txt"
    script.write_text("# a round with the sample deck\nselect GEO-01\ngame 3\nopen %d\nreport 2\nopen %d\n"
                      "report\n" % (safe, bolt))
    done = sim("--script", str(script))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "card GEO-01 in the box" in out
    assert "window %d is safe" % safe in out
    assert "FUSE BLOWN at window %d" % bolt in out
    assert "result  window %d safe: player 2 +1" % safe in out
    assert "result  window %d BOLT" % bolt in out
    # the final drawing shows the bolt through its open window, and the red light on
    assert re.search(r"^  %d BOLT   " % bolt, out, re.M) and "red ON" in out


def test_the_german_deck_in_the_fusebox(tmp_path):
    bolt = bolt_window("SCI-02", DECKS / "taskcards.de.csv")
    done = sim("--script", "-", stdin="select SCI-02\ngame 2\nopen %d\n" % bolt, lang="de")
    assert done.returncode == 0, done.stderr
    assert "Finger weg von dem Mond, der nicht um den Jupiter kreist." in done.stdout
    assert "[Wissenschaft]" in done.stdout and "FUSE BLOWN at window %d" % bolt in done.stdout


def test_scripted_session_is_the_same_every_time():
    commands = "next\nopen 2\nopen 5\nwait 300\nclose 2\nclose 5\nnext\n"
    first, second = sim("--script", "-", stdin=commands), sim("--script", "-", stdin=commands)
    assert first.returncode == 0, first.stderr
    body = [line for line in first.stdout.splitlines() if not line.startswith("fuse box on")]
    assert body == [line for line in second.stdout.splitlines() if not line.startswith("fuse box on")]
    assert body.count("> next") == 2 and first.stdout.count("in the box") == 2


def test_manual_mode_bolt_button():
    done = sim("--pack", "none", "--script", "-", stdin="open 4\nbolt\n")
    assert done.returncode == 0, done.stderr
    assert "mode    manual" in done.stdout
    assert "FUSE BLOWN at window 4" in done.stdout


def test_corrupt_pack_runs_in_manual_mode(tmp_path):
    bad = tmp_path / "broken.bin"
    bad.write_bytes(b"CPAK" + bytes(60))
    done = sim("--pack", str(bad), "--script", "-", stdin="select GEO-01\nopen 3\nbolt\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "card pack problem:" in out and "mode    manual mode" in out
    assert "refused: no card pack loaded" in out
    assert "window 3 opened" in out and "FUSE BLOWN at window 3" in out


def test_mcp23017_wiring_in_the_sim():
    done = sim("--set", "fusebox.inputs=mcp23017", "--script", "-", stdin="open 8\n")
    assert done.returncode == 0, done.stderr
    assert "sensors on mcp23017" in done.stdout and "window 8 opened" in done.stdout


@pytest.mark.skipif(not hasattr(pty, "fork"), reason="needs a pseudo-terminal")
def test_keys_drive_the_box_at_a_terminal():
    pid, fd = pty.fork()
    if pid == 0:  # the child: propctl at a "terminal"
        os.chdir(ROOT)
        env = dict(os.environ)
        env.pop("CI", None)
        os.execvpe(PROPCTL[0], PROPCTL + ["sim", "fusebox", "--interactive"], env)
    seen = b""

    def read_until(marker, timeout=20):
        nonlocal seen
        end = time.monotonic() + timeout
        while marker not in seen and time.monotonic() < end:
            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                try:
                    seen += os.read(fd, 65536)
                except OSError:
                    break
        return marker in seen

    try:
        assert read_until(b"keys: 1-8"), seen[-500:]
        os.write(fd, b"n")
        assert read_until(b"in the box"), seen[-500:]
        os.write(fd, b"3")
        assert read_until(b"window 3 opened"), seen[-500:]
        os.write(fd, b"q")
        _, status = os.waitpid(pid, 0)
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    finally:
        try:
            os.close(fd)
        except OSError:
            pass
        try:  # never leave our child behind, whatever failed
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        except (OSError, ChildProcessError):
            pass


def test_the_game_line_and_refusals_are_sentences():
    commands = "select GEO-01\ngame 3\nopen 2\nreport 2\ngame x\nreport a\n"
    done = sim("--script", "-", stdin=commands)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "game    3 players, player 1 starts" in out
    assert "scores player 1: 0, player 2: 1, player 3: 0 points" in out
    assert "refused: the number of players is a whole number, not 'x'" in out
    assert "refused: report lists the players who showed the bolt, counted from 1" in out
    game_line = [line for line in out.splitlines() if line.startswith("  game: ")][-1]
    assert "chooses the next window" in game_line and "still in the round: player" in game_line
    said = [line for line in out.splitlines() if " s  " in line or line.startswith("  game: ")]
    for raw in ("None", "[", "{", "invalid syntax"):  # the box drawing has brackets; the sentences not
        assert not [line for line in said if raw in line], raw


def test_an_unknown_set_key_is_an_error():
    done = sim("--set", "fusebox.input=mcp23017", "--script", "-", stdin="")
    assert done.returncode == 2
    assert "fusebox.input is not a setting" in done.stderr and "inputs" in done.stderr
