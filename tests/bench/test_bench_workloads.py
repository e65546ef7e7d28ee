"""Each prop's bench workload lives in its own folder (issue 34, "a prop is one folder").

The heap bench's rounds are host_tools/propctl/vboard/vprops/NAME/workload.py, found by
the prop's name from the firmware's registry (props.NAMES): on the desktop by
bench/workloads.py, on MicroPython by bench/mp_firmware.py's workload(). Before, they
were a dict of three names in bench/mp_firmware.py, so a fourth prop in the registry
crashed the bench with KeyError. Here the fixture prop `lamp` (tests/fixtures/props/lamp,
no workload) is added to a copy of the firmware's registry: the bench lists it as having
no workload and MicroPython says so, while each real prop's workload is its own folder's.
"""
import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from micropython_harness import find_micropython

from propctl.build import FIRMWARE_DIR, PROPS, firmware_props
from propctl.launcher import VBOARD_DIR, board_env

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench"
FIXTURE = ROOT / "tests" / "fixtures" / "props" / "lamp"


def load_bench_module(name):
    """bench/NAME.py, imported with bench/ on the path (its modules import common.py beside them)."""
    sys.path.insert(0, str(BENCH))
    try:
        spec = importlib.util.spec_from_file_location("bench_" + name, BENCH / (name + ".py"))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCH))
    return module


def load_workloads():
    return load_bench_module("workloads")


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """A copy of the firmware with the lamp in its folder and in props.NAMES (the docs' two steps)."""
    tree = tmp_path_factory.mktemp("firmware")
    shutil.copytree(FIRMWARE_DIR, tree, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(FIXTURE, tree / "lib" / "props" / "lamp")
    registry = tree / "lib" / "props" / "__init__.py"
    text = registry.read_text(encoding="utf-8")
    line = "NAMES = (%s)" % ", ".join('"%s"' % name for name in PROPS)
    assert text.count(line) == 1, "the registry line changed"
    registry.write_text(text.replace(line, line[:-1] + ', "lamp")'), encoding="utf-8")
    assert firmware_props(tree) == tuple(PROPS) + ("lamp",)
    return tree


def test_the_desktop_lookup_lists_the_lamp_as_having_no_workload(tree):
    workloads = load_workloads()
    found, without = workloads.split(firmware_props(tree))
    assert found == list(PROPS) and without == ["lamp"]
    assert workloads.skipped_line("lamp") == "lamp: no bench workload (no vprops/lamp/workload.py), skipped"
    for prop in PROPS:  # each in its own folder, with its round in words for the report
        assert workloads.workload_file(prop) == VBOARD_DIR / "vprops" / prop / "workload.py"
        assert workloads.round_words(prop) != "runs its workload"


def run_bench_script(tree, *args):
    env = board_env(tree / "lib", BENCH)
    done = subprocess.run([find_micropython(), "-X", "heapsize=8M", str(BENCH / args[0])] + list(args[1:]),
                          capture_output=True, text=True, cwd=str(tree), env=env, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_micropython_says_the_lamp_has_no_workload_where_it_crashed(tree):
    assert run_bench_script(tree, "mp_firmware.py", "lamp", "", "") == {"prop": "lamp", "no_workload": True}
    (tree / "order.json").write_text(json.dumps({"order": []}))
    assert run_bench_script(tree, "mp_heap.py", "lamp", "", "", "measure", "order.json") == {
        "prop": "lamp", "no_workload": True}


def test_micropython_finds_each_real_props_workload_in_its_own_folder(tree):
    code = ("import mp_firmware\nfor p in %r:\n    print(p, mp_firmware.workload(p).__file__)\n"
            "print(mp_firmware.workload('lamp'))\n" % (list(PROPS),))
    done = subprocess.run([find_micropython(), "-c", code], capture_output=True, text=True,
                          cwd=str(tree), env=board_env(tree / "lib", BENCH), timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.split("\n")
    for prop, line in zip(PROPS, lines):
        assert line == "%s %s" % (prop, VBOARD_DIR / "vprops" / prop / "workload.py")
    assert lines[len(PROPS)] == "None"


def test_the_clock_round_still_runs_with_the_lamp_in_the_registry(tree):
    # the lamp in the registry changes nothing for the others: the clock's round still runs
    out = run_bench_script(tree, "mp_firmware.py", "clock", "", "")
    assert out["prop"] == "clock" and out["held_after"] > 0 and not out.get("memory_error")


def test_the_heap_report_names_a_prop_without_workload_and_each_props_round():
    heap = load_bench_module("heap")
    assert heap.PROPS == list(PROPS) and heap.NO_WORKLOAD == []
    heap.NO_WORKLOAD = ["lamp"]
    text = heap.method_text()
    assert "lamp: no bench workload (no vprops/lamp/workload.py), skipped." in text
    for prop in PROPS:
        assert "`%s` %s" % (prop, load_workloads().round_words(prop)) in text


def test_the_hot_path_table_has_a_skipped_row_for_a_prop_without_workload(monkeypatch):
    realtime = load_bench_module("realtime")
    rows = [{"path": "control", "iterations": 4, "allocations": 1, "us_per_iteration": 1.0, "rounds": None},
            {"path": "lamp", "no_workload": True}]
    monkeypatch.setattr(realtime, "hot_paths", lambda interpreter, iterations: rows)
    monkeypatch.setattr(realtime, "find_micropython", lambda: "unix")
    monkeypatch.setattr(realtime, "find_micropython_wasm", lambda: "wasm")
    section = realtime.bench_hot_paths(True, None)[0]
    assert "| lamp: no bench workload, skipped | - | - | - | - | - |  |" in section


def test_a_name_that_is_no_prop_folder_has_no_workload_and_imports_nothing(tree):
    # vprops/generic.py is a script: importing it as a prop's package would run it
    code = ("import sys, mp_firmware\n"
            "for p in ('generic', '', '../clock', 'clock/../clock', 'clock.bench'):\n"
            "    print(mp_firmware.workload(p))\nprint('vprops.generic' in sys.modules)\n")
    done = subprocess.run([find_micropython(), "-c", code], capture_output=True, text=True,
                          cwd=str(tree), env=board_env(tree / "lib", BENCH), timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["None"] * 5 + ["False"]
