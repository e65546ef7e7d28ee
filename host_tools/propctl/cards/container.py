"""Write the generic card-pack container (the layout is in cardpack.pack).

`build_pack` turns a list of encoded records into pack bytes;
`propctl.atomic.write_atomic` puts them on disk.
"""
import binascii
import struct

from cardpack.pack import (
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


def build_pack(kind: bytes, kind_version: int, records, progress=None) -> bytes:
    """Pack bytes holding `records` (a list of bytes) as kind `kind` (4 ASCII bytes).

    `progress(done, total)` is called now and then while the index is built.
    Raises ValueError for a bad kind code, too many or too large records.
    """
    if len(kind) != 4 or not kind.isascii():
        raise ValueError("a pack kind code is 4 ASCII bytes, got %r" % (kind,))
    if not 0 <= kind_version <= 255:
        raise ValueError("kind version must be 0..255, got %r" % (kind_version,))
    count = len(records)
    if count > MAX_RECORDS:
        raise ValueError("a pack holds at most %d records, got %d" % (MAX_RECORDS, count))
    index = bytearray()
    offset = HEADER_SIZE + INDEX_ENTRY_SIZE * count
    step = max(1, count // 20)
    for k, data in enumerate(records):
        if len(data) > MAX_RECORD_SIZE:
            raise ValueError("record %d is %d bytes, at most %d fit a board's fetch"
                             % (k, len(data), MAX_RECORD_SIZE))
        index += struct.pack(INDEX_FORMAT, offset, len(data), record_crc(k, data))
        offset += len(data)
        if progress is not None and (k + 1) % step == 0:
            progress(k + 1, count)
    body = bytes(index) + b"".join(records)
    size = HEADER_SIZE + len(body)
    if size > 0xFFFFFFFF:
        raise ValueError("a pack must stay under 4 GiB")
    body_crc = binascii.crc32(body) & 0xFFFFFFFF
    head = struct.pack(HEADER_FORMAT, MAGIC, FORMAT_VERSION, kind_version, HEADER_SIZE,
                       kind, count, HEADER_SIZE, size, body_crc, 0)
    head = head[:-4] + struct.pack("<I", header_crc(head))
    return head + body
