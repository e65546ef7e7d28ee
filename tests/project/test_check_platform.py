"""`make setup` checks platform and Python before installing anything, and says what to run."""
import shutil
import subprocess
import sys
from pathlib import Path

from propctl.build import REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "host_tools"))
from check_platform import diagnose  # noqa: E402  (a script beside the package, stdlib only)


def test_linux_x86_64_with_3_11_or_3_12_goes_on():
    assert diagnose("Linux", "x86_64", (3, 12), False, None) == ([], [])
    assert diagnose("Linux", "x86_64", (3, 11), False, (3, 11)) == ([], [])


def test_python_3_13_on_linux_is_told_to_use_3_12_before_anything_is_installed():
    problems, _ = diagnose("Linux", "x86_64", (3, 13), False, None, "python3.13")
    assert len(problems) == 1
    assert "Nothing was installed" in problems[0] and "make sim PYTHON=python3.12" in problems[0]


def test_macos_and_arm_are_told_how_to_build_the_unix_port_or_pass_one():
    for system, machine in (("Darwin", "arm64"), ("Linux", "aarch64")):
        problems, _ = diagnose(system, machine, (3, 12), False, None)
        assert "make sim MICROPYTHON=" in problems[0] and "ports/unix" in problems[0]
        assert diagnose(system, machine, (3, 12), True, None) == ([], [])  # MICROPYTHON= given


def test_the_webassembly_micropython_is_the_fallback_when_it_is_there():
    problems, notes = diagnose("Darwin", "arm64", (3, 13), False, None, wasm="node mpwasm.mjs")
    assert problems == [] and "WebAssembly" in notes[0]


def test_a_venv_made_by_another_python_is_made_again():
    _, notes = diagnose("Linux", "x86_64", (3, 12), False, (3, 13), "python3.12")
    assert ".venv was made by Python 3.13" in notes[0] and "made again" in notes[0]


def test_make_removes_a_venv_of_another_python_before_installing(tmp_path):
    shutil.copy(REPO_ROOT / "Makefile", tmp_path)
    (tmp_path / "host_tools").mkdir()
    shutil.copy(REPO_ROOT / "host_tools" / "check_platform.py", tmp_path / "host_tools")
    fake = tmp_path / ".venv" / "bin" / "python"
    fake.parent.mkdir(parents=True)
    fake.write_text("#!/bin/sh\necho 3 9\n")  # a .venv left by Python 3.9
    fake.chmod(0o755)
    result = subprocess.run(["make", "check-platform", "PYTHON=" + sys.executable, "MICROPYTHON=/bin/true"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result
    assert ".venv was made by Python 3.9" in result.stdout
    assert not (tmp_path / ".venv").exists()
    fake.parent.mkdir(parents=True)
    fake.write_text("#!/bin/sh\necho %d %d\n" % sys.version_info[:2])  # the same Python: kept
    fake.chmod(0o755)
    result = subprocess.run(["make", "check-platform", "PYTHON=" + sys.executable, "MICROPYTHON=/bin/true"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and fake.exists() and "note" not in result.stdout, result
    assert Path(tmp_path / ".venv").is_dir()
