"""The installed package carries every Python package the code imports."""
from pathlib import Path

import tomllib

from propctl.build import FIRMWARE_PACKAGE

ROOT = Path(__file__).resolve().parents[2]


def test_every_package_is_listed_for_installation():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    found = set()
    for name, folder in config["package-dir"].items():
        if name == FIRMWARE_PACKAGE:
            continue  # the whole firmware tree as package data (test_install.py checks the wheel)
        base = ROOT / folder
        for init in base.rglob("__init__.py"):
            relative = init.parent.relative_to(base).parts
            if name == "propctl" and relative[:1] == ("vboard",):
                continue  # vboard/ is data MicroPython runs (package-data: vboard/**/*.py), its
                # vprops/ packages imported there, never by CPython
            found.add(".".join((name,) + relative))
    assert found | {FIRMWARE_PACKAGE} == listed, "not in pyproject: %s" % sorted(found - listed)
