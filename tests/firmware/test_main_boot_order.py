"""main.py forgets settings before the link and the prop are loaded (MicroPython).

Run from .mpy files, a module's code is on the heap; settings (config.json's checks and
defaults) is the largest boot-only module. Read and forgotten before anything else is loaded,
the link's and the prop's code fill its room instead of landing above it: on a 32-bit build the
clock's smallest heap from .mpy files fell from 92.5 to 79.4 KB, the fuse box's from 114.3 to
103.3 KB (docs/heap.md). tests/firmware/mp_main_order.py runs firmware/main.py itself and notes, at
each import of a link or props module, whether settings was loaded.
"""
import json
from pathlib import Path

import pytest
from micropython_harness import run_script

ROOT = Path(__file__).resolve().parents[2]


def boot(prop: str, folder: Path) -> dict:
    from propctl.sim.runner import VBOARD_DIR
    (folder / "config.json").write_text(json.dumps({"prop": prop}))
    script, main = Path(__file__).resolve().parent / "mp_main_order.py", ROOT / "firmware" / "main.py"
    return run_script(script, main, paths=[VBOARD_DIR], cwd=folder, heap="4M")[-1]


@pytest.mark.parametrize("prop", ["clock", "fusebox", "football"])
def test_main_forgets_settings_before_the_link_and_the_prop_load(prop, tmp_path):
    out = boot(prop, tmp_path)
    assert out["prop"] == prop and out["lines"] >= 1  # the prop was built and linked
    seen = dict((name, loaded) for name, loaded in out["seen"])
    assert "link" in seen and "props.%s" % prop in seen, out["seen"]
    assert seen["link"] is False   # main.py's `from link import startup` comes after the forgetting
    assert seen["props.%s" % prop] is False
    if prop != "football":  # the football box's build reads its section through settings again
        # (settings itself loads the props package, for the names a config may give, and the
        # prop's settings_schema, for its section, and drops that again: the build loads it anew)
        read_by_settings = ("props", "props.%s.settings_schema" % prop)
        assert not any(loaded for name, loaded in out["seen"] if name not in read_by_settings), out["seen"]
    assert out["loaded"] == []     # and link.startup forgets what the build loaded again
