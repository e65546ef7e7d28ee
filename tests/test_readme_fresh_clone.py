"""The README as a newcomer follows it, in a fresh clone: `make sim`, then its `propctl` examples.

Slow (a real `make sim` sets up .venv with every pinned tool, from pip's cache or
PyPI). The examples run exactly as the README prints them, after the activation
line `make sim` tells the user about. Examples that need a board (`--port`), a
person at the keyboard (the game masters, `sim fusebox`) or minutes of real time
(`--speed 10`) are left out; the deploy and monitor examples run against the
virtual board in tests/test_deploy_e2e.py and tests/test_install.py. `make test`
itself is not run again from inside the test suite.
"""
import os
import re
import subprocess

import pytest
from test_install import fresh_copy

from propctl.build import REPO_ROOT

pytestmark = pytest.mark.slow


def readme_commands() -> list:
    """Every command line in the README's sh blocks (continuations joined, comments cut)."""
    text = (REPO_ROOT / "README.md").read_text()
    lines = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.replace("\\\n", " ").splitlines():
            line = re.sub(r"\s+#.*$", "", line).strip()
            if line:
                lines.append(re.sub(r"\s+", " ", line))
    return lines


def runnable_here(line: str) -> bool:
    if not line.startswith("propctl "):
        return False
    if "--help" in line or line.startswith("propctl cards "):
        return True
    return line.startswith("propctl sim clock") or line.startswith("propctl sim football --non-interactive")


def test_make_sim_then_the_readme_examples_work_in_a_fresh_clone(tmp_path):
    clone = fresh_copy(tmp_path / "clone")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "MICROPYTHON", "PYTHON"))}
    env["CI"] = "1"  # the event log, not the animation
    env["PATH"] = os.pathsep.join(p for p in env["PATH"].split(os.pathsep) if "/.venv/" not in p + "/")
    first = subprocess.run(["make", "sim"], cwd=clone, env=env, capture_output=True, text=True, timeout=1200)
    assert first.returncode == 0, first.stdout[-3000:] + first.stderr[-3000:]
    assert "done: 1 round(s)" in first.stdout and ". .venv/bin/activate" in first.stdout
    again = subprocess.run(["make", "sim"], cwd=clone, env=env, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0 and "pip install" not in again.stdout, again.stdout  # installs nothing
    examples = [line for line in readme_commands() if runnable_here(line)]
    assert len(examples) >= 10, examples
    for line in examples:
        result = subprocess.run(["bash", "-c", ". .venv/bin/activate && " + line], cwd=clone, env=env,
                                stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, (line, result.stdout[-2000:], result.stderr[-2000:])
