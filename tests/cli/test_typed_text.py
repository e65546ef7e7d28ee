"""What a person typed never reaches the terminal as control characters: names with ESC or BEL
are refused (at the command line and in a save), and the game masters show every text through
propctl.termsafe.printable.

Before: `play pimaldaumen --players "A,<ESC>]0;pwn<BEL>"` set the terminal's title,
`play fingerfootball --names "A<ESC>[31m",B` turned it red, and a save whose names held
<ESC>[2J cleared the screen on --resume.
"""
import json
import os
import subprocess
import sys

import pytest

from propctl.termsafe import printable

PROPCTL = [sys.executable, "-m", "propctl.cli"]
TITLE = "\x1b]0;pwn\x07"
RED = "\x1b[31m"
CLEAR = "\x1b[2J"


def play(*args, stdin="", cwd=None):
    done = subprocess.run(PROPCTL + ["play", *args], input=stdin, capture_output=True, text=True,
                          timeout=60, cwd=cwd, env=dict(os.environ, CI="1"))
    return done.returncode, done.stdout + done.stderr


def no_control(text: str) -> bool:
    return not any(ch in text for ch in "\x1b\x07\x9b")


@pytest.mark.parametrize("args", [["pimaldaumen", "--players", "A," + TITLE],
                                  ["pimaldaumen", "--players", "A,B" + CLEAR + ",C"],
                                  ["fingerfootball", "--names", "A" + RED + ",B"]])
def test_a_name_with_control_characters_is_refused_and_shown_escaped(args, tmp_path):
    code, out = play(*args, "--save", str(tmp_path / "s.json"))
    assert code == 2, out
    assert "holds a control character" in out and "\\u001b" in out
    assert no_control(out), repr(out)
    assert not (tmp_path / "s.json").exists()


@pytest.mark.parametrize("game, args, key", [
    ("pimaldaumen", ["--players", "Ann,Bo"], lambda data: data["names"]),
    ("fingerfootball", ["--names", "Ann,Bo"], lambda data: data["game"]["settings"]["names"]),
])
def test_a_save_whose_names_hold_escapes_is_refused_without_obeying_them(game, args, key, tmp_path):
    save = tmp_path / "s.json"
    code, out = play(game, *args, "--seed", "1", "--save", str(save))  # input ends: saved
    assert save.exists(), out
    data = json.loads(save.read_text())
    key(data)[0] = "Ann" + CLEAR
    save.write_text(json.dumps(data))
    code, out = play(game, "--resume", str(save))
    assert code == 1, out
    assert "cannot be resumed" in out and "\\u001b[2J" in out
    assert no_control(out), repr(out)


@pytest.mark.parametrize("game", ["pimaldaumen", "fingerfootball"])
def test_every_line_a_game_master_shows_is_escaped(game, tmp_path):
    # a file name is typed too: it comes back in the message that it cannot be resumed
    code, out = play(game, "--resume", str(tmp_path / ("x" + CLEAR + ".json")))
    assert code == 1
    assert no_control(out), repr(out)
    assert "x\\u001b[2J.json" in "".join(out.split())  # the game master wraps long lines


def test_long_names_are_refused_by_their_width(tmp_path):
    code, out = play("fingerfootball", "--names", "A" * 41 + ",B", cwd=tmp_path)
    assert code == 2 and "is 41 columns wide; a name may take at most 40" in " ".join(out.split())
    code, out = play("pimaldaumen", "--players", "東京" * 11 + ",B", cwd=tmp_path)  # 44 columns, 22 letters
    assert code == 2 and "is 44 columns wide" in " ".join(out.split())


def test_printable_escapes_every_control_character_but_newline():
    assert printable("a\x1b[2Jb\x07\u009b\ud800\tc\nd") == "a\\u001b[2Jb\\u0007\\u009b\\ud800\\u0009c\nd"
    assert printable("a\nb", newlines=False) == "a\\u000ab"


