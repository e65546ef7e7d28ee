"""The fuse-box sim's panel says where the box and its game are from one source (fusebox_text.phase),
so it cannot disagree with itself; the box stops waiting for discs once the round is decided.

Before: `select NAT-01, game 3, open 3, open 4, report 2,3, state` showed "state round" and
"waiting for the discs of window 4 (r)" beside "no round going: put a card in", and `r` was
then refused with a reason that named no window.
"""
import subprocess
import sys

from propctl.props.fusebox.text import draw_box, phase

PROPCTL = [sys.executable, "-m", "propctl.cli"]


def script(text: str) -> str:
    done = subprocess.run(PROPCTL + ["sim", "fusebox", "--script", "-"], input=text, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def last_box(out: str) -> str:
    return out[out.rindex("card NAT-01 ["):]


def test_a_decided_round_with_a_second_window_open_reads_as_one_state():
    out = script("select NAT-01\ngame 3\nopen 3\nopen 4\nreport 2,3\nstate\nreport 1\nopen 6\nstate\n")
    assert "the round is over" in out
    box = last_box(out)
    assert "waiting for the discs" not in box
    assert "state round over" in box and "round over: close the windows, put the next card in" in box
    assert "no round going" not in box
    # the second window's discs are no longer due: a report says why, by the round
    assert "refused: this round of the game is over: insert the next card" in out
    # the window opened after the round was decided asks for nothing either
    assert "window 6 opened" in out and "waiting for the discs of window 6" not in out


def test_a_round_still_going_waits_for_its_discs():
    out = script("select NAT-01\ngame 3\nopen 3\nstate\n")
    box = last_box(out)
    assert "state round " in box and "waiting for the discs of window 3 (r)" in box
    assert "player 1 chooses the next window" in box


def status(state, game=None, to_report=()):
    return {"mode": "pack", "card": "X", "text": "", "pending": False, "open": [3], "faulty": [], "red": 0,
            "green": 0, "sound": 0, "relay": 0, "t": 0, "state": state, "to_report": list(to_report),
            "game": game}


def game(active, over=False, chooser=1):
    return {"players": 3, "scores": [0, 0, 0], "chooser": chooser if active else None, "in_round": [1, 2],
            "round_active": active, "over": over, "winners": [1]}


def test_every_line_of_the_panel_reads_the_same_phase():
    for box_state in ("idle", "round", "blown"):
        for g in (None, game(True), game(False), game(False, over=True)):
            if box_state == "idle" and g and g["round_active"]:
                continue  # a game's round starts with a card in the box
            s = status(box_state, g, to_report=[4])
            text = "\n".join(draw_box(s))
            now = phase(s)
            assert "state %s " % now in text
            waiting = "waiting for the discs" in text
            assert waiting == (g is not None and now in ("round", "blown")), (box_state, g, text)
            if g is not None and not g["round_active"]:
                assert "chooses the next window" not in text
                assert ("GAME OVER" in text) == g["over"]
