"""Print the link's command tables as the firmware builds them (MicroPython side).

    MICROPYPATH=<this folder>:firmware/lib micropython link_tables.py

One JSON object: group -> {command: argument schema}, for the link's own
commands ("builtin"), those of every running prop ("run"), of safe and
maintenance mode ("idle"), of the self-test ("selftest") and of each prop in
props.NAMES, built with its default settings on the virtual board.
propctl.reference writes docs/reference/link.md from it.
"""
import json

import props
import selftest
import settings

from link import startup
from link.router import BUILTIN, Link


def _schemas(commands: dict) -> dict:
    return {name: commands[name][1] for name in commands}


def _quiet(name, fields=None) -> None:
    pass


def tables() -> dict:
    link = Link(lambda line: None, {})
    out = {"builtin": BUILTIN, "run": _schemas(startup.run_commands(link)),
           "idle": _schemas(startup.idle_commands(link, "safe", 0))}
    for name in props.NAMES:
        config, _ = settings.merge({"prop": name})
        module = __import__("props." + name, None, None, ["build"])
        app = module.build(config, _quiet, None)
        own = app.commands()
        wrapped = selftest.wrap(app, config, _quiet).commands()
        out[name] = _schemas(own)
        out["selftest"] = {key: wrapped[key][1] for key in wrapped if key not in own}
    return out


print(json.dumps(tables()))
