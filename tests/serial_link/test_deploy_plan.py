"""Deploy's decisions without a board: what to copy, what to remove, the config it writes;
and the freeze manifest and the mip package stay in step with the firmware tree."""
import json
import os
import subprocess
from pathlib import Path

import pytest
from micropython_harness import find_micropython

from propctl.build import FIRMWARE_DIR, PROPS, REPO_ROOT
from propctl.deploy import merged_config, parse_set
from propctl.serial_link import BoardError
from propctl.serial_link.files import plan, sha256


def record(data, kind="firmware"):
    return {"sha256": sha256(data), "size": len(data), "kind": kind}


def test_only_new_changed_or_damaged_files_are_copied():
    local = {"main.py": b"boot", "lib/a.mpy": b"AAAA", "lib/b.mpy": b"BB", "lib/c.mpy": b"new"}
    manifest = {"main.py": record(b"boot"), "lib/a.mpy": record(b"AAAA"), "lib/b.mpy": record(b"old")}
    sizes = {"main.py": 4, "lib/a.mpy": 4, "lib/b.mpy": 3, "lib/c.mpy": -1}
    copy, remove = plan(local, manifest, sizes, "firmware")
    assert copy == ["lib/b.mpy", "lib/c.mpy"] and remove == []
    # the record says fine, the board says the file is gone or cut short
    copy, _ = plan(local, manifest, dict(sizes, **{"lib/a.mpy": 2}), "firmware")
    assert "lib/a.mpy" in copy


def test_files_an_earlier_deploy_left_behind_are_removed_but_not_card_decks():
    local = {"lib/a.mpy": b"A"}
    manifest = {"lib/a.mpy": record(b"A"), "lib/gone.mpy": record(b"G"),
                "cards/deck.bin": record(b"D", "cards")}
    sizes = {"lib/a.mpy": 1, "lib/a.py": 120}
    copy, remove = plan(local, manifest, sizes, "firmware")
    assert copy == []
    assert remove == ["lib/a.py", "lib/gone.mpy"]  # a stray source would shadow the compiled module


def test_config_keeps_the_boards_other_settings_and_applies_set_values():
    text, notes = merged_config('{"prop": "fusebox", "clock": {"chime": "solenoid"}}', "clock", "esp32",
                                parse_set(["clock.seed=7", "clock.limits={\"round_min_ms\": 2000}"]))
    config = json.loads(text)
    assert config == {"prop": "clock", "board": "esp32",
                      "clock": {"chime": "solenoid", "seed": 7, "limits": {"round_min_ms": 2000}}}
    assert notes == []
    text, notes = merged_config("{broken", "clock", "pico", {})
    assert json.loads(text) == {"prop": "clock", "board": "pico"} and "not valid JSON" in notes[0]


def test_set_values_are_json_or_bare_words():
    assert parse_set(["clock.chime=solenoid", "clock.seed=null", "a.b=[1, 2]"]) == {
        "clock": {"chime": "solenoid", "seed": None}, "a": {"b": [1, 2]}}
    with pytest.raises(BoardError, match="KEY=VALUE"):
        parse_set(["clock.seed"])


def _manifest_calls(props=None):
    """What the manifest asks the freezing tool for (run in its folder, as the tool runs it)."""
    calls = []

    def recorder(name):
        return lambda *args, **kwargs: calls.append((name, args, kwargs))
    names = {name: recorder(name) for name in ("include", "metadata", "package", "module", "require")}
    before = os.getcwd()
    saved = os.environ.pop("FIRMWARE_PROPS", None)
    if props is not None:
        os.environ["FIRMWARE_PROPS"] = props
    os.chdir(FIRMWARE_DIR)
    try:
        exec(compile((FIRMWARE_DIR / "manifest.py").read_text(), "manifest.py", "exec"), names)
    finally:
        os.chdir(before)
        os.environ.pop("FIRMWARE_PROPS", None)
        if saved is not None:
            os.environ["FIRMWARE_PROPS"] = saved
    return calls


def _frozen_files(calls):
    frozen = set()
    for name, args, kwargs in calls:
        if name == "module" and Path(kwargs.get("base_path", ".")).is_absolute():
            continue  # written by the manifest itself (frozen_props.py): test_one_prop_image.py
        if name in ("package", "module"):
            path = FIRMWARE_DIR / kwargs.get("base_path", ".") / args[0]
            assert path.exists(), path
            if name == "module":
                frozen.add(args[0])
                continue
            files = kwargs.get("files") or [str(p.relative_to(path)) for p in path.rglob("*.py")]
            for file in files:
                assert (path / file).exists(), path / file
                frozen.add(args[0] + "/" + file)
    return frozen


# Modules only the desktop runs (Pi mal Daumen is played with `propctl play`; each prop's
# freeze list, read by the manifest): not frozen.
DESKTOP_ONLY = {"rules/pimaldaumen.py", "cardpack/question.py"} | {"props/%s/freeze.py" % prop
                                                                 for prop in PROPS}


def test_the_freeze_manifest_names_every_module_a_board_runs_and_only_existing_ones():
    frozen = _frozen_files(_manifest_calls())
    lib = FIRMWARE_DIR / "lib"
    present = {str(p.relative_to(lib)) for p in lib.rglob("*.py") if "__pycache__" not in p.parts}
    assert frozen == present - DESKTOP_ONLY
    # and nothing frozen imports what was left out
    left_out = ("rules.pimaldaumen", "rules import pimaldaumen", "cardpack.question",
                "cardpack import question")
    for rel in frozen:
        text = (lib / rel).read_text()
        assert not [name for name in left_out if name in text], rel


def test_the_mip_package_lists_exactly_the_rules_core():
    package = json.loads((REPO_ROOT / "package.json").read_text())
    rules = sorted(p.name for p in (FIRMWARE_DIR / "lib" / "rules").glob("*.py"))
    assert sorted(dest for dest, _ in package["urls"]) == ["rules/" + name for name in rules]
    for _, source in package["urls"]:
        assert (REPO_ROOT / source).read_bytes()  # relative to package.json, as mip resolves it
    assert package["version"]


def test_deploy_clears_the_files_the_boot_modes_use():
    import sys
    sys.path.insert(0, str(FIRMWARE_DIR / "lib"))
    import safemode

    from propctl.serial_link.files import BOOT_FLAGS, MAINTENANCE_FLAG
    assert MAINTENANCE_FLAG == safemode.MAINTENANCE_FLAG
    assert set(BOOT_FLAGS) == {safemode.DEFAULT_PATH, safemode.MAINTENANCE_FLAG}


@pytest.mark.parametrize("prop", ["clock", "fusebox", "football"])
def test_a_one_prop_image_freezes_everything_that_prop_imports_and_no_other_prop(prop, tmp_path):
    """FIRMWARE_PROPS=PROP: the prop, as link.startup imports it, loads from the frozen set alone."""
    frozen = _frozen_files(_manifest_calls(prop))
    others = [p for p in ("clock", "fusebox", "football") if p != prop]
    assert not [f for f in frozen if any(f.startswith("props/%s/" % o) for o in others)]
    for rel in frozen:  # only the frozen files, in a folder of their own
        target = tmp_path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((FIRMWARE_DIR / "lib" / rel).read_bytes())
    code = "import safemode, settings, store, selftest\nfrom link import startup\nimport props.%s\n" % prop
    done = subprocess.run([find_micropython(), "-c", code + "print('ok')"], capture_output=True,
                          text=True, cwd=str(tmp_path), env=dict(os.environ, MICROPYPATH=str(tmp_path)))
    assert done.stdout.strip() == "ok", done.stdout + done.stderr
