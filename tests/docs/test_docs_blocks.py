"""Every shell block of README.md and docs/ marked runnable runs, and shows what its guide's
"It worked when" paragraph promises.

A block is marked by an HTML comment on the line before its fence (invisible when rendered):

    <!-- runnable -->                                   run it; every command must exit 0
    <!-- runnable: `FUSE BLOWN` `window N opened` -->   ...and the output shows each of these
    <!-- runnable served: ... -->                       ...with `propctl sim serve` running (as
                                                        a guide's "in one terminal" step says)

Each checked phrase must stand, in backticks, in the "**It worked** when" paragraph that follows
the block (so the test checks the guide's own words); in it `N` stands for a number and `...`
for anything. The block runs in a fresh folder (the clone's host_tools, firmware and .venv linked
in, so paths in the docs work), with this checkout's `propctl` first on PATH.

Before: `build-fusebox.md` step 0's `printf 'select GEO-01\\ngame 3\\nopen 2\\nreport 1\\n' |
propctl sim fusebox --script -` ended in "refused: player 1 chose this statement ..." and never
showed the `FUSE BLOWN` its "It worked when" asks for.
"""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from sim_serve import start_serve as start_served
from sim_serve import stop_serve

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))
MARK = re.compile(r"^<!-- runnable( served)?(?::(.*))? -->$")
FENCE = re.compile(r"^```(sh|bash|shell)\s*$")
BLOCK_TIMEOUT_S = 300


def runnable_blocks():
    """(page, line, served, checks, it_worked, script) for every marked block."""
    found = []
    for page in PAGES:
        lines = page.read_text(encoding="utf-8").split("\n")
        for number, line in enumerate(lines):
            mark = MARK.match(line.strip())
            if not mark:
                continue
            assert number + 1 < len(lines) and FENCE.match(lines[number + 1]), \
                "%s:%d: a runnable mark must stand right before a ```sh fence" % (page.name, number + 1)
            end = number + 2
            while not lines[end].startswith("```"):
                end += 1
            script = "\n".join(lines[number + 2:end])
            checks = re.findall(r"`([^`]+)`", mark.group(2) or "")
            found.append((page.relative_to(ROOT).as_posix(), number + 1, bool(mark.group(1)), checks,
                          it_worked(lines, end + 1), script))
    return found


def it_worked(lines, start) -> str:
    """The "**It worked** when" paragraph after a block (before the next heading), or ""."""
    for number in range(start, len(lines)):
        if lines[number].startswith("#"):
            return ""
        if lines[number].startswith("**It worked**"):
            paragraph = []
            for line in lines[number:]:
                if not line.strip():
                    break
                paragraph.append(line)
            return " ".join(paragraph)
    return ""


def as_pattern(phrase: str):
    """A checked phrase as a regex: `N` a number, `...` anything on the line."""
    parts = re.split(r"(\.\.\.|\bN\b)", phrase)
    return re.compile("".join(r"\d+" if p == "N" else ".*?" if p == "..." else re.escape(p) for p in parts))


BLOCKS = runnable_blocks()


def test_the_guides_mark_their_board_free_examples_runnable():
    marked = {page for page, *_ in BLOCKS}
    assert {"docs/build-clock.md", "docs/build-fusebox.md", "docs/build-football.md", "docs/fusebox.md",
            "README.md"} <= marked, marked
    assert any(served for _p, _l, served, *_ in BLOCKS)


def folder_like_a_clone(tmp_path) -> Path:
    work = tmp_path / "work"
    work.mkdir()
    for name in ("host_tools", "firmware", ".venv"):
        (work / name).symlink_to(ROOT / name)
    return work


def environment(tmp_path) -> dict:
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["TERM"] = "dumb"
    env.pop("COLUMNS", None)
    return env


def start_serve(env, tmp_path):
    proc, _, _ = start_served(tmp_path / "flash", "Ctrl-C here stops", command=["propctl"], env=env)
    if proc.poll() is not None:
        pytest.fail("propctl sim serve ended at once")
    return proc


@pytest.mark.parametrize("page, line, served, checks, worked, script",
                         [pytest.param(*b, marks=[pytest.mark.slow] if b[2] else [],
                                       id="%s:%d" % (b[0], b[1]))
                          for b in BLOCKS])
def test_a_runnable_block_runs_and_shows_what_it_worked_promises(page, line, served, checks, worked, script,
                                                                  tmp_path):
    for phrase in checks:
        assert "`%s`" % phrase in worked, ("%s:%d checks `%s`, which its \"It worked when\" paragraph "
                                           "does not say: %r" % (page, line, phrase, worked))
    env = environment(tmp_path)
    serve = start_serve(env, tmp_path) if served else None
    try:
        done = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", script],
                              cwd=folder_like_a_clone(tmp_path), env=env, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True,
                              timeout=BLOCK_TIMEOUT_S)
    finally:
        if serve is not None:
            stop_serve(serve)
    out = done.stdout + done.stderr
    assert done.returncode == 0, "%s:%d exit %d:\n%s" % (page, line, done.returncode, out[-3000:])
    for phrase in checks:
        assert any(as_pattern(phrase).search(text) for text in out.splitlines()), \
            "%s:%d: no `%s` in the output:\n%s" % (page, line, phrase, out[-3000:])