def test_a_fusebox_script_line_with_escapes_is_logged_escaped():
    # the script's line is echoed ('> ...') and refused by the box, which repeats it
    done = subprocess.run(PROPCTL + ["sim", "fusebox", "--script", "-"], input="open 1\n" + RED + "hi\n",
                          capture_output=True, text=True, timeout=60, env=dict(os.environ, CI="1"))
    assert done.returncode == 0, done.stderr
    assert no_control(done.stdout), repr(done.stdout)
    assert "> \\u001b[31mhi" in done.stdout and "unknown command \\u001b[31mhi" in done.stdout


def test_the_monitor_shows_a_boards_escapes_escaped():
    import io

    from propctl.serial_link.linkclient import Line
    from propctl.serial_link.monitor import Printer
    out = io.StringIO()
    printer = Printer(out, prop="clock")
    printer(Line(text="Traceback: " + CLEAR))  # console output of a board, not the link's JSON
    printer(Line(message={"seq": 1, "re": 2, "err": "refused", "msg": "no " + TITLE}))
    assert no_control(out.getvalue()), repr(out.getvalue())
    assert "\\u001b[2J" in out.getvalue() and "\\u001b]0;pwn\\u0007" in out.getvalue()


@pytest.mark.parametrize("argv", [["repl", "--port", TITLE, "--print"], ["cards", "show", TITLE],
                                  ["wokwi", "--check", "--out", TITLE],
                                  ["sim", "serve", "--broker", "x", "--password-file", TITLE]])
def test_a_path_or_port_typed_with_escapes_comes_back_escaped(argv):
    # before: 'propctl repl: cannot open <ESC>]0;pwn<BEL>' set the terminal's title
    done = subprocess.run(PROPCTL + argv, capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL, env=dict(os.environ, CI="1"))
    assert done.returncode in (1, 2)
    assert no_control(done.stdout + done.stderr), repr(done.stderr)
    assert "\\u001b]0;pwn\\u0007" in done.stderr


def test_a_packs_text_with_escapes_is_drawn_escaped():
    # `cards check` refuses control characters, but a .bin pack may come from anywhere: the
    # fuse box sim drew a card's text and statements raw (cards show escaped them already)
    from propctl.props.fusebox.sim import draw_box
    status = {"mode": "pack", "card": "T-1" + RED, "pending": False, "text": "Hi" + TITLE,
              "category": "x" + CLEAR, "statements": ["s" + RED] * 8, "open": [1, 2], "bolt_seen": None,
              "faulty": [], "red": 0, "green": 0, "sound": False, "relay": 0, "state": "round", "t": 0,
              "to_report": [], "game": None}
    text = "\n".join(draw_box(status))
    assert no_control(text) and "\\u001b]0;pwn\\u0007" in text


RLO = "\u202e"  # right-to-left override: a bidi terminal draws the rest of the line backwards


def test_printable_escapes_the_bidi_controls_that_reorder_a_line():
    # Before: a card text or a board's record holding U+202E went out raw and turned the
    # rest of the shown line around in a bidi terminal (the 'Trojan Source' characters)
    for ch in "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069":
        assert printable("a" + ch + "b") == "a\\u%04xb" % ord(ch)
    assert printable("שלום مرحبا") == "שלום مرحبا"  # right-to-left letters themselves stay


@pytest.mark.parametrize("args", [["pimaldaumen", "--players", RLO + "Bo,Ann"],
                                  ["fingerfootball", "--names", "Ann,Ann\u200b"],  # looks like Ann v Ann
                                  ["pimaldaumen", "--players", "Ann,\u2066B\u2069"]])
def test_a_name_with_invisible_characters_is_refused(args, tmp_path):
    # Before: accepted, and the referee showed 'Ann v Ann' or a reversed line
    code, out = play(*args, "--save", str(tmp_path / "s.json"))
    assert code == 2, out
    assert "invisible character" in " ".join(out.split()), out
    assert RLO not in out and "\u200b" not in out and "\u2066" not in out


def test_a_name_may_join_emoji_and_use_right_to_left_letters(tmp_path):
    code, out = play("fingerfootball", "--names", "👨\u200d👩\u200d👧,שלום", "--save",
                     str(tmp_path / "s.json"))
    assert code == 0, out
