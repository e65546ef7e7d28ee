"""Images for the `propctl image` tests: the firmware compiled once per architecture, the image
mounted by MicroPython's own littlefs2 (tests/image/mp_image_mount.py), a synthetic stock UF2."""
import json
import subprocess
from pathlib import Path

import pytest
from micropython_harness import find_micropython

from propctl import deploy
from propctl.image import uf2
from propctl.image.geometry import BOARDS, XIP_BASE

ROOT = Path(__file__).resolve().parent.parent
MOUNT = ROOT / "tests" / "image" / "mp_image_mount.py"
_COMPILED: dict = {}


def cached_firmware(monkeypatch) -> None:
    """deploy.firmware_files compiles once per architecture for the whole test run."""
    real = deploy.firmware_files

    def once(board, progress=None, root=None):
        from propctl.build import BOARD_ARCH
        key = (BOARD_ARCH[board], str(root))
        if key not in _COMPILED:
            _COMPILED[key] = real(board, progress=progress, root=root)
        return dict(_COMPILED[key])
    monkeypatch.setattr(deploy, "firmware_files", once)


def unix_port() -> str:
    micropython = find_micropython()
    if micropython.endswith(".mjs"):
        pytest.skip("the wasm32 MicroPython cannot open host files: the image tests need the unix port")
    return micropython


def mount(region: bytes, geometry, out: Path, tmp: Path, block_size=None, block_count=None) -> dict:
    """What MicroPython's VfsLfs2 finds in `region` with the board's geometry (or the one given):
    {"files": {path: size}} with the files copied into `out`, or {"error": ...}."""
    image = tmp / "region.bin"
    image.write_bytes(region)
    out.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([unix_port(), str(MOUNT), str(image), str(block_size or geometry.block_size),
                           str(block_count or geometry.block_count), str(geometry.progsize), str(out)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def flash_after(uf2_bytes: bytes, flash: bytearray, family: int) -> bytearray:
    """What a bootrom leaves in `flash` (the whole chip, from XIP_BASE) after taking the UF2:
    every block of its family written at its address."""
    for block in uf2.parse(uf2_bytes):
        if block.family == family and not block.flags & uf2.FLAG_NOT_MAIN_FLASH:
            at = block.address - XIP_BASE
            flash[at:at + len(block.data)] = block.data
    return flash


def region_of(flash: bytes, geometry) -> bytes:
    return bytes(flash[geometry.fs_offset:geometry.fs_offset + geometry.fs_bytes])


def stock_uf2(board="pico", release="v1.24.1", machine=None, family=None, size=300 * 1024,
              abs_block=False) -> bytes:
    """A synthetic stock MicroPython UF2: `size` bytes of 'firmware' from the start of the flash
    holding the two strings a real build holds (sys.version's and the machine's), no code."""
    geometry = BOARDS[board]
    machine = machine or {"pico": "Raspberry Pi Pico with RP2040",
                          "pico_w": "Raspberry Pi Pico W with RP2040",
                          "pico2": "Raspberry Pi Pico2 with RP2350",
                          "pico2_w": "Raspberry Pi Pico 2 W with RP2350"}[board]
    body = bytearray(bytes(range(256)) * (size // 256))
    # as a real RPI_PICO v1.28.0 build holds them (strings firmware.bin)
    text = b"3.4.0; MicroPython " + release.encode() + b" on 2024-11-29\x00; " + machine.encode() + b"\x00"
    body[size // 2:size // 2 + len(text)] = text
    blocks = uf2.blocks_of(bytes(body), XIP_BASE, family or geometry.family)
    if abs_block:  # what picotool --abs-block adds for RP2350-E10 (a block past a 4 MiB flash)
        blocks.insert(0, uf2.Block(0x10FFFF00, b"\xef" * 256, 0xE48BFF57))
    return uf2.write(blocks)
