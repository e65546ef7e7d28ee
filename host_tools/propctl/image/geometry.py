"""Where each board's stock MicroPython keeps its filesystem, and how it mounts it: one table.

A littlefs image must match the firmware's mount exactly: another block size
or block count and the mount fails, after which the stock `_boot.py` of the
rp2 port formats the flash (every file gone) and the esp32 port's
`inisetup.py` stops with "The filesystem appears to be corrupted". So every
figure here is read from MicroPython's own board definitions (tree
micropython/micropython at 1c3c201149f3, 2026-08-19) or the Pico SDK's
(raspberrypi/pico-sdk at a1438dff1d38, 2025-07-28), and each entry names its
sources. tests/image/test_image_geometry.py checks every entry against the figures
its source gives.

The rp2 port (ports/rp2/rp2_flash.c): the filesystem is the last
MICROPY_HW_FLASH_STORAGE_BYTES of the flash (MICROPY_HW_FLASH_STORAGE_BASE =
PICO_FLASH_SIZE_BYTES - MICROPY_HW_FLASH_STORAGE_BYTES), in blocks of
FLASH_SECTOR_SIZE (4096) bytes, the flash mapped at XIP_BASE 0x10000000;
ports/rp2/modules/_boot.py mounts it as `vfs.VfsLfs2(bdev, progsize=256)`
(readsize and lookahead: extmod/vfs_lfs.c's defaults, 32 and 32).

The esp32 port (ports/esp32/main.c, since v1.26: commit 6201e77999 "Convert
all boards to auto detect flash size"): with no "vfs" partition in the table,
the firmware makes one from the end of the last partition to the end of the
flash; partitions-4MiBplus.csv (the ESP32_GENERIC and ESP32_GENERIC_S3 table,
boards/sdkconfig.base) ends with the factory app at 0x10000 + 0x1F0000, so the
filesystem starts at 0x200000. Its blocks are NATIVE_BLOCK_SIZE_BYTES (4096,
esp32_partition.c); modules/inisetup.py makes it with `vfs.VfsLfs2.mkfs(bdev)`
and _boot.py mounts it with the defaults (readsize, progsize, lookahead 32).
Its size depends on the module's flash: the entries say which module they are for.
"""
XIP_BASE = 0x10000000  # pico-sdk: the RP2040's and RP2350's flash as the CPU (and a UF2) addresses it

# UF2 family ids, pico-sdk src/common/boot_uf2_headers/include/boot/uf2.h (the RP2350
# datasheet's section on UF2 targeting lists the same): the bootrom writes only blocks of
# its own family.
RP2040_FAMILY_ID = 0xE48BFF56
RP2350_ARM_S_FAMILY_ID = 0xE48BFF59  # MicroPython's RPI_PICO2 builds are Arm, secure (rp2350-arm-s)
ABSOLUTE_FAMILY_ID = 0xE48BFF57      # the RP2350-E10 work-around block picotool adds (--abs-block)

SOURCES = {
    "rp2_flash": "micropython ports/rp2/rp2_flash.c (STORAGE_BASE = PICO_FLASH_SIZE_BYTES - "
                 "MICROPY_HW_FLASH_STORAGE_BYTES; BLOCK_SIZE_BYTES = FLASH_SECTOR_SIZE)",
    "rp2_boot": "micropython ports/rp2/modules/_boot.py (VfsLfs2(bdev, progsize=256))",
    "uf2_h": "pico-sdk src/common/boot_uf2_headers/include/boot/uf2.h",
    "esp32_main": "micropython ports/esp32/main.c (a 'vfs' partition from the last partition's "
                  "end to the flash's end) and ports/esp32/partitions-4MiBplus.csv (factory app "
                  "0x10000 + 0x1F0000)",
    "esp32_part": "micropython ports/esp32/esp32_partition.c (NATIVE_BLOCK_SIZE_BYTES 4096) and "
                  "ports/esp32/modules/inisetup.py (VfsLfs2.mkfs(bdev): the defaults)",
}


