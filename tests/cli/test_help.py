"""`propctl ... --help` of every command and subcommand, as an 80x24 terminal shows it."""
import argparse

import pytest

from propctl.cli import build_parser


def _commands(parser, path=()):
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _commands(sub, path + (name,))


COMMANDS = [path for path, _ in _commands(build_parser())]


def _help(path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    parsers = dict(_commands(build_parser()))
    return parsers[path].format_help()


@pytest.mark.parametrize("path", COMMANDS, ids=lambda path: " ".join(path) or "propctl")
def test_help_fits_80_columns(path, monkeypatch):
    text = _help(path, monkeypatch)
    wide = [line for line in text.splitlines() if len(line) > 80]
    assert wide == []


LEAVES = [path for path, parser in _commands(build_parser())
          if not any(isinstance(a, argparse._SubParsersAction) for a in parser._actions)]


@pytest.mark.parametrize("path", LEAVES, ids=lambda path: " ".join(path))
def test_help_of_every_command_shows_an_example_of_itself(path, monkeypatch):
    text = _help(path, monkeypatch)
    command = "propctl " + " ".join(path)
    examples = [line for line in text.splitlines()
                if line.startswith(" ") and line.strip().startswith(command)]
    assert examples, "no indented example line starting with %r" % command


@pytest.mark.parametrize("argv", [["sim", "clock", "--seed", "99999999999999999999"],
                                  ["cards", "print", "--lang", "xx" * 30],
                                  ["play", "pimaldaumen", "--no-such-option-" + "y" * 40]])
def test_a_usage_error_fits_80_columns(argv, capsys, monkeypatch):
    # Before: argparse printed 'propctl sim clock: error: argument --seed: ... the seeds the
    # props draw' on one 115-column line
    from propctl.cli import main
    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "error:" in err
    assert all(len(line) <= 80 for line in err.splitlines()), err


def test_make_help_fits_80_columns_and_lists_every_target():
    import subprocess
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    shown = subprocess.run(["make", "-s", "--no-print-directory", "help"], cwd=root,
                           capture_output=True, text=True, timeout=30, check=True).stdout
    wide = [line for line in shown.splitlines() if len(line) > 80]
    assert not wide, wide
    documented = {line.split(":")[0] for line in (root / "Makefile").read_text().splitlines()
                  if " ## " in line and line[:1].isalpha()}
    listed = {line.split()[1] for line in shown.splitlines() if line.startswith("  make ")}
    assert documented and documented == listed
