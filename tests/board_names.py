"""The board's names for the shared packages, in the pytest process: one module object per file.

The desktop imports the firmware's rules, cardpack and link as propctl.shared.rules etc.; the
board, and the code here that runs as the board does under CPython too (tests/both, the
differential scenarios, firmware modules loaded from firmware/lib), imports them as top-level
`rules`, `cardpack`, `link`. Loaded twice under the two names, one file would make two module
objects, and a TaskCard made by firmware code would not be a TaskCard to the desktop's
isinstance. So in this process the board's names are the desktop's modules themselves.

Only the test process does this: an installed propctl never puts a top-level `rules` into
sys.modules (tests/project/test_install.py checks it beside another project's `rules`).
"""
import importlib
import pkgutil
import sys

SHARED = ("rules", "cardpack", "link")
# Board-only: imports runtime, props and safemode as the board has them; it loads (under the
# board's name only) where a test puts firmware/lib on sys.path and imports it.
BOARD_ONLY = {"link.startup"}


def alias_board_names() -> None:
    for package in SHARED:
        shared = importlib.import_module("propctl.shared." + package)
        sys.modules.setdefault(package, shared)
        assert sys.modules[package] is shared, "%s was imported before its alias" % package
        for info in pkgutil.iter_modules(shared.__path__):
            name = package + "." + info.name
            if name in BOARD_ONLY:
                continue
            module = importlib.import_module("propctl.shared." + name)
            sys.modules.setdefault(name, module)
            assert sys.modules[name] is module, "%s was imported before its alias" % name