class Geometry:
    """One board's filesystem as its stock MicroPython mounts it."""

    def __init__(self, board, chip, build, flash_bytes, fs_offset, fs_bytes, block_size, progsize,
                 family, sources, module=""):
        self.board = board
        self.chip = chip                  # "RP2040", "RP2350", "ESP32", "ESP32S3"
        self.build = build                # micropython.org's board name for the stock firmware
        self.flash_bytes = flash_bytes
        self.fs_offset = fs_offset        # from the start of the flash
        self.fs_bytes = fs_bytes
        self.block_size = block_size
        self.block_count = fs_bytes // block_size
        self.progsize = progsize
        self.readsize = 32                # extmod/vfs_lfs.c's default, on every port
        self.lookahead = 32               # the same
        self.family = family              # UF2 family id (None: an ESP32 takes a .bin)
        self.sources = sources            # SOURCES keys and the board files read
        self.module = module              # which module's flash size the entry assumes

    @property
    def uf2(self) -> bool:
        return self.family is not None

    @property
    def address(self) -> int:
        """Where the filesystem starts as a UF2 addresses it (XIP), or its flash offset (ESP32)."""
        return XIP_BASE + self.fs_offset if self.uf2 else self.fs_offset

    def describe(self) -> str:
        return ("%s: %d blocks of %d bytes (%d KiB) at flash offset 0x%X" % (
            self.board, self.block_count, self.block_size, self.fs_bytes // 1024, self.fs_offset))


MiB = 1024 * 1024
BOARDS = {
    # RPI_PICO/mpconfigboard.cmake: MICROPY_HW_FLASH_STORAGE_BYTES 1441792 (1408 * 1024);
    # pico-sdk boards/include/boards/pico.h: PICO_FLASH_SIZE_BYTES 2 MiB
    "pico": Geometry("pico", "RP2040", "RPI_PICO", 2 * MiB, 2 * MiB - 1441792, 1441792, 4096, 256,
                     RP2040_FAMILY_ID, ("rp2_flash", "rp2_boot", "uf2_h",
                                        "micropython ports/rp2/boards/RPI_PICO/mpconfigboard.cmake",
                                        "pico-sdk src/boards/include/boards/pico.h")),
    # RPI_PICO_W/mpconfigboard.cmake: 868352 (848 * 1024); pico_w.h: 2 MiB
    "pico_w": Geometry("pico_w", "RP2040", "RPI_PICO_W", 2 * MiB, 2 * MiB - 868352, 868352, 4096, 256,
                       RP2040_FAMILY_ID, ("rp2_flash", "rp2_boot", "uf2_h",
                                          "micropython ports/rp2/boards/RPI_PICO_W/mpconfigboard.cmake",
                                          "pico-sdk src/boards/include/boards/pico_w.h")),
    # RPI_PICO2/mpconfigboard.cmake: 3145728 ("4MB flash - 1MB firmware"); pico2.h: 4 MiB
    "pico2": Geometry("pico2", "RP2350", "RPI_PICO2", 4 * MiB, 4 * MiB - 3145728, 3145728, 4096, 256,
                      RP2350_ARM_S_FAMILY_ID, ("rp2_flash", "rp2_boot", "uf2_h",
                                               "micropython ports/rp2/boards/RPI_PICO2/mpconfigboard.cmake",
                                               "pico-sdk src/boards/include/boards/pico2.h")),
    # RPI_PICO2_W/mpconfigboard.cmake: 2621440 ("4MB - 1.5MB"); pico2_w.h: 4 MiB
    "pico2_w": Geometry("pico2_w", "RP2350", "RPI_PICO2_W", 4 * MiB, 4 * MiB - 2621440, 2621440, 4096, 256,
                        RP2350_ARM_S_FAMILY_ID, ("rp2_flash", "rp2_boot", "uf2_h",
                                                 "micropython ports/rp2/boards/RPI_PICO2_W/"
                                                 "mpconfigboard.cmake",
                                                 "pico-sdk src/boards/include/boards/pico2_w.h")),
    # the DevKitC's ESP32-WROOM-32 has 4 MiB of flash: vfs from 0x200000, 2 MiB
    "esp32": Geometry("esp32", "ESP32", "ESP32_GENERIC", 4 * MiB, 0x200000, 4 * MiB - 0x200000, 4096, 32,
                      None, ("esp32_main", "esp32_part"), module="ESP32-WROOM-32 (4 MiB flash)"),
    # the ESP32-S3-DevKitC-1 N8 and N8R8 (hardware/README.md) have 8 MiB: vfs from 0x200000, 6 MiB
    # (v1.24-v1.25 had a fixed table for ESP32_GENERIC_S3, partitions-8MiB.csv: vfs 0x200000,
    # 0x600000: the same)
    "esp32s3": Geometry("esp32s3", "ESP32S3", "ESP32_GENERIC_S3", 8 * MiB, 0x200000, 8 * MiB - 0x200000,
                        4096, 32, None, ("esp32_main", "esp32_part"),
                        module="ESP32-S3-WROOM-1 N8 or N8R8 (8 MiB flash)"),
}

# MicroPython docs/reference/mpyfiles.rst, "the correspondence between MicroPython release and
# .mpy version": a bytecode-only .mpy (what mpy-cross writes for our code) loads on any
# firmware of the same major version; the sub-version only matters for native code.
# (first release, .mpy major version), newest first.
MPY_VERSIONS = (((1, 19), 6), ((1, 12), 5), ((1, 11), 4), ((1, 9, 3), 3), ((1, 9), 2), ((1, 5, 1), 0))
# The newest release that table covers (v1.23.0 and up: 6.3); a newer firmware may have moved on.
MPY_TABLE_NEWEST = (1, 29)


def mpy_version_of(release: tuple):
    """The .mpy major version a MicroPython release loads, or None if it is newer than the table."""
    if tuple(release[:2]) > MPY_TABLE_NEWEST:
        return None
    for first, version in MPY_VERSIONS:
        if tuple(release[:len(first)]) >= first:
            return version
    return None
