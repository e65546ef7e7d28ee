"""A fourth prop is one folder and one registry line (docs/development.md, "Adding a prop").

The fixture tests/fixtures/props/lamp (the minimum a prop needs: build() and its app, its
settings section, pins, self-test steps, discovery entity and freeze list) is copied into a
copy of the firmware tree with NAME added to props.NAMES, exactly as the docs say; then
settings take a config naming it and check its section, the reference pages show its
settings and pins, the freeze manifest freezes it, and on the virtual board (MicroPython
unix port) it boots as main.py boots a prop, answers its commands and runs its self-test.
"""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from micropython_harness import find_micropython

from propctl.build import FIRMWARE_DIR, firmware_props
from propctl.launcher import board_env
from propctl.settings import check_sets, firmware_settings

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "props" / "lamp"
REGISTRY_LINE = 'NAMES = ("clock", "fusebox", "football")'


def add_prop(tree: Path, name: str = "lamp") -> Path:
    """The docs' two steps: copy the folder, add the name to the one registry line."""
    shutil.copytree(FIXTURE, tree / "lib" / "props" / name)
    registry = tree / "lib" / "props" / "__init__.py"
    text = registry.read_text(encoding="utf-8")
    assert text.count(REGISTRY_LINE) == 1, "the registry line changed: update docs/development.md too"
    registry.write_text(text.replace(REGISTRY_LINE, REGISTRY_LINE[:-1] + ', "%s")' % name),
                        encoding="utf-8")
    return tree


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    tree = tmp_path_factory.mktemp("firmware")
    shutil.copytree(FIRMWARE_DIR, tree, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__"))
    return add_prop(tree)


def test_the_registry_names_it(tree):
    assert firmware_props(tree) == ("clock", "fusebox", "football", "lamp")


def test_settings_accept_a_config_naming_it_and_check_its_section(tree):
    settings = firmware_settings(tree / "lib")
    result, errors = settings.merge({"prop": "lamp", "lamp": {"start_lit": True, "debounce_ms": 0}})
    assert result["prop"] == "lamp" and result["lamp"]["start_lit"] is True
    assert errors == ["lamp.debounce_ms: 0 is not a whole number 1..50; using the default 20"]
    assert check_sets({"lamp": {"colour": 1}}, tree / "lib") == [
        "lamp.colour is not a setting (the lamp settings are: debounce_ms, start_lit, watchdog_ms)"]
    # the repository's own firmware has no such prop: the same config is refused there
    _, errors = firmware_settings(FIRMWARE_DIR / "lib").merge({"prop": "lamp"})
    assert errors and errors[0].startswith('prop: "lamp" is not one of')


def test_the_reference_shows_its_settings_and_pins(tree):
    code = ("import json, sys\nfrom pathlib import Path\nfrom propctl.reference import generate\n"
            "generate.LIB = Path(sys.argv[1])\n"
            "print(json.dumps([generate.settings_page(), generate.pins_page()]))\n")
    done = subprocess.run([sys.executable, "-c", code, str(tree / "lib")], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    settings_page, pins_page = json.loads(done.stdout)
    assert ("| `lamp.start_lit` | true/false | true or false | `false` | the lamp is lit at boot |"
            in settings_page)
    assert "## `lamp`" in pins_page and "| `lamp` | GP15 (pin 20) |" in pins_page


def test_the_freeze_manifest_freezes_its_folder_and_not_its_freeze_list(tree):
    calls = []
    names = {name: (lambda n: lambda *a, **k: calls.append((n, a, k)))(name)
             for name in ("include", "metadata", "package", "module", "require")}
    before = os.getcwd()
    os.chdir(tree)
    try:
        exec(compile((tree / "manifest.py").read_text(), "manifest.py", "exec"), names)
    finally:
        os.chdir(before)
    props = next(k["files"] for name, a, k in calls if name == "package" and a[0] == "props")
    assert "lamp/__init__.py" in props and "lamp/selftest_steps.py" in props
    assert "lamp/freeze.py" not in props


def test_it_boots_answers_and_runs_its_self_test_on_the_virtual_board(tree, tmp_path):
    (tmp_path / "config.json").write_text(json.dumps({"prop": "lamp", "lamp": {"debounce_ms": 0},
                                                      "clock": {"nonsense": 1}}))
    script = Path(__file__).resolve().parent / "mp_fourth_prop.py"
    done = subprocess.run([find_micropython(), "-X", "heapsize=4M", str(script)], capture_output=True,
                          text=True, cwd=tmp_path, timeout=60, env=board_env(tree / "lib"))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    # its section checked at boot; another prop's section is not read where that prop does not run
    assert out["errors"] == ["lamp.debounce_ms: 0 is not a whole number 1..50; using the default 20"]
    assert out["lamp"] == {"start_lit": False, "debounce_ms": 20, "watchdog_ms": 2000}
    messages = [json.loads(line) for line in out["lines"]]
    boot = next(m["data"] for m in messages if m.get("ev") == "boot")
    assert boot["prop"] == "lamp" and "toggle" in boot["caps"] and "selftest_begin" in boot["caps"]
    replies = {m["re"]: m for m in messages if "re" in m}
    assert replies[1]["ok"] == {"lit": True}
    steps = replies[2]["ok"]
    assert [s[0] for s in steps["outputs"]] == ["lamp", "led"]
    assert [s[0] for s in steps["inputs"]] == ["button"]
    assert replies[3]["ok"] == {"ms": 2000}
    assert {"seq": 7, "ev": "selftest_done", "data": {"name": "lamp"}} in messages
    # off at boot, lit by the toggle, off when the self-test begins, then the step's three blinks
    assert out["levels"][:3] == [0, 1, 0] and out["levels"][3:] == [0, 1, 0, 1, 0, 1, 0]
    # only the prop that runs was imported (no other prop's module), and its settings section
    # forgotten after the boot (its pins are back: the self-test imported them afresh)
    assert out["modules"] == ["props.lamp", "props.lamp.pinout", "props.lamp.selftest_steps", "props.pins"]
