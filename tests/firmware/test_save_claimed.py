"""A game claims its save when it starts; a second game on the same save is told and refused.

Before: two Finger Football games started in one folder both printed "Saved to
fingerfootball-save.json" (the save was claimed only at the first save) and two processes
resuming one save got no warning: the last writer won.
"""
import os
import subprocess
import sys
import time

import pytest

PROPCTL = [sys.executable, "-m", "propctl.cli"]
GAMES = {
    "fingerfootball": (["--names", "Ann,Bo", "--seed", "1"], "fingerfootball-save.json"),
    "pimaldaumen": (["--players", "Ann,Bo", "--lang", "en", "--seed", "1"], "pimaldaumen-save.json"),
}


def start(cwd, game, *args):
    return subprocess.Popen(PROPCTL + ["play", game, *args], cwd=cwd, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=dict(os.environ, CI="1"))


def run(cwd, game, *args):
    done = subprocess.run(PROPCTL + ["play", game, *args], cwd=cwd, input="", capture_output=True,
                          text=True, timeout=60, env=dict(os.environ, CI="1"))
    return done.returncode, " ".join((done.stdout + done.stderr).split())


def wait_for(path, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists():
            return True
        time.sleep(0.05)
    return False


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_second_game_moves_aside_and_a_second_resume_is_refused(game, tmp_path):
    args, default = GAMES[game]
    first = start(tmp_path, game, *args)
    try:
        assert wait_for(tmp_path / (".%s.lock" % default)), "the first game never claimed its save"
        # a second new game in the same folder, while the first plays: not the same save
        code, out = run(tmp_path, game, *args)
        other = default.replace(".json", "-2.json")
        assert code == 0 and "%s is the save of a game being played now; this one saves to %s" % (
            default, other) in out, out
        assert (tmp_path / other).exists() and "Saved to %s" % default not in out
        first.stdin.write("save\n")
        first.stdin.flush()
        line = first.stdout.readline()
        while "Saved to %s" % default not in line:
            assert line, "the first game ended before it saved"
            line = first.stdout.readline()
        # resuming the save the first game is playing: told and refused, nothing written
        before = (tmp_path / default).read_bytes()
        code, out = run(tmp_path, game, "--resume", default)
        assert code == 1, out
        assert "%s is in use by another game right now (process %d)" % (default, first.pid) in out, out
        assert (tmp_path / default).read_bytes() == before
        # --save onto it from another game: the same
        code, out = run(tmp_path, game, *args, "--save", default)
        assert code == 1 and "in use by another game" in out, out
    finally:
        first.stdin.close()  # input ends: the first game saves and stops
        first.wait(timeout=60)
    assert first.returncode == 0
    assert not (tmp_path / (".%s.lock" % default)).exists()
    # once it stopped, the save is free again
    code, out = run(tmp_path, game, "--resume", default)
    assert code == 0 and "in use" not in out, out


def test_a_claim_left_by_a_killed_game_is_no_claim(tmp_path):
    args, default = GAMES["fingerfootball"]
    first = start(tmp_path, "fingerfootball", *args, "--autosave")
    assert wait_for(tmp_path / (".%s.lock" % default))
    first.kill()
    first.wait()
    first.stdin.close()
    first.stdout.close()
    code, out = run(tmp_path, "fingerfootball", *args)
    assert code == 0 and "this one saves to" not in out and "Saved to %s" % default in out, out
