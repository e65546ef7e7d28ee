"""One version: firmware/lib/version.py; the manifest, package.json, pyproject.toml and propctl agree."""
import ast
import json
import re
from pathlib import Path

import propctl

ROOT = Path(__file__).resolve().parents[2]


def firmware_version() -> str:
    tree = ast.parse((ROOT / "firmware" / "lib" / "version.py").read_text(encoding="utf-8"))
    (value,) = [node.value.value for node in tree.body if isinstance(node, ast.Assign)
                and node.targets[0].id == "VERSION"]
    return value


def test_every_place_that_names_the_version_names_the_firmwares():
    version = firmware_version()
    assert re.fullmatch(r"\d+\.\d+\.\d+", version)
    manifest = (ROOT / "firmware" / "manifest.py").read_text(encoding="utf-8")
    assert re.findall(r'version="([^"]+)"', manifest) == [version]
    assert json.loads((ROOT / "package.json").read_text(encoding="utf-8"))["version"] == version
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^version = "([^"]+)"', pyproject, re.M).group(1) == version
    assert propctl.__version__ == version


def test_no_other_firmware_module_writes_a_version_string():
    version = firmware_version()
    writers = [str(p.relative_to(ROOT)) for p in (ROOT / "firmware").rglob("*.py")
               if '"%s"' % version in p.read_text(encoding="utf-8")]
    assert sorted(writers) == ["firmware/lib/version.py", "firmware/manifest.py"]
