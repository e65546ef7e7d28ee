"""Every board's filesystem geometry against the figures of the sources it cites.

The figures below were read from the cited files (micropython/micropython at 1c3c201149f3,
raspberrypi/pico-sdk at a1438dff1d38) and, for RPI_PICO, measured out of band on the stock
firmware in the rp2040js emulator (the project's GUIDE): written out here by
hand, apart from the table, so a changed table entry fails."""
import pytest

from propctl.build import BOARD_ARCH
from propctl.image.geometry import BOARDS, XIP_BASE, mpy_version_of

# board: (PICO_FLASH_SIZE_BYTES or the module's flash, MICROPY_HW_FLASH_STORAGE_BYTES or the vfs
# partition's size, block size, progsize, UF2 family)
CITED = {
    "pico": (2 * 1024 * 1024, 1441792, 4096, 256, 0xE48BFF56),     # RPI_PICO: 1408 * 1024
    "pico_w": (2 * 1024 * 1024, 868352, 4096, 256, 0xE48BFF56),    # RPI_PICO_W: 848 * 1024
    "pico2": (4 * 1024 * 1024, 3145728, 4096, 256, 0xE48BFF59),    # RPI_PICO2: 4 MB - 1 MB
    "pico2_w": (4 * 1024 * 1024, 2621440, 4096, 256, 0xE48BFF59),  # RPI_PICO2_W: 4 MB - 1.5 MB
    "esp32": (4 * 1024 * 1024, 0x200000, 4096, 32, None),           # vfs from 0x200000 to the end
    "esp32s3": (8 * 1024 * 1024, 0x600000, 4096, 32, None),         # 8 MiB module (N8, N8R8)
}


def test_every_board_profile_has_a_geometry():
    assert set(BOARDS) == set(BOARD_ARCH) == set(CITED)


@pytest.mark.parametrize("board", sorted(CITED))
def test_each_entry_matches_its_cited_figures(board):
    flash, storage, block, progsize, family = CITED[board]
    g = BOARDS[board]
    assert (g.flash_bytes, g.fs_bytes, g.block_size, g.progsize, g.family) == CITED[board]
    assert g.block_count * g.block_size == g.fs_bytes
    if family is not None:  # rp2: the storage is the flash's end (rp2_flash.c)
        assert g.fs_offset == flash - storage and g.address == XIP_BASE + g.fs_offset
    else:  # esp32: from the end of the factory app (0x10000 + 0x1F0000)
        assert g.fs_offset == 0x10000 + 0x1F0000 and g.fs_offset + g.fs_bytes == flash
    assert g.readsize == 32 and g.lookahead == 32  # extmod/vfs_lfs.c defaults
    assert g.sources and all(g.sources)


def test_the_pico_matches_what_was_measured_on_the_stock_firmware():
    g = BOARDS["pico"]
    assert (g.fs_offset, g.address, g.address + g.fs_bytes, g.block_count) == (
        0xA0000, 0x100A0000, 0x10200000, 352)


def test_the_mpy_version_table():
    """docs/reference/mpyfiles.rst: v1.19.x 6, v1.20-1.21 6.1, v1.22 6.2, v1.23 and up 6.3; v1.12-v1.18 5."""
    releases = ((1, 18, 0), (1, 19), (1, 19, 1), (1, 22, 2), (1, 24, 1), (1, 29, 0))
    assert [mpy_version_of(r) for r in releases] == [5, 6, 6, 6, 6, 6]
    assert mpy_version_of((1, 12)) == 5 and mpy_version_of((1, 11)) == 4
    assert mpy_version_of((1, 30, 0)) is None  # newer than the table: not guessed


def test_docs_image_md_says_the_tables_figures():
    """docs/image.md's table of boards: each filesystem's size and address as the table has them."""
    from propctl.build import REPO_ROOT
    text = (REPO_ROOT / "docs" / "image.md").read_text()
    for board, g in BOARDS.items():
        row = next(line for line in text.splitlines() if line.startswith("| `%s` |" % board))
        size = "%d KiB" % (g.fs_bytes // 1024) if g.uf2 else "%d MiB" % (g.fs_bytes // (1024 * 1024))
        assert size in row, row
        assert ("at 0x%08X" % g.address if g.uf2 else "0x%X" % g.fs_offset) in row, row
