"""`propctl image`: the image is mounted by MicroPython's own littlefs2, holds exactly what deploy
writes, and the prop boots from it on the virtual board and plays a round."""
import json
import subprocess
import sys

import pytest
from image_helpers import cached_firmware, flash_after, mount, region_of, unix_port
from served_board import hello_until

from propctl.deploy import parse_set
from propctl.image import build_image
from propctl.image.filesystem import filesystem_image
from propctl.image.geometry import BOARDS
from propctl.serial_link.files import RECORD, sha256
from propctl.serial_link.serve import VirtualBoard

pytestmark = pytest.mark.slow

SHORT_ROUND = ('clock.limits={"round_min_ms": 1500, "round_max_ms": 2500, "segment_min_ms": 300, '
               '"segment_max_ms": 800, "pause_min_ms": 100, "pause_max_ms": 200}')


@pytest.fixture
def image(monkeypatch):
    cached_firmware(monkeypatch)

    def make(prop, board="pico", sets=(), **kwargs):
        return build_image(prop, board, parse_set(list(sets)), say=lambda line: None, **kwargs)
    return make


def _flash(board):
    return bytearray(b"\xff" * BOARDS[board].flash_bytes)


@pytest.mark.parametrize("prop,board", [("clock", "pico"), ("fusebox", "pico_w"), ("football", "pico2"),
                                        ("clock", "pico2_w")])
def test_micropythons_littlefs_mounts_the_image_and_finds_exactly_what_deploy_writes(image, prop, board,
                                                                                      tmp_path):
    result = image(prop, board)
    geometry = BOARDS[board]
    region = region_of(flash_after(result.data, _flash(board), geometry.family), geometry)
    found = mount(region, geometry, tmp_path / "out", tmp_path)
    assert found.get("files") == {path: len(data) for path, data in result.files.items()}, found
    for path, data in result.files.items():
        assert (tmp_path / "out" / path).read_bytes() == data
    config = json.loads(result.files["config.json"])
    assert config["prop"] == prop and config["board"] == board
    record = json.loads(result.files[RECORD])["files"]
    assert set(record) == set(result.files) - {"config.json", RECORD}
    assert record["main.py"]["sha256"] == sha256(result.files["main.py"])
    assert "lib/props/%s/__init__.mpy" % prop in result.files


@pytest.mark.parametrize("board", ["esp32", "esp32s3"])
def test_the_esp32_image_is_the_vfs_partition_and_mounts_with_its_geometry(image, board, tmp_path):
    result = image("clock", board)
    geometry = BOARDS[board]
    assert len(result.data) == geometry.fs_bytes == geometry.block_count * 4096
    found = mount(result.data, geometry, tmp_path / "out", tmp_path)
    assert set(found["files"]) == set(result.files)


def test_a_mount_with_another_geometry_fails(image, tmp_path):
    """What the stock _boot.py would then do is format the flash: the table must be exact."""
    result = image("clock", "pico")
    geometry = BOARDS["pico"]
    region = region_of(flash_after(result.data, _flash("pico"), geometry.family), geometry)
    assert "files" in mount(region, geometry, tmp_path / "a", tmp_path)
    for size, count in ((4096, 353), (4096, 351), (2048, 704), (8192, 176)):
        found = mount(region, geometry, tmp_path / "b", tmp_path, block_size=size, block_count=count)
        assert "error" in found, (size, count, found)


def test_no_block_of_an_older_filesystem_survives(image, tmp_path):
    """The flash held another filesystem, written many times (high revision counts): after the UF2,
    MicroPython finds the new files only, and the UF2 writes every page of the region
    (tests/image/test_image_uf2.py), blank ones included."""
    geometry = BOARDS["pico"]
    old = {"main.py": b"print('old')\n", "saved.json": b"{}"}
    from littlefs import LittleFS, UserContext

    from propctl.image.filesystem import _config
    old_fs = LittleFS(context=UserContext(buffer=bytearray(filesystem_image(old, geometry)[0])),
                      mount=True, **_config(geometry))
    for i in range(300):  # a board that saved a game 300 times
        with old_fs.open("saved.json", "wb") as f:
            f.write(b'{"round": %d}' % i)
    old_region = bytes(old_fs.context.buffer)
    result = image("clock", "pico")
    flash = _flash("pico")
    flash[geometry.fs_offset:geometry.fs_offset + geometry.fs_bytes] = old_region
    before = mount(old_region, geometry, tmp_path / "old", tmp_path)
    assert set(before["files"]) == {"main.py", "saved.json"}
    after = mount(region_of(flash_after(result.data, bytearray(flash), geometry.family), geometry),
                  geometry, tmp_path / "new", tmp_path)
    assert set(after["files"]) == set(result.files)


def _copied_out(result, board, folder, tmp_path):
    geometry = BOARDS[board]
    region = region_of(flash_after(result.data, _flash(board), geometry.family), geometry)
    assert "files" in mount(region, geometry, folder, tmp_path)
    return folder


@pytest.mark.parametrize("prop", ["clock", "fusebox", "football"])
def test_each_prop_boots_from_its_image_on_the_virtual_board(image, prop, tmp_path):
    unix_port()
    flash = _copied_out(image(prop, "pico"), "pico", tmp_path / "flash", tmp_path)
    board = VirtualBoard(flash).start()
    try:
        info = hello_until(board.port, lambda info: info.get("mode") == "run")
        assert info["prop"] == prop and info["board"] == "pico" and not info.get("config_errors")
    finally:
        board.stop()


def test_the_clock_plays_a_round_from_its_image(image, tmp_path):
    unix_port()
    flash = _copied_out(image("clock", "pico", sets=[SHORT_ROUND]), "pico", tmp_path / "flash", tmp_path)
    board = VirtualBoard(flash).start()
    try:
        hello_until(board.port, lambda info: info.get("mode") == "run")
        done = subprocess.run([sys.executable, "-m", "propctl.cli", "monitor", "--port", board.port,
                               "--send", 'new_game={"players": 2}', "--send", 'start_round={"seed": 11}',
                               "--until", "chime", "--timeout", "30"], capture_output=True, text=True,
                              timeout=60)
        out = done.stdout + done.stderr
        assert done.returncode == 0, out
        assert "hand starts: round 1, seed 11" in out and "CHIME" in out, out
    finally:
        board.stop()
