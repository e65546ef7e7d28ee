"""Setting overrides from the command line: `--set KEY=VALUE` items into one nested dict.

    parse_sets(["clock.motor=stepper", 'clock.limits={"round_min_ms": 2000}', "board=esp32"])
    -> {"clock": {"motor": "stepper", "limits": {"round_min_ms": 2000}}, "board": "esp32"}

VALUE is JSON, or a bare word taken as a string (`clock.chime=solenoid`). Dots in
KEY nest. The result has the shape of config.json: the firmware's own
settings.merge checks it, and the virtual-board runners take it whole as
`--overrides JSON`. Used by `propctl sim` (every prop) and `propctl deploy`.
`load_config` reads a `--config` file (the virtual board's config.json) for the sims
and `sim --broker`.
"""
import json
from typing import Optional

from propctl.launcher import SimError


def _not_json(name: str):
    # NaN and Infinity are not JSON (MicroPython's json refuses them): the word stays a string
    raise ValueError(name)


def _finite(text: str) -> float:
    # 1e400 would be Python's inf, written out as Infinity: it stays a string like NaN
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(text)
    return value


def parse_sets(items) -> dict:
    """Nested overrides from KEY=VALUE items; ValueError naming the item that is not one."""
    result: dict = {}
    for item in items or ():
        key, sep, text = item.partition("=")
        parts = key.split(".")
        if not sep or not all(parts):
            raise ValueError("--set wants KEY=VALUE, e.g. --set clock.seed=7 (got %r)" % item)
        try:
            value = json.loads(text, parse_constant=_not_json, parse_float=_finite)
        except RecursionError:
            raise ValueError("--set %s: the value is nested too deeply" % key) from None
        except ValueError:
            value = text  # a bare word is a string: --set clock.chime=solenoid
        target = result
        for part in parts[:-1]:
            if not isinstance(target.get(part), dict):
                target[part] = {}
            target = target[part]
        target[parts[-1]] = value
    return result


def combine(base: dict, overrides: dict) -> dict:
    """`base` (e.g. a config.json) with `overrides` laid over it, as the firmware's settings.merge does:
    sections ({"clock": {...}}) are merged key by key, a setting's value (even an object such as
    clock.limits) replaces the old one whole."""
    result = dict(base)
    for key, value in overrides.items():
        if isinstance(value, dict) and isinstance(result.get(key), dict):
            section = dict(result[key])
            section.update(value)
            result[key] = section
        else:
            result[key] = value
    return result


# A board's config.json is a few hundred bytes; the firmware refuses more than 8 KB.
CONFIG_LIMIT = 64 * 1024


def load_config(path: Optional[str]) -> dict:
    """The --config file's object ({} without one); SimError when it cannot be used."""
    if not path:
        return {}
    from propctl.inputfile import InputFileError, read_json  # a leaf: regular files, bounded reads
    try:
        data = read_json(path, CONFIG_LIMIT)
    except InputFileError as exc:
        raise SimError("--config %s %s" % (path, exc)) from None
    if not isinstance(data, dict):
        raise SimError("--config %s must hold a JSON object {...}" % path)
    return data
