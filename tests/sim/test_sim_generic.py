"""`propctl sim PROP` for a prop with no screen of its own (propctl.sim.generic).

The registry (propctl.props) gives every prop of the firmware a sub-command of `propctl sim`:
its own screen (propctl/props/<name>/sim.py) or the generic one, which runs the prop through
vboard/vprops/generic.py (built by its package's build(), as a board does) and prints its
events, replies and state. Two cases: an existing prop forced onto the generic screen, and a
minimal fourth prop in a copy of the firmware tree, with one line added to props.NAMES.
"""
import re
import shutil
import subprocess
import sys
from pathlib import Path

from propctl import cli, props
from propctl.launcher import REPO_FIRMWARE_LIB
from propctl.sim import command, generic

# The fourth prop is docs/development.md's "Adding a prop" fixture, the same folder
# tests/project/test_fourth_prop.py adds to the firmware side: a button that toggles a lamp.
LAMP = Path(__file__).resolve().parents[1] / "fixtures" / "props" / "lamp"


def _run(capsys, argv) -> tuple:
    code = cli.main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_an_existing_prop_runs_on_the_generic_screen(tmp_path, capsys, monkeypatch):
    # the clock has a screen of its own; asked for none, the registry gives the generic one
    real_part = props.part
    monkeypatch.setattr(props, "part",
                        lambda prop, kind: None if kind == props.SIM else real_part(prop, kind))
    script = tmp_path / "lines.txt"
    script.write_text('new_game {"players": 3}\npress button\nwait 70000\n'
                      'new_game {"players": 9}\nfly\nnew_game [1]\n\x1b]0;pwned\x07\nquit\n')
    code, out, err = _run(capsys, ["sim", "clock", "--script", str(script), "--set", "clock.seed=7"])
    assert code == 0, err
    assert out.startswith("clock on pico; commands: new_game, report, start_round, state, stop")
    assert "new_game -> " in out                                        # a reply
    assert "hand starts: round 1, seed 7" in out                        # events, as sentences
    assert "CHIME: round 1 is over" in out
    assert re.search(r"state: \{.*\"state\": \"running\"", out.replace("\n" + " " * 11, " "))
    assert "new_game refused: Geisteruhr is for 2 to 4 players, not 9" in out
    assert "refused: unknown command fly" in out
    assert "refused: the arguments are a JSON object" in out
    assert "\x1b" not in out and "\x07" not in out                      # typed text shown escaped
    assert max(len(line) for line in out.splitlines()) <= 79            # an 80-column terminal


def test_the_generic_screen_refuses_a_script_it_cannot_read(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(props, "part", lambda prop, kind: None)
    code, _, err = _run(capsys, ["sim", "fusebox", "--script", str(tmp_path)])
    assert code == 1 and "--script" in err, err


def test_a_piped_line_that_is_not_utf8_is_refused_not_a_traceback():
    code = ("import sys\nfrom propctl import cli, props\n"
            "props.part = lambda prop, kind: None\nsys.exit(cli.main(['sim', 'clock']))\n")
    result = subprocess.run([sys.executable, "-c", code], input=b"state\n\xff\xfe bad\nstate\n",
                            capture_output=True, timeout=120)
    out = result.stdout.decode()
    assert result.returncode == 0, result.stderr.decode()
    assert "refused: a line that is not UTF-8 text" in out and out.count("state -> ") == 2


def fourth_prop(root: Path) -> Path:
    """A copy of firmware/lib with the lamp added: its folder, and its name in props.NAMES."""
    lib = root / "lib"
    shutil.copytree(REPO_FIRMWARE_LIB, lib, ignore=shutil.ignore_patterns("__pycache__"))
    names = lib / "props" / "__init__.py"
    text, count = re.subn(r'^NAMES = \(([^)]*)\)', r'NAMES = (\1, "lamp")', names.read_text(),
                          count=1, flags=re.M)
    assert count == 1, "props.NAMES is not where this fixture adds a prop"
    names.write_text(text)
    shutil.copytree(LAMP, lib / "props" / "lamp")
    return lib


def test_a_fourth_prop_is_seen_in_the_sim(tmp_path, capsys, monkeypatch):
    lib = fourth_prop(tmp_path)
    # the one line added to props.NAMES, as the clone's firmware would read it
    monkeypatch.setattr("propctl.build.PROPS", props.names() + ("lamp",))
    assert props.part("lamp", props.SIM) is None and props.runner("lamp") == props.generic_runner()
    script = tmp_path / "lines.txt"
    script.write_text("state\ntoggle\nwait 500\npress button 100\nwait 200\nstate\nsparkle\n")
    code, out, err = _run(capsys, ["sim", "lamp", "--firmware", str(lib), "--script", str(script)])
    assert code == 0, err
    assert out.startswith("lamp on pico; commands: state, toggle; pins: button, lamp")
    assert 'state -> {"lit": false}' in out and 'toggle -> {"lit": true}' in out
    # no describer: its events as fields; the button (its pin on the virtual board) toggles it back
    lit = [line.split()[-1] for line in out.splitlines() if " lamp lit=" in line]
    assert lit == ["lit=true", "lit=false"]
    assert out.rstrip().count('state -> {"lit": false}') == 2
    assert "refused: unknown command sparkle" in out


def test_every_prop_of_the_firmware_has_a_sim_command(monkeypatch):
    import argparse
    monkeypatch.setattr("propctl.build.PROPS", props.names() + ("lamp",))
    parser = argparse.ArgumentParser()
    command.register(parser.add_subparsers())
    args = parser.parse_args(["sim", "lamp", "--script", "-"])
    assert args.func.__closure__  # a prop's runner, not the "name a prop" help
    text = parser._subparsers._group_actions[0].choices["sim"].format_help()  # type: ignore[union-attr]
    assert "lamp" in text and "clock" in text
    assert isinstance(generic.screen_for("lamp"), generic.GenericScreen)
