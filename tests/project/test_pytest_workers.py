"""`make pytest` runs each test file in one worker, so a module's fixtures are built once.

Before: the Makefile asked for `--dist loadgroup` with `xdist_group` marks on the test files
whose fixtures are costly (an installed wheel, a deployed virtual board). With pytest 9.2 and
pytest-xdist 3.8 the group marks have no effect: xdist renames the items' node ids to carry the
group, and pytest 9 no longer reads the attribute it writes. The tests of one file went to every
worker, and each worker built the file's fixtures again (the wheel and its venv, 20 s each).
"""
import re
import subprocess
import sys

from propctl.build import REPO_ROOT

PROBE = '''
import pytest

@pytest.fixture(scope="module")
def built(tmp_path_factory):
    with open(BUILDS, "a") as log:
        log.write("built\\n")

@pytest.mark.parametrize("n", range(12))
def test_uses_the_module_fixture(built, n):
    pass
'''


def makefile_dist() -> list:
    """The pytest options `make pytest` distributes with (PYTEST_DIST)."""
    text = (REPO_ROOT / "Makefile").read_text()
    return re.search(r"^PYTEST_DIST := (.*)$", text, re.M).group(1).split()


def test_a_module_fixture_is_built_once_across_the_workers(tmp_path):
    builds = tmp_path / "builds.txt"
    (tmp_path / "test_probe.py").write_text("BUILDS = %r\n" % str(builds) + PROBE)
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "3",
                           *makefile_dist(), "test_probe.py"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "12 passed" in done.stdout, done.stdout
    assert builds.read_text().splitlines() == ["built"]
