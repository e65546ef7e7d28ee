"""Task-card records (pack kind TASK) decoded on both interpreters, built from the documented layout."""
import binascii
import io
import struct

from checks import raises

from cardpack import Pack, PackError
from cardpack.pack import HEADER_SIZE, header_crc, record_crc
from cardpack.taskcard import KIND, TaskCard, check_version, decode, find

STATEMENTS = ["Oak", "Beech", "Birch", "Maple", "Lärche", "Ash", "Fichte", "Elm"]


def layout_record(bolt, texts):
    """u8 bolt, then id, category, text and 8 statements as u8 length + UTF-8."""
    out = bytes([bolt])
    for text in texts:
        data = text.encode("utf-8") if isinstance(text, str) else text
        out += bytes([len(data)]) + data
    return out


def layout_pack(records, kind=b"TASK", kind_version=2):
    index = b""
    offset = HEADER_SIZE + 12 * len(records)
    for k, data in enumerate(records):
        index += struct.pack("<III", offset, len(data), record_crc(k, data))
        offset += len(data)
    body = index + b"".join(records)
    head = (b"CPAK" + bytes([1, kind_version]) + struct.pack("<H", HEADER_SIZE) + kind
            + struct.pack("<IIII", len(records), HEADER_SIZE, HEADER_SIZE + len(body),
                          binascii.crc32(body) & 0xFFFFFFFF))
    return head + struct.pack("<I", header_crc(head)) + body


TREES = layout_record(6, ["NAT-9", "nature", "Which trees drop their leaves?"] + STATEMENTS)


def test_a_record_decodes_to_its_card():
    card = decode(TREES)
    assert card.id == "NAT-9" and card.category == "nature"
    assert card.bolt == 6 and card.statement(6) == "Fichte"
    assert card.text == "Which trees drop their leaves?"
    assert card.statements == tuple(STATEMENTS)
    assert card == TaskCard("NAT-9", "nature", "Which trees drop their leaves?", STATEMENTS, 6)
    assert card != TaskCard("NAT-9", "nature", "Which trees drop their leaves?", STATEMENTS, 5)
    assert card != TaskCard("NAT-9", "Natur", "Which trees drop their leaves?", STATEMENTS, 6)
    raises(IndexError, card.statement, 8)


def test_categories_are_the_decks_own_words():
    # Any category text works, in any language: no list in the firmware.
    for category in ("geography", "Geografie", "Sport und Spiel", "Küche", "x" * 40):
        assert decode(layout_record(0, ["x", category, "t"] + STATEMENTS)).category == category


def test_damaged_records_are_refused():
    raises(PackError, decode, b"")
    raises(PackError, decode, b"\x01")
    raises(PackError, decode, layout_record(8, ["x", "c", "t"] + STATEMENTS))   # no window 8
    raises(PackError, decode, layout_record(0, ["x", "c", "t"] + STATEMENTS[:7]))  # a statement short
    raises(PackError, decode, layout_record(0, ["x", "t"] + STATEMENTS))  # version 1 texts: no category
    raises(PackError, decode, TREES + b"\x00")                                 # stray byte
    for cut in range(len(TREES)):
        raises(PackError, decode, TREES[:cut])
    bad_text = decode(layout_record(0, ["x", "c", b"\xff\xfe"] + STATEMENTS))
    assert "UTF-8" in str(raises(PackError, lambda: bad_text.text))


def test_cards_from_a_pack_and_by_id():
    other = layout_record(2, ["GEO-1", "geography", "Capitals?"] + STATEMENTS)
    pack = Pack(io.BytesIO(layout_pack([other, TREES])), kind=KIND)
    check_version(pack)
    assert decode(pack.record(1)).id == "NAT-9"
    assert decode(pack.record(find(pack, "GEO-1"))).text == "Capitals?"
    assert find(pack, "NAT-9") == 1 and find(pack, "GEO") == -1


def test_other_kinds_and_layouts_are_refused():
    raises(PackError, check_version, Pack(io.BytesIO(layout_pack([TREES], kind_version=1))))
    raises(PackError, check_version, Pack(io.BytesIO(layout_pack([TREES], kind=b"QUES"))))
