"""`propctl image` at the command line: refusals before any work, the warning before the file,
--config and --secrets as deploy takes them, the esptool line for an ESP32."""
import json
import os
import stat

import pytest
from image_helpers import cached_firmware

from propctl.cli import main
from propctl.image.filesystem import read_files
from propctl.image.geometry import BOARDS


def run(capsys, *args):
    code = main(["image", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("args,words", [
    (["--prop", "clock"], "give --board and -o FILE"),
    (["--prop", "clock", "--board", "pico", "-o", "x.bin"], "a pico takes a .uf2 file"),
    (["--prop", "clock", "--board", "esp32", "-o", "x.uf2"], "a esp32 takes a .bin file"),
    (["--prop", "clock", "--board", "esp32", "-o", "x.bin", "--micropython", "s.uf2"],
     "--micropython is for the Pico boards"),
    (["--prop", "clock", "--board", "pico", "-o", "x.uf2", "--set", "board=esp32"],
     "--set board=esp32 contradicts --board pico"),
    (["--prop", "clock", "--board", "pico", "-o", "x.uf2", "--set", "clock.seed"], "KEY=VALUE"),
])
def test_a_command_line_that_cannot_work_is_exit_2_and_writes_nothing(capsys, tmp_path, monkeypatch, args,
                                                                      words):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *args)
    assert code == 2 and words in err, err
    assert list(tmp_path.iterdir()) == []


def test_a_bad_set_value_or_a_stock_file_that_is_none_writes_nothing(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    pico = ("--prop", "clock", "--board", "pico", "-o", "x.uf2")
    code, out, err = run(capsys, *pico, "--set", "clock.seed=-1")
    assert code == 2 and "clock.seed" in err and "Nothing was written" in err
    (tmp_path / "stock.uf2").write_bytes(b"not a uf2 at all")
    code, out, err = run(capsys, *pico, "--micropython", "stock.uf2")
    assert code == 1 and "not a whole number of 512-byte UF2 blocks" in err and "Nothing was written" in err
    code, out, err = run(capsys, *pico, "--config", "none.json")
    assert code == 1 and "no such file" in err
    (tmp_path / "bad.json").write_text("[1, 2]")
    code, out, err = run(capsys, *pico, "--config", "bad.json")
    assert code == 1 and "no JSON object" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.json", "stock.uf2"]


@pytest.mark.slow
def test_config_secrets_and_set_end_up_merged_in_the_images_config_and_the_file_is_private(capsys, tmp_path,
                                                                                         monkeypatch):
    cached_firmware(monkeypatch)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "config.json").write_text(json.dumps({"prop": "fusebox", "clock": {"chime": "solenoid"},
                                                      "net": {"ssid": "Cafe", "broker": "10.0.0.2"}}))
    (tmp_path / "secrets.json").write_text(json.dumps({"password": "pw-wifi", "broker_password": "pw-mqtt"}))
    code, out, err = run(capsys, "--prop", "clock", "--board", "esp32", "-o", "clock.bin", "--config",
                         "config.json", "--secrets", "secrets.json", "--set", "clock.seed=7")
    assert code == 0, err
    assert out.index("replaces everything on its filesystem") < out.index("wrote clock.bin")
    assert "note: --config names prop \"fusebox\"" in out
    assert "python -m esptool --chip esp32 --port PORT write-flash 0x200000 clock.bin" in out
    assert "pw-wifi" not in out + err and "pw-mqtt" not in out + err
    assert stat.S_IMODE(os.stat("clock.bin").st_mode) == 0o600
    config = json.loads(read_files((tmp_path / "clock.bin").read_bytes(), BOARDS["esp32"])["config.json"])
    assert config["prop"] == "clock" and config["board"] == "esp32"
    assert config["clock"] == {"chime": "solenoid", "seed": 7}
    assert config["net"]["ssid"] == "Cafe" and config["net"]["password"] == "pw-wifi"
    assert config["net"]["broker_password"] == "pw-mqtt"


def test_a_deck_that_is_no_card_pack_is_refused_before_the_compiling(capsys, tmp_path, monkeypatch):
    from propctl import deploy

    def no_compiling(*args, **kwargs):
        raise AssertionError("compiled before the deck was checked")
    monkeypatch.setattr(deploy, "firmware_files", no_compiling)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "deck.bin").write_bytes(b"not a pack")
    code, out, err = run(capsys, "--prop", "fusebox", "--board", "pico", "-o", "x.uf2", "--cards", "deck.bin")
    assert code == 1 and "not a card pack a board can read" in err and "Nothing was written" in err
    assert not (tmp_path / "x.uf2").exists()
