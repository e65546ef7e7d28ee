"""The UF2 `propctl image` writes: block numbering, family id, 256-byte payloads, flag 0x2000, and
every page of the board's filesystem region covered exactly once; with a stock MicroPython UF2,
one file with its blocks first and the filesystem's after, numbered on; refusals of a stock image
that does not fit."""
import struct

import pytest
from image_helpers import cached_firmware, stock_uf2

from propctl.image import ImageRefused, build_image, uf2
from propctl.image.geometry import BOARDS, RP2040_FAMILY_ID, RP2350_ARM_S_FAMILY_ID
from propctl.image.stock import StockError, read_stock


@pytest.fixture
def image(monkeypatch):
    cached_firmware(monkeypatch)

    def make(prop="clock", board="pico", stock=None):
        return build_image(prop, board, {}, stock=stock, say=lambda line: None)
    return make


def check_uf2(raw: bytes) -> list:
    """Every block's fields read with struct, apart from the module under test."""
    assert len(raw) % 512 == 0
    n = len(raw) // 512
    blocks = []
    for i in range(n):
        m0, m1, flags, address, size, number, count, family = struct.unpack_from("<8I", raw, i * 512)
        assert (m0, m1) == (0x0A324655, 0x9E5D5157)
        assert struct.unpack_from("<I", raw, i * 512 + 508)[0] == 0x0AB16F30
        assert number == i and count == n
        blocks.append((flags, address, size, family, raw[i * 512 + 32:i * 512 + 32 + size]))
    return blocks


@pytest.mark.parametrize("board", ["pico", "pico_w", "pico2", "pico2_w"])
def test_the_filesystem_uf2_covers_the_whole_region_in_256_byte_pages(image, board):
    geometry = BOARDS[board]
    result = image(board=board)
    blocks = check_uf2(result.data)
    assert len(blocks) == geometry.fs_bytes // 256
    addresses = [address for _flags, address, _size, _family, _data in blocks]
    assert addresses == list(range(geometry.address, geometry.address + geometry.fs_bytes, 256))
    kinds = {(flags, size, family) for flags, _a, size, family, _d in blocks}
    assert kinds == {(0x2000, 256, geometry.family)}
    assert geometry.family == (RP2040_FAMILY_ID if geometry.chip == "RP2040" else RP2350_ARM_S_FAMILY_ID)
    # the payloads, put together, are the filesystem region
    region = b"".join(data for *_rest, data in blocks)
    assert len(region) == geometry.fs_bytes


def test_parse_reads_back_what_write_wrote_and_refuses_what_is_no_uf2():
    blocks = uf2.blocks_of(bytes(range(256)) * 4, 0x10000000, RP2040_FAMILY_ID)
    raw = uf2.write(blocks)
    back = uf2.parse(raw)
    assert [(b.address, b.data, b.family, b.number, b.count) for b in back] == [
        (0x10000000 + 256 * i, bytes(range(256)), RP2040_FAMILY_ID, i, 4) for i in range(4)]
    with pytest.raises(uf2.UF2Error, match="not a whole number"):
        uf2.parse(raw[:-1])
    with pytest.raises(uf2.UF2Error, match="no UF2 magic"):
        uf2.parse(b"\x00" * 512)
    with pytest.raises(uf2.UF2Error, match="empty"):
        uf2.parse(b"")
    with pytest.raises(ValueError):
        uf2.blocks_of(b"x" * 100, 0x10000000, RP2040_FAMILY_ID)


@pytest.mark.parametrize("board,abs_block", [("pico", False), ("pico2", True)])
def test_with_the_stock_firmware_one_file_holds_both_numbered_on(image, board, abs_block):
    geometry = BOARDS[board]
    raw = stock_uf2(board, abs_block=abs_block)
    stock = read_stock(raw, "stock.uf2")
    assert stock.release == (1, 24, 1) and stock.family == geometry.family
    assert stock.machine == {"pico": "Raspberry Pi Pico with RP2040",
                             "pico2": "Raspberry Pi Pico2 with RP2350"}[board]
    result = image(board=board, stock=stock)
    blocks = check_uf2(result.data)
    firmware = len(raw) // 512
    assert len(blocks) == firmware + geometry.fs_bytes // 256
    # the stock blocks first, as they were (only their numbers changed), the filesystem's after
    for i in range(firmware):
        assert result.data[i * 512 + 8:i * 512 + 20] == raw[i * 512 + 8:i * 512 + 20]
        assert result.data[i * 512 + 28:i * 512 + 512] == raw[i * 512 + 28:i * 512 + 512]
    fs = blocks[firmware:]
    assert [b[1] for b in fs] == list(range(geometry.address, geometry.address + geometry.fs_bytes, 256))
    assert {b[3] for b in fs} == {geometry.family}
    # nothing of the firmware lands in the filesystem region
    assert max(b[1] + b[2] for b in blocks[:firmware] if b[3] == geometry.family) <= geometry.address


def test_a_stock_image_with_another_mpy_version_is_refused_with_a_clear_line(image):
    old = read_stock(stock_uf2(release="v1.18"), "old.uf2")
    with pytest.raises(ImageRefused, match=r"MicroPython 1\.18, which loads \.mpy version 5; mpy-cross "
                                           r"writes version 6"):
        image(stock=old)
    newer = read_stock(stock_uf2(release="v1.31.0"), "new.uf2")
    with pytest.raises(ImageRefused, match=r"MicroPython 1\.31\.0, newer than this propctl knows"):
        image(stock=newer)
    for fine in ("v1.19.1", "v1.22.2", "v1.29.0-preview.12.g1c3c201149"):
        stock = read_stock(stock_uf2(release=fine), "ok.uf2")
        assert image(stock=stock).stock is stock


def test_a_stock_image_for_another_board_is_refused(image):
    rp2350 = read_stock(stock_uf2("pico2"), "pico2.uf2")
    with pytest.raises(ImageRefused, match="another chip.*RPI_PICO"):
        image(board="pico", stock=rp2350)
    pico_w = read_stock(stock_uf2("pico_w"), "picow.uf2")
    with pytest.raises(ImageRefused, match="for the Raspberry Pi Pico W with RP2040, not for --board pico"):
        image(board="pico", stock=pico_w)
    big = read_stock(stock_uf2("pico", size=700 * 1024), "big.uf2")  # reaches past 0x100A0000
    with pytest.raises(ImageRefused, match="into pico's filesystem"):
        image(board="pico", stock=big)


def test_a_file_that_is_no_micropython_uf2_is_refused():
    with pytest.raises(StockError, match="not a UF2"):
        read_stock(b"\x7fELF" + b"\x00" * 508, "firmware.elf")
    blank = uf2.write(uf2.blocks_of(b"\x00" * 1024, 0x10000000, RP2040_FAMILY_ID))
    with pytest.raises(StockError, match="no MicroPython firmware"):
        read_stock(blank, "blank.uf2")
