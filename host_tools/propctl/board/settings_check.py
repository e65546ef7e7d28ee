"""`--set` values checked on the desktop against the firmware's own settings, before a board is touched.

    problems = check_sets(parse_sets(["clokc.seed=7"]), FIRMWARE_DIR)
    -> ["'clokc' is not a setting (the settings are: board, clock, football, fusebox, prop)"]

The firmware's settings.py (SCHEMA, DEFAULTS, merge) is plain Python that CPython
runs as well: it is loaded from the firmware tree that is about to be deployed (a
clone's firmware/, --firmware DIR, or the package data of an installed propctl),
so the names and ranges are the ones the board will check at boot. Unknown keys
are worded as `propctl sim` words them (propctl.sim.runner.unknown_keys, the one
copy of that check); a value of the wrong type or out of range gets the
firmware's own message without the "using the default" the board would go on with.
"""
import importlib
import sys
from pathlib import Path

from propctl.sim.runner import unknown_keys

# settings.py imports boards and props (props/__init__.py: NAMES) as top-level modules
_FIRMWARE_MODULES = ("settings", "boards", "props")
_BOARD_GOES_ON = "; using the default"


class SettingsUnreadable(Exception):
    """The firmware tree's settings.py cannot be loaded (a broken or foreign tree)."""


def firmware_settings(root: Path):
    """The settings module of the firmware tree `root` (root/lib/settings.py), loaded by CPython.

    The firmware's top-level names (settings, boards, props) are in sys.modules only while it
    loads: whatever held those names before is put back."""
    lib = str(Path(root) / "lib")
    saved = {name: sys.modules.pop(name) for name in _FIRMWARE_MODULES if name in sys.modules}
    sys.path.insert(0, lib)
    try:
        return importlib.import_module("settings")
    except Exception as exc:  # SyntaxError, ImportError, ... of a tree that is not ours
        raise SettingsUnreadable("cannot read the firmware's settings in %s (%s: %s)"
                                 % (lib, type(exc).__name__, exc)) from None
    finally:
        sys.path.remove(lib)
        for name in _FIRMWARE_MODULES:
            sys.modules.pop(name, None)
        sys.modules.update(saved)


def check_sets(sets: dict, root: Path) -> list:
    """Why the nested --set overrides `sets` would not be taken by the firmware in `root`:
    one sentence per bad key (unknown keys first), [] when the board would take them all."""
    settings = firmware_settings(root)
    problems = unknown_keys(sets, settings.DEFAULTS)
    known: dict = {}
    for key, value in sets.items():
        if key not in settings.DEFAULTS:
            continue
        if isinstance(settings.DEFAULTS[key], dict):
            if isinstance(value, dict):  # not an object: unknown_keys said so
                known[key] = {sub: value[sub] for sub in value if sub in settings.DEFAULTS[key]}
        else:
            known[key] = value
    _, errors = settings.merge(known)
    return problems + [message.split(_BOARD_GOES_ON)[0] for message in errors]
