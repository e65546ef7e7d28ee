"""The firmware's settings read on the desktop: the one reader that deploy and the sims use.

    problems = check_sets(parse_sets(["clokc.seed=7"]), FIRMWARE_DIR / "lib")
    -> ["'clokc' is not a setting (the settings are: board, clock, football, fusebox, net, prop)"]

The firmware's settings.py (specs(), defaults(), merge) is plain Python that CPython
runs as well: it is loaded from the firmware that is about to run (a clone's
firmware/lib, --firmware DIR, or the package data of an installed propctl), so
the names and ranges are the ones the board checks at boot. `unknown_keys` words
a key the firmware does not know; `check_sets` adds every value of the wrong
type or out of range, in the firmware's own words without the "using the
default" the board would go on with. Deploy refuses both before it touches a
board; a sim refuses unknown keys and lets the board report a bad value, as a
board would at boot. Nothing here runs MicroPython or touches a board.
"""
import importlib
import sys
from pathlib import Path

# settings.py imports boardprofiles and props (props/__init__.py: the registry) as top-level
# modules, and each prop's section from props/NAME/settings_schema.py (props.NAME...)
_FIRMWARE_MODULES = ("settings", "boardprofiles", "props")


def _firmware_names() -> list:
    return [name for name in sys.modules if name in _FIRMWARE_MODULES or name.startswith("props.")]
_BOARD_GOES_ON = "; using the default"


class SettingsUnreadable(Exception):
    """The firmware's settings.py cannot be loaded (a broken or foreign tree)."""


def firmware_settings(lib: Path):
    """The settings module of the firmware folder `lib` (lib/settings.py), loaded by CPython.

    The firmware's top-level names (settings, boardprofiles, props and its prop packages) are
    in sys.modules only while it loads: whatever held those names before is put back. Every
    prop's section (settings.specs(), through the registry props.ALL) is read while the tree is
    on the path; the module keeps them (settings._SECTIONS), so later calls import nothing."""
    folder = str(lib)
    saved = {name: sys.modules.pop(name) for name in _firmware_names()}
    sys.path.insert(0, folder)
    try:
        module = importlib.import_module("settings")
        module.specs()
        broken = getattr(module, "BROKEN", [])  # a board boots past a broken prop; deploy must not
        if broken:
            raise SettingsUnreadable("cannot read the firmware's settings in %s (%s)" % (folder, broken[0]))
        return module
    except Exception as exc:  # SyntaxError, ImportError, ... of a tree that is not ours
        raise SettingsUnreadable("cannot read the firmware's settings in %s (%s: %s)"
                                 % (folder, type(exc).__name__, exc)) from None
    finally:
        sys.path.remove(folder)
        for name in _firmware_names():
            sys.modules.pop(name, None)
        sys.modules.update(saved)


def unknown_keys(overrides: dict, defaults: dict) -> list:
    """Why keys of `overrides` are not settings of the firmware: one sentence per bad key."""
    problems = []
    for key in sorted(overrides):
        value = overrides[key]
        if key not in defaults:
            problems.append("%r is not a setting (the settings are: %s)"
                            % (key, ", ".join(sorted(defaults))))
        elif isinstance(defaults[key], dict):
            section = sorted(defaults[key])
            if not isinstance(value, dict):
                problems.append("%s is a section, not a value: set one of its keys, e.g. %s.%s=VALUE"
                                % (key, key, section[0]))
                continue
            for sub in sorted(value):
                if sub not in defaults[key]:
                    problems.append("%s.%s is not a setting (the %s settings are: %s)"
                                    % (key, sub, key, ", ".join(section)))
    return problems


def check_sets(sets: dict, lib: Path) -> list:
    """Why the nested --set overrides `sets` would not be taken by the firmware in `lib`:
    one sentence per bad key (unknown keys first), [] when the board would take them all."""
    settings = firmware_settings(lib)
    defaults = settings.defaults()
    problems = unknown_keys(sets, defaults)
    known: dict = {}
    for key, value in sets.items():
        if key not in defaults:
            continue
        if isinstance(defaults[key], dict):
            if isinstance(value, dict):  # not an object: unknown_keys said so
                known[key] = {sub: value[sub] for sub in value if sub in defaults[key]}
        else:
            known[key] = value
    _, errors = settings.merge(known)
    return problems + [message.split(_BOARD_GOES_ON)[0] for message in errors]
