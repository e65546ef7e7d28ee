"""Write the generic card-pack container (the layout is in cardpack.pack).

`record_problem` and `deck_problem` are every limit a pack has, so that
`propctl cards check` reports what `pack` would refuse. `pack_chunks` yields
the pack in pieces for `propctl.atomic.write_atomic` (a million cards are
never joined into one bytes object); `build_pack` is the same as one bytes.
"""
import binascii
import struct
from typing import Callable, Iterator, List, Optional, Sequence

from propctl.shared.cardpack.pack import (
    FORMAT_VERSION,
    HEADER_FORMAT,
    HEADER_SIZE,
    INDEX_ENTRY_SIZE,
    INDEX_FORMAT,
    MAGIC,
    MAX_RECORD_SIZE,
    header_crc,
    record_crc,
)

MAX_RECORDS = 1_000_000
MAX_PACK_BYTES = 0xFFFFFFFF  # the header stores the file size in 32 bits


def record_problem(data: bytes) -> Optional[str]:
    """Why one encoded card cannot go into a pack, or None."""
    if len(data) > MAX_RECORD_SIZE:
        return "packs into %d bytes; allowed: at most %d bytes per card (a board fetches one card " \
               "at a time); shorten its texts" % (len(data), MAX_RECORD_SIZE)
    return None


def deck_problem(count: int, record_bytes: int) -> Optional[str]:
    """Why `count` records of `record_bytes` bytes in all cannot form one pack, or None."""
    if count > MAX_RECORDS:
        return "has %d cards; allowed: at most %d in one pack; split the deck" % (count, MAX_RECORDS)
    size = HEADER_SIZE + INDEX_ENTRY_SIZE * count + record_bytes
    if size > MAX_PACK_BYTES:
        return "would pack into %d bytes; allowed: under 4 GiB; split the deck" % size
    return None


def pack_chunks(kind: bytes, kind_version: int, records: Sequence[bytes],
                progress: Optional[Callable[[int, int], None]] = None) -> Iterator[bytes]:
    """The pack holding `records` as kind `kind` (4 ASCII bytes), in pieces.

    Everything is checked before the first piece: raises ValueError for a bad
    kind code or version, too many or too large records. `progress(done,
    total)` is called now and then while the index is built.
    """
    if len(kind) != 4 or not kind.isascii():
        raise ValueError("a pack kind code is 4 ASCII bytes, got %r" % (kind,))
    if not 0 <= kind_version <= 255:
        raise ValueError("kind version must be 0..255, got %r" % (kind_version,))
    count = len(records)
    index = bytearray()
    offset = HEADER_SIZE + INDEX_ENTRY_SIZE * count
    step = max(1, count // 20)
    total = 0
    for k, data in enumerate(records):
        problem = record_problem(data)
        if problem is not None:
            raise ValueError("record %d %s" % (k, problem))
        index += struct.pack(INDEX_FORMAT, offset, len(data), record_crc(k, data))
        offset += len(data)
        total += len(data)
        if progress is not None and (k + 1) % step == 0:
            progress(k + 1, count)
    problem = deck_problem(count, total)
    if problem is not None:
        raise ValueError("the deck " + problem)
    body_crc = binascii.crc32(index)
    for data in records:
        body_crc = binascii.crc32(data, body_crc)
    head = struct.pack(HEADER_FORMAT, MAGIC, FORMAT_VERSION, kind_version, HEADER_SIZE,
                       kind, count, HEADER_SIZE, offset, body_crc & 0xFFFFFFFF, 0)
    return _pieces(head[:-4] + struct.pack("<I", header_crc(head)), index, records)


def _pieces(head: bytes, index: bytearray, records: Sequence[bytes]) -> Iterator[bytes]:
    yield head
    yield bytes(index)
    batch: List[bytes] = []
    for data in records:
        batch.append(data)
        if len(batch) == 4096:  # fewer, larger writes
            yield b"".join(batch)
            batch = []
    yield b"".join(batch)


def build_pack(kind: bytes, kind_version: int, records: Sequence[bytes],
               progress: Optional[Callable[[int, int], None]] = None) -> bytes:
    """The pack bytes holding `records` (see pack_chunks)."""
    return b"".join(pack_chunks(kind, kind_version, records, progress))
