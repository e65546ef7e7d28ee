"""A prop folder that does not import never stops settings.load(): the board boots on, counts the
crash when it builds the prop, and reaches safe mode (tests/serial_link/test_deploy_e2e.py shows that end to
end); the desktop refuses such a tree before it copies anything."""
import shutil
import subprocess

import pytest
from micropython_harness import FIRMWARE_LIB, find_micropython

from propctl.settings import SettingsUnreadable, firmware_settings

LOAD = ("import settings\n"
        "cfg, errors = settings.load('config.json', echo=None)\n"
        "print(cfg['prop'], cfg['board'])\n"
        "for e in errors: print(e)\n")


def broken_tree(tmp_path):
    lib = tmp_path / "lib"
    shutil.copytree(FIRMWARE_LIB, lib, ignore=shutil.ignore_patterns("__pycache__"))
    (lib / "props" / "clock" / "__init__.py").write_text("raise RuntimeError('a broken prop')\n")
    return lib


@pytest.mark.parametrize("config", ['{"prop": "clock", "clock": {"ramp_ms": 200}}', "not json", None])
def test_a_broken_prop_folder_is_named_and_load_returns(tmp_path, config):
    lib = broken_tree(tmp_path)
    if config is not None:
        (tmp_path / "config.json").write_text(config)
    result = subprocess.run([find_micropython(), "-c", LOAD], cwd=tmp_path, capture_output=True,
                            text=True, timeout=120, env={"MICROPYPATH": str(lib)})
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "clock pico"   # the board goes on: link.startup then builds (and crashes)
    assert "props.clock cannot be read (RuntimeError: a broken prop)" in lines[1:]


def test_the_desktop_refuses_a_tree_with_a_broken_prop(tmp_path):
    with pytest.raises(SettingsUnreadable, match="props.clock cannot be read .RuntimeError: a broken prop"):
        firmware_settings(broken_tree(tmp_path))
