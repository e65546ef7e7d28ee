"""The generic card-pack container: round trips and every kind of damage, on both interpreters.

Packs are built here from the documented layout (cardpack.pack docstring), so
these tests also pin the file format the desktop writer must produce.
"""
import io
import struct

from checks import raises

from cardpack import Pack, PackError
from cardpack.pack import HEADER_SIZE, MAX_RECORD_SIZE, header_crc, record_crc


def _crc(data, start=0):
    import binascii
    return binascii.crc32(data, start) & 0xFFFFFFFF


def layout_pack(records, kind=b"TEST", version=1, kind_version=3):
    """A pack assembled field by field from the documented layout."""
    index = b""
    offset = HEADER_SIZE + 12 * len(records)
    for k, data in enumerate(records):
        index += struct.pack("<III", offset, len(data), record_crc(k, data))
        offset += len(data)
    body = index + b"".join(records)
    head = (b"CPAK" + bytes([version, kind_version]) + struct.pack("<H", HEADER_SIZE) + kind
            + struct.pack("<IIII", len(records), HEADER_SIZE, HEADER_SIZE + len(body), _crc(body)))
    return head + struct.pack("<I", header_crc(head)) + body


RECORDS = [b"first record", b"", b"\x00\xff" * 5, b"last"]


def _read_all(data):
    """Open, verify and fetch every record, as a careful reader would."""
    pack = Pack(io.BytesIO(data))
    pack.verify()
    return [pack.record(k) for k in range(len(pack))]


def test_records_come_back_exactly():
    pack = Pack(io.BytesIO(layout_pack(RECORDS)), kind="TEST")
    assert pack.kind == "TEST" and pack.kind_version == 3 and len(pack) == 4
    assert [pack.record(k) for k in (3, 0, 2, 1)] == [RECORDS[3], RECORDS[0], RECORDS[2], RECORDS[1]]
    pack.verify()
    pack.verify(chunk=7)


def test_header_crc_helper_matches_a_plain_crc():
    head = layout_pack(RECORDS)[:28]
    assert header_crc(head) == _crc(head)
    assert record_crc(5, b"abc") == _crc(b"abc", _crc(struct.pack("<I", 5)))


def test_empty_pack_is_valid():
    pack = Pack(io.BytesIO(layout_pack([])))
    assert len(pack) == 0
    pack.verify()
    raises(IndexError, pack.record, 0)


def test_index_out_of_range_is_an_index_error():
    pack = Pack(io.BytesIO(layout_pack(RECORDS)))
    raises(IndexError, pack.record, 4)
    raises(IndexError, pack.record, -1)


def test_other_kind_is_refused_with_both_names():
    message = str(raises(PackError, Pack, io.BytesIO(layout_pack(RECORDS)), "QUES"))
    assert "TEST" in message and "QUES" in message
    raises(PackError, Pack, io.BytesIO(layout_pack(RECORDS)), b"QUES")


def test_not_a_pack_and_future_versions_are_refused():
    assert "not a card pack" in str(raises(PackError, Pack, io.BytesIO(b"PK\x03\x04" + bytes(60))))
    assert "version" in str(raises(PackError, Pack, io.BytesIO(layout_pack(RECORDS, version=2))))


def test_every_truncation_is_detected():
    data = layout_pack(RECORDS)
    for length in range(len(data)):
        message = str(raises(PackError, Pack, io.BytesIO(data[:length])))
        assert "truncated" in message or "not a card pack" in message
    message = str(raises(PackError, Pack, io.BytesIO(data + b"x")))
    assert "too long" in message


def test_every_flipped_byte_is_detected():
    data = layout_pack(RECORDS)
    for position in range(len(data)):
        for mask in (0x01, 0x80, 0xFF):
            damaged = bytearray(data)
            damaged[position] ^= mask
            raises(PackError, _read_all, bytes(damaged))


class _NoEnd:
    """A stream that cannot seek to its end (like some board file systems)."""

    def __init__(self, data):
        self._io = io.BytesIO(data)

    def seek(self, offset, whence=0):
        if whence != 0:
            raise OSError("cannot seek from the end")
        return self._io.seek(offset)

    def read(self, n):
        return self._io.read(n)

    def readinto(self, buf):
        return self._io.readinto(buf)


def test_truncation_without_a_known_size_is_caught_when_fetching():
    data = layout_pack(RECORDS)
    pack = Pack(_NoEnd(data[:-2]))
    assert pack.record(0) == RECORDS[0]
    assert "truncated" in str(raises(PackError, pack.record, 3))
    assert "truncated" in str(raises(PackError, pack.verify))


def test_swapped_index_entries_never_return_the_wrong_record():
    data = bytearray(layout_pack(RECORDS))
    first, second = HEADER_SIZE, HEADER_SIZE + 12
    data[first:first + 12], data[second:second + 12] = data[second:second + 12], data[first:first + 12]
    pack = Pack(io.BytesIO(bytes(data)))
    raises(PackError, pack.record, 0)
    raises(PackError, pack.record, 1)
    assert pack.record(2) == RECORDS[2]


def test_an_absurd_record_length_is_refused_before_reading():
    big = b"y" * (MAX_RECORD_SIZE + 1)
    data = layout_pack([big])
    message = str(raises(PackError, Pack(io.BytesIO(data)).record, 0))
    assert "outside" in message


def test_fallback_crc_matches_binascii():
    # Boards built without binascii.crc32 use the slow path; it must agree bit for bit.
    from cardpack.pack import _crc32_slow
    for data in (b"", b"a", b"123456789", bytes(range(256)), b"\xff" * 33):
        assert _crc32_slow(data) == _crc(data)
        assert _crc32_slow(data, 0x12345678) == _crc(data, 0x12345678)
    assert _crc32_slow(b"123456789") == 0xCBF43926  # the published CRC-32 check value
