"""`propctl deploy --set`: a key or value the firmware would not take is refused before the board is touched.

The board's side is a stand-in (the served virtual board's deploys are in
test_deploy_e2e.py and test_install.py): what is tested is that a refused --set
never reaches it, exit 2, in the words `propctl sim` uses for the same --set.
"""
import shutil
import subprocess
import sys

import pytest

from propctl import deploy
from propctl.build import FIRMWARE_DIR
from propctl.cli import main

PORT = "/dev/ttyFAKE0"
BASE = ["deploy", "--port", PORT, "--prop", "clock", "--board", "pico"]


@pytest.fixture
def reached(monkeypatch):
    """What got past the checks: the compile and the board step record themselves instead of running."""
    calls = []

    def compiled(board, progress=None, root=None):
        calls.append("compile")
        return {}

    def to_board(port, prop, board, local, kind, settings, dry_run, say):
        calls.append(("board", settings))
        return {}
    monkeypatch.setattr(deploy, "firmware_files", compiled)
    monkeypatch.setattr(deploy, "incomplete_firmware", lambda local, prop: None)
    monkeypatch.setattr(deploy, "_to_board", to_board)
    return calls


def refused(capsys, *sets, firmware=None):
    args = BASE + [item for key_value in sets for item in ("--set", key_value)]
    if firmware is not None:
        args += ["--firmware", str(firmware)]
    code = main(args + ["--no-wait"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err
    return err


def test_an_unknown_section_or_key_is_refused_naming_the_known_keys(reached, capsys):
    err = refused(capsys, "clokc.seed=7")
    assert err == ("propctl deploy: --set: 'clokc' is not a setting (the settings are: board, clock, "
                   "football, fusebox, net, prop). Nothing was copied or removed\n")
    err = refused(capsys, "clock.sedd=7")
    assert err.startswith("propctl deploy: --set: clock.sedd is not a setting (the clock settings are: "
                          "battery_divider_permille, battery_min_mv, bridge, chime, ")
    assert reached == []


def test_a_value_the_firmware_refuses_is_refused_with_its_range(reached, capsys):
    err = refused(capsys, "clock.seed=-1", "football.quarters=3")
    assert err == ("propctl deploy: --set: clock.seed: -1 is not null or a whole number 0..4294967295; "
                   "football.quarters: 3 is not one of 2, 4, 6, 8. Nothing was copied or removed\n")
    err = refused(capsys, "clock=7")
    assert ("clock is a section, not a value: set one of its keys, "
            "e.g. clock.battery_divider_permille=VALUE") in err
    assert reached == []


def test_good_settings_go_on_to_the_board(reached, capsys):
    code = main(BASE + ["--set", "clock.seed=7", "--set", 'clock.limits={"round_min_ms": 2000}',
                        "--set", "board=pico", "--no-wait"])  # the same board again is harmless
    assert code == 0, capsys.readouterr().err
    assert reached == ["compile", ("board", {"clock": {"seed": 7, "limits": {"round_min_ms": 2000}},
                                            "board": "pico"})]


@pytest.mark.parametrize("sets, words", [
    (["board=esp32"], "--set board=esp32 contradicts --board pico (name the board with --board alone)"),
    (["prop=fusebox"], "--set prop=fusebox contradicts --prop clock (name the prop with --prop alone)"),
    (['board={"x": 1}'], '--set board={"x": 1} contradicts --board pico'),
])
def test_a_set_board_or_prop_against_the_options_is_refused_before_the_board(sets, words, reached, capsys):
    # before: --set board=esp32 with --board pico wrote {"board": "esp32"} after the chip was
    # checked as a Pico (exit 0); --set prop=fusebox reset the board into the other prop (exit 1)
    err = refused(capsys, *sets)
    assert words in err and err.rstrip().endswith("Nothing was copied or removed")
    assert reached == []


def test_the_words_are_the_sims(reached, capsys):
    """`propctl sim clock` learns the names from MicroPython; deploy says the same of the same --set."""
    sets = ["--set", "clokc.seed=7", "--set", "clock.chme=piezo"]
    sim = subprocess.run([sys.executable, "-m", "propctl.cli", "sim", "clock", "--non-interactive", *sets],
                         capture_output=True, text=True, timeout=60)
    assert sim.returncode == 2, sim.stderr
    said = sim.stderr.strip().split(": ", 1)[1]
    assert main(BASE + sets) == 2
    assert capsys.readouterr().err.strip().split(": ", 1)[1] == said + ". Nothing was copied or removed"


def test_the_settings_of_the_tree_being_deployed_are_the_ones_checked(reached, capsys, tmp_path):
    tree = tmp_path / "firmware"
    shutil.copytree(FIRMWARE_DIR, tree, ignore=shutil.ignore_patterns("__pycache__"))
    source = tree / "lib" / "props" / "clock" / "settings_schema.py"  # the clock's section
    text = source.read_text()
    renamed = text.replace('"chime": ("choice",', '"bell": ("choice",')
    assert renamed != text  # the setting's line as the clock's settings_schema.py writes it
    source.write_text(renamed)
    err = refused(capsys, "clock.chime=piezo", firmware=tree)
    assert "clock.chime is not a setting (the clock settings are: " in err and "bell" in err
    assert main(BASE + ["--set", "clock.bell=solenoid", "--firmware", str(tree), "--no-wait"]) == 0
    # and the next check reads this clone's firmware again, not the tree loaded before
    assert "clock.bell is not a setting" in refused(capsys, "clock.bell=solenoid")


@pytest.mark.parametrize("extra", [["--set", "clock.seed=7"], ["--prop", "fusebox"], ["--board", "pico"],
                                   ["--firmware", "firmware"]])
def test_a_deck_deploy_refuses_options_it_would_drop(reached, capsys, tmp_path, extra):
    deck = tmp_path / "deck.bin"
    deck.write_bytes(b"not looked at")
    assert main(["deploy", "--port", PORT, "--cards", str(deck)] + extra) == 2
    err = capsys.readouterr().err
    assert "--cards copies the card deck only; %s would be ignored" % extra[0] in err
    assert "Nothing was copied" in err
    assert reached == []


@pytest.mark.parametrize("args, words", [
    (["--prop", "clock", "--board", "pico", "--set", "board=esp32"], "--set board=esp32 contradicts"),
    (["--prop", "clock"], "give --prop and --board"),
    (["--cards", "deck.bin", "--prop", "clock"], "--cards copies the card deck only"),
])
def test_usage_errors_come_before_looking_for_a_board(args, words, reached, capsys, monkeypatch):
    # --port auto is found by the cli for every board command; with no board plugged in it
    # said "found no MicroPython board" (exit 1) before these usage errors (exit 2)
    from propctl.serial_link import ports

    def no_board(port):
        raise ports.PortError("--port auto found no MicroPython board")
    monkeypatch.setattr(ports, "resolve_port", no_board)
    monkeypatch.setattr("propctl.cli.resolve_port", no_board)
    assert main(["deploy", "--port", "auto"] + args) == 2
    err = capsys.readouterr().err
    assert words in err and "no MicroPython board" not in err
    assert reached == []
