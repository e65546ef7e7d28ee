"""`propctl --help` imports only what it prints; a command line imports only the command it names.

Before: cli.py imported every subcommand (deploy, web's http.server, the card printer, the game
masters...): `propctl --help` took 0.5 s on an idle machine and 1.8 s on a busy one. The time
itself is measured as a ratio in bench/cli_bench.py, not here.
"""
import json
import subprocess
import sys

from propctl import cli

HEAVY = ["propctl.deploy", "propctl.web", "propctl.cards.cli", "propctl.games.fingerfootball",
         "propctl.games.pimaldaumen", "propctl.sim.command", "propctl.venue.view", "propctl.wokwi",
         "propctl.serial_link.monitor", "propctl.serial_link.selftest", "propctl.props.clock.plan",
         "http.server", "serial"]


def imported_by(argv):
    code = ("import sys\nfrom propctl import cli\ntry:\n    cli.main(%r)\nexcept SystemExit:\n    pass\n"
            "import json\nprint(json.dumps(sorted(sys.modules)))" % (argv,))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    return set(json.loads(done.stdout.splitlines()[-1])), done.stdout


def test_help_imports_no_command():
    modules, out = imported_by(["--help"])
    assert "cards     check, pack, show and print card decks" in out
    assert not [name for name in HEAVY if name in modules], [name for name in HEAVY if name in modules]


def test_a_command_imports_itself_and_not_the_others():
    modules, out = imported_by(["plan", "--help"])
    assert "propctl.props.clock.plan" in modules and "motion plan" in out
    assert not [name for name in HEAVY if name in modules and name != "propctl.props.clock.plan"]


def test_the_listed_help_is_each_commands_own():
    full = cli.build_parser()
    listed = cli.build_parser(["--help"])

    def helps(parser):
        action = parser._subparsers._group_actions[0]
        return [(choice.dest, choice.help) for choice in action._choices_actions]
    assert helps(listed) == helps(full)
    assert [name for name, _, _ in cli.SUBCOMMANDS] == [name for name, _ in helps(full)]
