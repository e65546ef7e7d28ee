"""The stock MicroPython UF2 a builder downloads (--micropython): which release and board it is.

Read from the firmware's own strings: sys.version's "MicroPython v1.24.1 on 2024-11-29"
(py/mpconfig.h MICROPY_BANNER_NAME_AND_VERSION) and sys.implementation._machine's
"Raspberry Pi Pico with RP2040" (MICROPY_BANNER_MACHINE: MICROPY_HW_BOARD_NAME " with "
MICROPY_HW_MCU_NAME), both string constants in every build's flash image.
"""
import re

from propctl.image import uf2

_RELEASE = re.compile(rb"MicroPython (?:\(with v2\.0 preview\) )?v(\d+)\.(\d+)(?:\.(\d+))?[-\w.+]*"
                      rb" on (\d{4}-\d\d-\d\d)")
_MACHINE = re.compile(rb"([\x20-\x7e]{3,80}) with (RP2040|RP2350)\x00")


class StockError(ValueError):
    """The stock image is no firmware for this board; the message says why and what to get."""


class Stock:
    """A stock firmware UF2: its blocks, release (1, 24, 1), machine string and family id."""

    def __init__(self, blocks: list, release: tuple, machine: str, family: int, end: int) -> None:
        self.blocks = blocks
        self.release = release
        self.machine = machine
        self.family = family
        self.end = end  # the first flash address past the firmware

    def shown(self) -> str:
        return "MicroPython %s (%s)" % (".".join(str(v) for v in self.release), self.machine)


def flash_image(blocks: list) -> bytes:
    """The flash bytes the blocks write, from the lowest address (gaps as 0xFF)."""
    if not blocks:
        return b""
    low = min(block.address for block in blocks)
    high = max(block.address + len(block.data) for block in blocks)
    image = bytearray(b"\xff" * (high - low))
    for block in blocks:
        image[block.address - low:block.address - low + len(block.data)] = block.data
    return bytes(image)


def read_stock(raw: bytes, name: str) -> Stock:
    """The stock UF2's blocks and identity; StockError if it is no MicroPython firmware UF2."""
    try:
        blocks = uf2.parse(raw, name)
    except uf2.UF2Error as exc:
        raise StockError("%s. Download the .uf2 for your board from micropython.org/download" % exc) from None
    cut = uf2.cut_short(blocks)
    if cut:
        raise StockError("%s is cut short: it holds blocks 0 to %d of %d (an interrupted download?). "
                         "Download it again from micropython.org/download" % ((name,) + cut))
    counts = uf2.families(blocks)
    family = max(counts, key=lambda key: counts[key])  # the firmware's; RP2350 builds add one abs block
    if family is None:
        raise StockError("%s carries no UF2 family id: not a firmware for a Pico" % name)
    main = [block for block in uf2.flash_blocks(blocks) if block.family == family]
    image = flash_image(main)
    release = _RELEASE.search(image)
    machine = _MACHINE.search(image)
    if release is None or machine is None:
        raise StockError("%s holds no MicroPython firmware (no \"MicroPython vX.Y on DATE\" and board "
                         "name in it): download the .uf2 for your board from micropython.org/download"
                         % name)
    version = tuple(int(part) for part in release.groups()[:3] if part is not None)
    # the banner's "; Raspberry Pi Pico with RP2040" (shared/runtime/pyexec.c: "; " MICROPY_BANNER_MACHINE)
    shown = (machine.group(1) + b" with " + machine.group(2)).decode("ascii").lstrip("; ")
    end = max(block.address + len(block.data) for block in main)
    return Stock(blocks, version, shown, family, end)
