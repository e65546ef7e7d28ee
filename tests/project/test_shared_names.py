"""The firmware's shared packages have one name on the desktop: propctl.shared.rules, .cardpack, .link.

The board imports them as top-level `rules`, `cardpack` and `link` (/lib on its flash); the
desktop never does (`rules` is also another project's package, tests/project/test_install.py). In the
pytest process the board's names are aliases of the desktop's modules (tests/board_names.py), so a
desktop module that slipped back to `from rules...` would pass every in-process test: this file
reads the sources instead, and imports the shared packages in a process of their own.
"""
import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIB = ROOT / "firmware" / "lib"
SHARED = ("rules", "cardpack", "link")
# Board-only: it boots the board (props, runtime); the desktop never imports it.
BOARD_ONLY = {LIB / "link" / "startup.py"}


def board_name_imports(path: Path) -> list:
    """"line: module" for every absolute import of a shared package by its board name."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        found += ["%d: %s" % (node.lineno, name) for name in names if name.split(".")[0] in SHARED]
    return found


def cpython_only_sources() -> list:
    """The files only CPython runs: the desktop (not vboard/, which MicroPython runs), the tests'
    own modules in every folder (not tests/both, the fixtures, scenario_ and mp_ files: MicroPython
    runs those too) and the bench's CPython side (not its mp_ scripts)."""
    desktop = [p for p in (ROOT / "host_tools" / "propctl").rglob("*.py") if "vboard" not in p.parts]
    tests = [p for p in sorted((ROOT / "tests").rglob("*.py"))
             if not {"both", "fixtures"} & set(p.parts) and not p.name.startswith(("scenario_", "mp_"))]
    assert len(tests) > 150  # the test folders are read, not only tests/*.py
    bench = [p for p in sorted((ROOT / "bench").glob("*.py")) if not p.name.startswith("mp_")]
    return desktop + tests + bench


def test_desktop_code_imports_the_shared_packages_by_the_projects_name_only():
    wrong = {str(p.relative_to(ROOT)): board_name_imports(p) for p in cpython_only_sources()}
    assert {name: found for name, found in wrong.items() if found} == {}


def test_the_check_sees_a_board_name(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import json\nfrom propctl.shared.rules import rng\n\ndef f():\n"
                      "    from cardpack.question import FRAMES\n    import link.router\n")
    assert board_name_imports(sample) == ["5: cardpack.question", "6: link.router"]


def test_inside_a_shared_package_its_own_modules_are_imported_relatively():
    """`from .rng import Rng` works on the board (/lib/rules) and on the desktop (propctl.shared.rules)."""
    wrong = {}
    for package in SHARED:
        for path in sorted((LIB / package).glob("*.py")):
            found = board_name_imports(path)
            own = [line for line in found if line.split(": ")[1].split(".")[0] == package]
            if own and path not in BOARD_ONLY:
                wrong[str(path.relative_to(ROOT))] = own
    assert wrong == {}


PROBE = """
import importlib, pkgutil, sys
for package in ("rules", "cardpack", "link"):
    shared = importlib.import_module("propctl.shared." + package)
    for info in pkgutil.iter_modules(shared.__path__):
        if shared.__name__ + "." + info.name != "propctl.shared.link.startup":
            importlib.import_module(shared.__name__ + "." + info.name)
print(sorted(m for m in sys.modules if m.split(".")[0] in ("rules", "cardpack", "link")))
print(len([m for m in sys.modules if m.startswith("propctl.shared.")]))
"""


def test_importing_every_shared_module_puts_no_board_name_into_sys_modules(tmp_path):
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, cwd=tmp_path,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    top, count = done.stdout.splitlines()
    assert top == "[]"
    shipped = sum(1 for package in SHARED for p in (LIB / package).glob("*.py")) - len(BOARD_ONLY)
    assert int(count) == shipped  # every file, __init__.py as its package
