"""A one-prop frozen image knows which props it holds: manifest.py freezes frozen_props
(props.NAMES = the frozen props), and a config.json naming another prop boots into safe mode
with the reason named (prop_not_in_image), no crash, no reset loop, the REPL free."""
import json
import os
import time
from pathlib import Path

import pytest
from served_board import hello_until

from propctl.build import FIRMWARE_DIR
from propctl.serial_link.linkclient import LinkClient
from propctl.serial_link.serve import VirtualBoard

pytestmark = pytest.mark.slow


def manifest(props: str) -> tuple:
    """(files frozen from lib, the generated modules {name: text}) for FIRMWARE_PROPS=props."""
    frozen, generated = [], {}

    def package(name, files=None, base_path="."):
        base = FIRMWARE_DIR / base_path / name
        names = files or [str(p.relative_to(base)) for p in base.rglob("*.py")]
        frozen.extend(name + "/" + f for f in names)

    def module(name, base_path="."):
        if Path(base_path).is_absolute():
            generated[name] = (Path(base_path) / name).read_text()
        else:
            frozen.append(name)
    calls = {"include": lambda *a, **k: None, "metadata": lambda *a, **k: None, "package": package,
             "module": module}
    before, saved = os.getcwd(), os.environ.get("FIRMWARE_PROPS")
    os.environ["FIRMWARE_PROPS"] = props
    os.chdir(FIRMWARE_DIR)
    try:
        exec(compile((FIRMWARE_DIR / "manifest.py").read_text(), "manifest.py", "exec"), calls)
    finally:
        os.chdir(before)
        if saved is None:
            os.environ.pop("FIRMWARE_PROPS")
        else:
            os.environ["FIRMWARE_PROPS"] = saved
    return frozen, generated


def test_the_manifest_names_the_frozen_props():
    for props, names in (("football", ("football",)), ("clock,fusebox", ("clock", "fusebox")),
                         ("clock,fusebox,football", ("clock", "fusebox", "football"))):
        _frozen, generated = manifest(props)
        space: dict = {}
        exec(generated["frozen_props.py"], space)
        assert space["NAMES"] == names


def _image_flash(folder: Path, props: str, config: dict) -> Path:
    """A board with the one-prop image: the frozen files (in lib/, as the frozen modules come
    before /lib), frozen_props, main.py and config.json."""
    frozen, generated = manifest(props)
    for rel in frozen:
        target = folder / "lib" / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((FIRMWARE_DIR / "lib" / rel).read_bytes())
    for name, text in generated.items():
        (folder / "lib" / name).write_text(text)
    (folder / "main.py").write_bytes((FIRMWARE_DIR / "main.py").read_bytes())
    (folder / "config.json").write_text(json.dumps(config))
    return folder


def test_a_config_for_another_prop_is_refused_into_safe_mode_by_name(tmp_path):
    flash = _image_flash(tmp_path / "flash", "football", {"prop": "clock", "board": "pico"})
    board = VirtualBoard(flash, heap="2M").start()  # .py sources, 64-bit: not a heap test
    try:
        info = hello_until(board.port, lambda info: info.get("mode") == "safe")
        assert info["prop"] == "clock"
        with LinkClient.open(board.port) as client:
            why = client.request("why", timeout=5.0)
        assert why["error"] == "prop_not_in_image", why
        assert "config.json names the prop clock, but this firmware image holds only football" in why["why"]
        time.sleep(2.0)
        assert board.boots == 1, "the board reset: %d boots" % board.boots  # no crash loop
        count = flash / "boot_count"
        assert not count.exists() or int(count.read_text()) <= 1
    finally:
        board.stop()


def test_the_prop_the_image_holds_runs(tmp_path):
    flash = _image_flash(tmp_path / "flash", "football", {"prop": "football", "board": "pico"})
    board = VirtualBoard(flash, heap="2M").start()  # .py sources, 64-bit: not a heap test
    try:
        info = hello_until(board.port, lambda info: info.get("mode") == "run")
        assert info["prop"] == "football" and not info.get("config_errors")
    finally:
        board.stop()
