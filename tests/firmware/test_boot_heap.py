"""Once a prop is built, the boot-only modules (settings, boards) go back to the heap (MicroPython).

tests/firmware/mp_boot_heap.py boots a prop as main.py does (boot guard, settings.load,
link.startup.build_prop) in an empty flash folder, on the unix port, and reports the
heap in use after a collection. Compared with the same boot told to forget nothing
(`keep`), the prop's boot gives back at least 4 KB: on a 32-bit board with the
firmware frozen in this is about 7 KB of settings and pin tables (bench/REPORT.md,
section 3a), and a module that still held one of them would keep it all.
"""
from pathlib import Path

import pytest
from micropython_harness import run_script

ROOT = Path(__file__).resolve().parents[2]
FREED_AT_LEAST = 4096


def boot(prop: str, folder: Path, *mode: str) -> dict:
    from propctl.sim.runner import VBOARD_DIR
    for old in folder.iterdir():
        old.unlink()  # an empty flash: no boot count, no saved game, no config.json
    script = Path(__file__).resolve().parent / "mp_boot_heap.py"
    return run_script(script, prop, *mode, paths=[VBOARD_DIR], cwd=folder, heap="4M")[-1]


@pytest.mark.parametrize("prop", ["clock", "fusebox", "football"])
def test_a_built_prop_gives_the_boot_only_modules_back(prop, tmp_path):
    forgot = boot(prop, tmp_path)
    kept = boot(prop, tmp_path, "keep")
    assert forgot["mode"] == kept["mode"] == "run"
    assert forgot["lines"] >= 1  # the boot event went out: the prop was built and linked
    # the prop's settings section (props/PROP/settings_schema.py) is dropped by settings itself
    # once read (its package was imported only for it); its pins stay until the boot forgets them
    assert forgot["loaded"] == [] and kept["loaded"] == ["settings", "boardprofiles",
                                                         "props.%s.pinout" % prop]
    assert kept["used"] - forgot["used"] >= FREED_AT_LEAST, (kept["used"], forgot["used"])
