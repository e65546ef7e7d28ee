"""`propctl ... --help` of every command and subcommand, as an 80x24 terminal shows it."""
import argparse

import pytest

from propctl.cli import build_parser

# The sims' own help texts (host_tools/propctl/sim/command.py) hold lines written
# wider than 80 columns and no examples for clock/fusebox/football; that module has
# another owner. Strict: the day they fit, these entries must go.
SIM_TEXT_TOO_WIDE = {("sim",), ("sim", "fusebox"), ("sim", "football")}
SIM_WITHOUT_EXAMPLES = {("sim", "clock"), ("sim", "fusebox"), ("sim", "football")}


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


def _strict_xfail(path, known, why):
    if path in known:
        return pytest.mark.xfail(strict=True, reason=why)
    return []


@pytest.mark.parametrize("path", [
    pytest.param(path, marks=_strict_xfail(path, SIM_TEXT_TOO_WIDE, "sim/command.py's text"))
    for path in COMMANDS], ids=lambda path: " ".join(path) or "propctl")
def test_help_fits_80_columns(path, monkeypatch):
    text = _help(path, monkeypatch)
    wide = [line for line in text.splitlines() if len(line) > 80]
    assert wide == []


LEAVES = [path for path, parser in _commands(build_parser())
          if not any(isinstance(a, argparse._SubParsersAction) for a in parser._actions)]


@pytest.mark.parametrize("path", [
    pytest.param(path, marks=_strict_xfail(path, SIM_WITHOUT_EXAMPLES, "sim/command.py's text"))
    for path in LEAVES], ids=lambda path: " ".join(path))
def test_help_of_every_command_shows_an_example_of_itself(path, monkeypatch):
    text = _help(path, monkeypatch)
    command = "propctl " + " ".join(path)
    examples = [line for line in text.splitlines()
                if line.startswith(" ") and line.strip().startswith(command)]
    assert examples, "no indented example line starting with %r" % command
