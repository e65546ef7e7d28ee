"""The game masters' prompts edit their line: Left/Right, Home/End, Ctrl-U, history with Up;
whatever keys are typed, no escape byte reaches an answer.

Before: a Left arrow put its escape bytes into the answer, which was refused and echoed as
'1\\x1b[D400' (Pi mal Daumen) or 'to\\u001b[dss' (Finger Football).
"""
import os
import time

from pty_terminal import chunks, spawn, stop

from propctl.termtext import typed

LEFT, RIGHT, HOME, END, UP = b"\x1b[D", b"\x1b[C", b"\x1b[H", b"\x1b[F", b"\x1b[A"
HOME_SS3, END_SS3, KILL = b"\x1bOH", b"\x1bOF", b"\x15"


def read_for(fd, seconds, until=None):
    out = b""
    for data in chunks(fd, seconds, poll=0.05):
        out += data
        if until is not None and until in out.decode("utf-8", "replace"):
            break
    return out.decode("utf-8", "replace")


def keys(fd, *chunks):
    for chunk in chunks:
        os.write(fd, chunk)
        time.sleep(0.05)


def test_finger_football_prompt_edits_with_arrows_home_end_ctrl_u_and_history(tmp_path):
    pid, fd = spawn(80, 24, "play", "fingerfootball", "--seed", "4", "--save", str(tmp_path / "s.json"))
    try:
        out = read_for(fd, 30, "Referee>")
        # "tss", Home, Right, "o": toss
        keys(fd, b"tss", HOME, RIGHT, b"o", b"\r")
        out += read_for(fd, 10, "> ")
        assert "wins the toss" in out, out
        # a wrong start wiped with Ctrl-U, then the menu's number, edited with Left and End
        keys(fd, b"garbage", KILL, b"2", LEFT, b"x", b"\x7f", END, b"\r")
        out += read_for(fd, 10, "goal")
        assert "chooses to receive" in out, out[-1500:]
        # Up brings back the last answer ("2": the south goal)
        keys(fd, UP, b"\r")
        out += read_for(fd, 10, "kicks off")
        assert "defends the south goal" in out, out[-1500:]
        assert "\\u001b" not in out and "\\x1b" not in out, out
    finally:
        stop(pid, fd)


def test_pi_mal_daumen_answer_edits_with_home_and_end(tmp_path):
    pid, fd = spawn(80, 24, "play", "pimaldaumen", "--players", "Ann,Bo", "--lang", "en", "--seed", "3",
                    "--save", str(tmp_path / "s.json"))
    try:
        out = read_for(fd, 30, "your answer")
        keys(fd, b"00", HOME_SS3, b"18", END_SS3, b"36", LEFT, LEFT, RIGHT, RIGHT, b"\r")
        out += read_for(fd, 10, "exact answer")
        # "00", Home, "18", End, "36": 180036 (shown with or without a thousands separator)
        shown = out.replace(",", "").replace("\u202f", "").replace(" 036", "036")
        assert "Bo says 180036" in shown, out[-1500:]
        assert "\\u001b" not in out and "\\x1b" not in out, out
    finally:
        stop(pid, fd)


def test_keys_the_editor_did_not_take_never_reach_an_answer():
    for line, answer in [("1\x1b[D400", "1400"), ("to\x1b[dss", "toss"), ("a\x1b]0;title\x07b", "ab"),
                         ("x\x1bOHy", "xy"), ("\x1b", ""), ("p\x1b[200~q\x1b[201~", "pq"),
                         ("a\tb", "a b"), ("ä²", "ä²"), ("\x1b\x1b[1;5Cz", "z"), ("q\x1b", "q")]:
        assert typed(line) == answer, line
        assert "\x1b" not in typed(line)
