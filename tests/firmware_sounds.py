"""Every sound the props play, read from the firmware's source (never copied into a test).

    tuples(path)        {name: tuple} of a firmware module's module-level tuple constants
    prop_sounds()       {prop: [(name, melody), ...]}: each prop's SOUNDS table, resolved
    chime_calls()       [(file, line, prop, argument, kind)] of every chime .start() and piezo(...)
    band()              (low_hz, high_hz): drivers.chime.PIEZO_LOW_HZ / PIEZO_HIGH_HZ
"""
import ast
from pathlib import Path

LIB = Path(__file__).resolve().parents[1] / "firmware" / "lib"
# Where each prop's table lives, and the modules that may hold its melodies.
TABLES = {"clock": ("drivers/chime.py", "CLOCK_SOUNDS"),
          "fusebox": ("props/fusebox/constants.py", "SOUNDS"),
          "football": ("props/football/constants.py", "SOUNDS")}


def _module(rel: str) -> ast.Module:
    return ast.parse((LIB / rel).read_text())


def _value(node, names: dict):
    if isinstance(node, ast.Name):
        return names[node.id]
    if isinstance(node, ast.Tuple):
        return tuple(_value(e, names) for e in node.elts)
    if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "const":
        return _value(node.args[0], names)
    return ast.literal_eval(node)


def tuples(rel: str) -> dict:
    """Module-level constants of firmware/lib/<rel> (tuples and const ints), names resolved."""
    names: dict = {}
    for node in _module(rel).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                names[node.targets[0].id] = _value(node.value, names)
            except (ValueError, KeyError, TypeError, SyntaxError):
                pass
    return names


def prop_sounds() -> dict:
    return {prop: list(tuples(rel)[name]) for prop, (rel, name) in TABLES.items()}


def band() -> tuple:
    chime = tuples("drivers/chime.py")
    return chime["PIEZO_LOW_HZ"], chime["PIEZO_HIGH_HZ"]


def _prop_of(path: Path) -> str:
    parts = path.relative_to(LIB).parts
    return parts[1] if parts[0] == "props" and len(parts) > 2 else ""


def chime_calls() -> list:
    """Every place the props hand the piezo a melody: `<...chime>.start(now, MELODY)` and
    `piezo(MELODY)` (kind "start" or "piezo"), with the melody's source text ("" for none: a
    start() plays the chime's default melody, a piezo() keeps PiezoChime's default, BELL)."""
    out = []
    for path in sorted((LIB / "props").rglob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                continue
            func = node.func
            receiver = ast.unparse(func.value)
            if func.attr == "start" and "chime" in receiver.lower():
                arg = node.args[1] if len(node.args) > 1 else None
            elif func.attr == "piezo":
                arg = node.args[0] if node.args else None
            else:
                continue
            out.append((path.relative_to(LIB).as_posix(), node.lineno, _prop_of(path),
                        ast.unparse(arg) if arg is not None else "", func.attr))
    return out
