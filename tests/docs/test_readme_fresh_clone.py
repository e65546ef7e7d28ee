"""The README and the build guides as a newcomer follows them, in a fresh clone.

`make sim`, then every command of README.md's and docs/build-*.md's sh blocks
that runs without a board, a person at the keyboard or minutes of real time,
exactly as printed, after the activation line `make sim` tells the user about.
Slow (a real `make sim` sets up .venv with every pinned tool, from pip's cache
or PyPI). The commands left out say why in `why_not_here`; the fast test below
fails for a command nobody has sorted, so a new one is run or has a reason.
The deploy and monitor commands run against the virtual board in
tests/serial_link/test_deploy_e2e.py and tests/project/test_install.py; `make test` itself is not
run again from inside the test suite.
"""
import os
import re
import subprocess

import pytest
from test_install import fresh_copy

from propctl.build import REPO_ROOT

# The pages whose commands a newcomer types: the front door and the build guides.
PAGES = ["README.md"] + sorted("docs/" + p.name for p in (REPO_ROOT / "docs").glob("build-*.md"))


def commands(page: str) -> list:
    """Every command line in a page's sh blocks (continuations joined, comments cut)."""
    text = (REPO_ROOT / page).read_text()
    lines = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.replace("\\\n", " ").splitlines():
            line = re.sub(r"\s+#.*$", "", line).strip()
            if line:
                lines.append(re.sub(r"\s+", " ", line))
    return lines


def readme_commands() -> list:
    return [line for page in PAGES for line in commands(page)]


def why_not_here(line: str) -> str:
    """Why a documented command is not run here ("" if it is)."""
    if "--port" in line:
        return "needs a board (tests/serial_link/test_deploy_e2e.py runs them on the virtual board)"
    if line in ("make test",) or line.startswith("make sim"):
        return "make sim runs first; make test is the suite itself"
    if line.startswith("propctl sim serve"):
        return "serves until Ctrl-C (tests/docs/test_docs_blocks.py runs step 0b's blocks with it running)"
    if line.startswith(". .venv/bin/activate"):
        return "the activation every command here runs after"
    if line.startswith(("propctl web", "propctl play ")) or line in ("propctl sim football",):
        return "a person at the keyboard or a browser"
    return ""


def runnable_here(line: str) -> bool:
    return not why_not_here(line)


def test_every_documented_command_is_run_here_or_says_why():
    runs = ("propctl ", "cp host_tools/", "printf ")
    for page in PAGES:
        for line in commands(page):
            assert why_not_here(line) or line.startswith(runs), "%s: sort out %r" % (page, line)


@pytest.mark.slow
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
    assert len(examples) >= 12, examples
    for line in examples:
        result = subprocess.run(["bash", "-c", ". .venv/bin/activate && " + line], cwd=clone, env=env,
                                stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, (line, result.stdout[-2000:], result.stderr[-2000:])
