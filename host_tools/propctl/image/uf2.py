"""UF2, the file a board in BOOTSEL mode takes by drag and drop: write one, read one, join two.

The format (Microsoft's UF2 specification, github.com/microsoft/uf2, README "File format";
pico-sdk boot/uf2.h has the same constants): 512-byte blocks, each
    0   magic 0x0A324655        4   magic 0x9E5D5157     8  flags
    12  target address          16  payload size        20  block number
    24  number of blocks        28  family id (flag 0x2000) or file size
    32  payload (476 bytes room; the Pico's bootrom takes 256)   508 magic 0x0AB16F30
little-endian. Block numbers count 0..n-1 in each file, every block carries n.
"""
import struct

MAGIC_START0 = 0x0A324655
MAGIC_START1 = 0x9E5D5157
MAGIC_END = 0x0AB16F30
FLAG_NOT_MAIN_FLASH = 0x00000001
FLAG_FAMILY_ID_PRESENT = 0x00002000
BLOCK_BYTES = 512
PAYLOAD = 256  # what the RP2040/RP2350 bootrom writes per block (one flash page)
_HEADER = struct.Struct("<8I")


class UF2Error(ValueError):
    """A file that is not a UF2 a board would take; the message says what is wrong."""


class Block:
    """One UF2 block's fields."""

    def __init__(self, address: int, data: bytes, family, number: int = 0, count: int = 0,
                 flags: int = FLAG_FAMILY_ID_PRESENT, area=None) -> None:
        self.address = address
        # a parsed block's whole 476-byte data area: written back as it came (extension tags
        # after the payload, flag 0x8000, stay)
        self.area = area
        self.data = data
        self.family = family
        self.number = number
        self.count = count
        self.flags = flags

    def pack(self, number: int, count: int) -> bytes:
        head = _HEADER.pack(MAGIC_START0, MAGIC_START1, self.flags, self.address, len(self.data),
                            number, count, self.family if self.family is not None else 0)
        area = self.area if self.area is not None else self.data + b"\x00" * (476 - len(self.data))
        return head + area + struct.pack("<I", MAGIC_END)


def blocks_of(data: bytes, address: int, family: int) -> list:
    """`data` (a multiple of 256 bytes) as Blocks of 256 bytes from `address` on."""
    if len(data) % PAYLOAD or address % PAYLOAD:
        raise ValueError("UF2 data must be whole 256-byte pages at a page address")
    return [Block(address + at, bytes(data[at:at + PAYLOAD]), family)
            for at in range(0, len(data), PAYLOAD)]


def write(blocks: list) -> bytes:
    """The blocks as one UF2 file, numbered 0..n-1 in this order."""
    return b"".join(block.pack(i, len(blocks)) for i, block in enumerate(blocks))


def parse(raw: bytes, name: str = "the file") -> list:
    """The Blocks of a UF2 file, checked; UF2Error says what is wrong with it."""
    if not raw:
        raise UF2Error("%s is empty" % name)
    if len(raw) % BLOCK_BYTES:
        raise UF2Error("%s is %d bytes, not a whole number of 512-byte UF2 blocks" % (name, len(raw)))
    blocks = []
    for at in range(0, len(raw), BLOCK_BYTES):
        m0, m1, flags, address, size, number, count, family = _HEADER.unpack_from(raw, at)
        (end,) = struct.unpack_from("<I", raw, at + 508)
        if (m0, m1, end) != (MAGIC_START0, MAGIC_START1, MAGIC_END):
            raise UF2Error("%s is not a UF2 file (block %d has no UF2 magic numbers)"
                           % (name, at // BLOCK_BYTES))
        if size > 476:
            raise UF2Error("%s: block %d claims %d bytes of payload (at most 476)"
                           % (name, at // BLOCK_BYTES, size))
        blocks.append(Block(address, raw[at + 32:at + 32 + size],
                            family if flags & FLAG_FAMILY_ID_PRESENT else None, number, count, flags,
                            raw[at + 32:at + 508]))
    return blocks


def cut_short(blocks: list):
    """(last block number, block count) if the file ends before its last block, else None.
    Every block carries the count of its file's blocks (numbered 0..count-1); a file that
    stops early (an interrupted download, a copy cut off) ends on a block short of count - 1,
    and a bootrom given it would write part of a firmware and wait for the rest."""
    if not blocks:
        return None
    last = blocks[-1]
    return (last.number, last.count) if last.number + 1 < last.count else None


def families(blocks: list) -> dict:
    """family id -> how many blocks carry it (None: blocks without a family id)."""
    counts: dict = {}
    for block in blocks:
        counts[block.family] = counts.get(block.family, 0) + 1
    return counts


def flash_blocks(blocks: list) -> list:
    """The blocks a bootrom writes to flash (not the ones flagged 'not main flash')."""
    return [block for block in blocks if not block.flags & FLAG_NOT_MAIN_FLASH]
