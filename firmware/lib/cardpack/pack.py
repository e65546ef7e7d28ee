"""Read one record of a card pack by seeking; detect truncation and corruption.

The container is kind-agnostic: it stores numbered byte records and knows
nothing of what is inside them (cardpack.taskcard decodes task cards). The
desktop writer is propctl.cards.container; both use the constants below.

File layout, all integers little-endian:

    offset  size  field
    0       4     magic b"CPAK"
    4       1     format version (FORMAT_VERSION)
    5       1     kind version (the record layout version of this kind)
    6       2     header size in bytes (HEADER_SIZE; a reader refuses others)
    8       4     kind code, 4 ASCII bytes, e.g. b"TASK"
    12      4     record count N
    16      4     index offset (= header size)
    20      4     file size in bytes
    24      4     CRC-32 of bytes [header size, file size)  (whole-file check)
    28      4     CRC-32 of header bytes [0, 28)
    32      12*N  index: per record (offset u32, length u32, crc u32)
    ...           records, each `length` bytes at `offset`

A record's crc is record_crc(k, data): CRC-32 over its 4-byte index k and
then its bytes, so an index that points at the wrong record is caught too.

Heap per fetch is one index entry plus the record itself, whatever the deck
size: opening reads only the header, `record(k)` seeks twice.
"""
import binascii
import struct

MAGIC = b"CPAK"
FORMAT_VERSION = 1
HEADER_SIZE = 32
INDEX_ENTRY_SIZE = 12
HEADER_FORMAT = "<4sBBH4sIIIII"
INDEX_FORMAT = "<III"
_CRC_START = 28
# A record larger than this is refused before reading: it could only come
# from a corrupted index, and reading it would exhaust a board's heap.
MAX_RECORD_SIZE = 4096


def _crc32_slow(data, crc: int = 0) -> int:
    """Bitwise CRC-32 (IEEE), for builds without binascii.crc32 (pure Python, far slower)."""
    crc ^= 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0xEDB88320 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


# rp2 and esp32 builds (ROM level "extra features") have binascii.crc32;
# minimal ports may not.
_crc32 = getattr(binascii, "crc32", _crc32_slow)


class PackError(ValueError):
    """The pack is truncated, corrupted, of another kind or version."""


def record_crc(k: int, data) -> int:
    """CRC-32 that ties record bytes to their index k."""
    return _crc32(data, _crc32(struct.pack("<I", k))) & 0xFFFFFFFF


def header_crc(header) -> int:
    """CRC-32 of the header bytes that precede the header checksum."""
    return _crc32(memoryview(header)[:_CRC_START]) & 0xFFFFFFFF


class Pack:
    """A card pack read from a binary stream with seek/read/readinto (file, io.BytesIO).

    `Pack(stream, kind=b"TASK")` reads and checks the header (magic, format
    version, header checksum, size against the stream length when the stream
    can tell it) and raises PackError on any mismatch, or if `kind` is given
    and the pack holds another kind. The stream stays owned by the caller.
    """

    def __init__(self, stream, kind=None) -> None:
        self._stream = stream
        header = self._read_at(0, HEADER_SIZE, "the header")
        (magic, version, kind_version, header_size, code, count, index_offset,
         size, body_crc, head_crc) = struct.unpack(HEADER_FORMAT, header)
        if magic != MAGIC:
            raise PackError("not a card pack (the file does not start with %r)" % (MAGIC,))
        if version != FORMAT_VERSION:
            raise PackError("card pack format version %d, this reader reads version %d"
                            % (version, FORMAT_VERSION))
        if head_crc != header_crc(header):
            raise PackError("card pack header is corrupted (checksum mismatch)")
        if header_size != HEADER_SIZE or index_offset != HEADER_SIZE:
            raise PackError("card pack header is corrupted (header size %d)" % header_size)
        index_end = HEADER_SIZE + INDEX_ENTRY_SIZE * count
        if size < index_end:
            raise PackError("card pack is corrupted (%d records cannot fit in %d bytes)"
                            % (count, size))
        actual = self._stream_size()
        if actual is not None and actual != size:
            raise PackError("card pack is %s: the header says %d bytes, the file has %d"
                            % ("truncated" if actual < size else "too long", size, actual))
        if kind is not None:
            if isinstance(kind, str):
                kind = kind.encode()
            if code != kind:
                raise PackError("this pack holds %s records, not %s"
                                % (_text(code), _text(kind)))
        self.kind = _text(code)
        """The 4-letter kind code, e.g. "TASK"."""
        self.kind_version = kind_version
        """The record layout version, for the kind's decoder to check."""
        self.count = count
        """Number of records."""
        self.size = size
        """File size in bytes, as the header records it."""
        self._body_crc = body_crc
        self._index_end = index_end
        self._entry = bytearray(INDEX_ENTRY_SIZE)

    def __len__(self) -> int:
        return self.count

    def record(self, k: int) -> bytes:
        """The bytes of record k (0-based), checked against bounds and its CRC."""
        if not 0 <= k < self.count:
            raise IndexError("no record %d: the pack has %d (0..%d)" % (k, self.count, self.count - 1))
        stream = self._stream
        stream.seek(HEADER_SIZE + INDEX_ENTRY_SIZE * k)
        entry = self._entry
        if stream.readinto(entry) != INDEX_ENTRY_SIZE:
            raise PackError("card pack is truncated (index entry %d is cut off)" % k)
        offset, length, crc = struct.unpack(INDEX_FORMAT, entry)
        if (offset < self._index_end or length > MAX_RECORD_SIZE
                or offset + length > self.size):
            raise PackError("card pack is corrupted (index entry %d points outside the records)" % k)
        data = self._read_at(offset, length, "record %d" % k)
        if record_crc(k, data) != crc:
            raise PackError("card pack is corrupted (record %d fails its checksum)" % k)
        return data

    def verify(self, chunk: int = 256) -> None:
        """Check the whole-file CRC, reading `chunk` bytes at a time.

        Catches damage anywhere, also in records never fetched. Heap use is
        one chunk buffer, so a board can afford it once at start-up.
        """
        buf = bytearray(chunk)
        view = memoryview(buf)
        stream = self._stream
        stream.seek(HEADER_SIZE)
        left = self.size - HEADER_SIZE
        crc = 0
        while left > 0:
            n = stream.readinto(view[:chunk if left > chunk else left])
            if not n:
                raise PackError("card pack is truncated (%d bytes missing)" % left)
            crc = _crc32(view[:n], crc)
            left -= n
        if crc & 0xFFFFFFFF != self._body_crc:
            raise PackError("card pack is corrupted (whole-file checksum mismatch)")

    def _read_at(self, offset: int, length: int, what: str) -> bytes:
        self._stream.seek(offset)
        data = self._stream.read(length)
        if data is None or len(data) != length:
            raise PackError("card pack is truncated (%s is cut off)" % what)
        return data

    def _stream_size(self):
        # Both file objects and io.BytesIO can seek to the end; a stream
        # that cannot is checked by bounds and CRCs alone.
        try:
            size = self._stream.seek(0, 2)
        except (OSError, AttributeError, TypeError):
            return None
        return size


def _text(code: bytes) -> str:
    try:
        return str(code, "ascii")
    except ValueError:
        return repr(code)
