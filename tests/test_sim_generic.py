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

# The smallest prop that keeps the contract (props/contract.pyi): a beacon that says each beat
# and counts them; its link has two commands, one that refuses a bad value.
BEACON = '''"""A beacon: an event every beat, a count of them (a test's fourth prop)."""
from time import ticks_add, ticks_diff


class BeaconApp:
    tick_ms = 100

    def __init__(self, on_event, store) -> None:
        self.on_event = on_event
        self.store = store
        self.config_errors = []
        self.beat_ms = 500
        self.beats = 0
        self._next = None

    def tick(self, now) -> None:
        if self._next is None:
            self._next = ticks_add(now, self.beat_ms)
        elif ticks_diff(now, self._next) >= 0:
            self.beats += 1
            self._next = ticks_add(self._next, self.beat_ms)
            self.on_event("beat", {"n": self.beats})

    def wait_ms(self, now) -> int:
        return self.tick_ms

    def flash_ok(self, now) -> bool:
        return True

    def shutdown(self) -> None:
        pass

    def fault(self, exc) -> None:
        self.on_event("fault", {"error": str(exc)})

    def set_beat(self, ms):
        if type(ms) is not int or not 100 <= ms <= 5000:
            raise ValueError("a beat is 100 to 5000 ms, not %r" % (ms,))
        self.beat_ms = ms
        return {"beat_ms": ms}

    def commands(self) -> dict:
        return {"set_beat": (self.set_beat, {"ms": "int"}), "state": (self.snapshot, {})}

    def snapshot(self) -> dict:
        return {"beats": self.beats, "beat_ms": self.beat_ms}


def build(settings, on_event=None, store=None):
    return BeaconApp(on_event, store)
'''


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
    """A copy of firmware/lib with the beacon added: its package, and its name in props.NAMES."""
    lib = root / "lib"
    shutil.copytree(REPO_FIRMWARE_LIB, lib, ignore=shutil.ignore_patterns("__pycache__"))
    names = lib / "props" / "__init__.py"
    text, count = re.subn(r'^NAMES = \(([^)]*)\)', r'NAMES = (\1, "beacon")', names.read_text(),
                          count=1, flags=re.M)
    assert count == 1, "props.NAMES is not where this fixture adds a prop"
    names.write_text(text)
    (lib / "props" / "beacon").mkdir()
    (lib / "props" / "beacon" / "__init__.py").write_text(BEACON)
    return lib


def test_a_fourth_prop_is_seen_in_the_sim(tmp_path, capsys, monkeypatch):
    lib = fourth_prop(tmp_path)
    # the one line added to props.NAMES, as the clone's firmware would read it
    monkeypatch.setattr("propctl.build.PROPS", props.names() + ("beacon",))
    assert props.part("beacon", props.SIM) is None and props.runner("beacon") == props.generic_runner()
    script = tmp_path / "lines.txt"
    script.write_text('wait 1600\nset_beat {"ms": 1000}\nwait 2000\nset_beat {"ms": 7}\nstate\n')
    code, out, err = _run(capsys, ["sim", "beacon", "--firmware", str(lib), "--script", str(script)])
    assert code == 0, err
    assert out.startswith("beacon on pico; commands: set_beat, state")
    beats = [line for line in out.splitlines() if "beat n=" in line]   # no describer: its fields
    assert len(beats) == 5 and [line.split()[0] for line in beats] == ["0.50", "1.00", "1.50", "2.00", "3.00"]
    assert 'set_beat -> {"beat_ms": 1000}' in out
    assert "set_beat refused: a beat is 100 to 5000 ms, not 7" in out
    assert re.search(r'state -> \{"(beats": 5, "beat_ms": 1000|beat_ms": 1000, "beats": 5)\}', out)


def test_every_prop_of_the_firmware_has_a_sim_command(monkeypatch):
    import argparse
    monkeypatch.setattr("propctl.build.PROPS", props.names() + ("beacon",))
    parser = argparse.ArgumentParser()
    command.register(parser.add_subparsers())
    args = parser.parse_args(["sim", "beacon", "--script", "-"])
    assert args.func.__closure__  # a prop's runner, not the "name a prop" help
    text = parser._subparsers._group_actions[0].choices["sim"].format_help()  # type: ignore[union-attr]
    assert "beacon" in text and "clock" in text
    assert isinstance(generic.screen_for("beacon"), generic.GenericScreen)
