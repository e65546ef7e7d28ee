"""The board-side question-card decoder, on CPython and MicroPython."""
from checks import raises

from cardpack import PackError
from cardpack.question import FRAMES, decode, decode_question, slot
from rules.pimaldaumen import COLOURS, score


def text(s):
    data = s.encode("utf-8")
    return bytes([len(data)]) + data


def question_bytes(n):
    """Question n: scale 10 |2| 20 |6| 30, answer "2n.5"."""
    out = text("Frage %d, wie viel?" % n) + text("m" if n % 2 else "")
    out += text("2%d.5" % n) + text("Quelle %d" % n)
    out += bytes([2]) + text("10") + text("20") + text("30") + bytes([2, 6])
    return out


def record():
    out = text("PMD-9")
    for n in range(6):
        out += question_bytes(n)
    return out


def test_a_record_decodes_to_six_questions_in_slot_order():
    card = decode(record())
    assert card.id == "PMD-9"
    assert len(card.questions) == 6
    violet_green = card.question("violet", "green")
    assert violet_green.text == "Frage 4, wie viel?"
    assert violet_green.unit == ""
    assert violet_green.scale == ["10", 2, "20", 6, "30"]
    assert violet_green.answer == "24.5" and violet_green.source == "Quelle 4"
    assert score(violet_green.scale, violet_green.answer) == 6


def test_one_question_is_read_without_the_others():
    data = record()
    for frame in FRAMES:
        for colour in COLOURS:
            assert decode_question(data, frame, colour) == decode(data).questions[slot(frame, colour)]


def test_damaged_records_raise_pack_errors():
    data = record()
    raises(PackError, decode, data[:-1])
    raises(PackError, decode, data + b"\x00")
    raises(PackError, decode, b"")
    bad_points = bytearray(data)
    bad_points[-1] = 7
    raises(PackError, decode, bytes(bad_points))
    bad_utf8 = bytearray(data)
    bad_utf8[1] = 0xFF
    raises(PackError, decode, bytes(bad_utf8))
    raises(PackError, decode_question, data[:20], "violet", "salmon")


def test_unknown_frame_or_colour_is_refused():
    raises(ValueError, slot, "gold", "green")
    raises(ValueError, slot, "white", "blue")


def test_a_question_the_rules_cannot_score_is_refused():
    # Checksums only say the bytes are as written; the decoder checks they make sense.
    def card(first_question):
        out = text("PMD-8") + first_question
        for n in range(1, 6):
            out += question_bytes(n)
        return out

    def question(values, answer):
        out = text("Wie viel?") + text("") + text(answer) + text("Quelle")
        out += bytes([len(values) - 1]) + b"".join(text(v) for v in values) + bytes([6] * (len(values) - 1))
        return out

    assert decode(card(question(["10", "20"], "15"))).questions[0].scale == ["10", 6, "20"]
    for values, answer in ((["20", "10"], "15"),     # decreasing
                           (["10", "10"], "10"),     # not strictly increasing
                           (["10", "zwanzig"], "15"),
                           (["10", ""], "15"),
                           (["10", "20"], "viel"),
                           (["10", "20"], "")):
        data = card(question(values, answer))
        error = raises(PackError, decode, data)
        assert "cannot be scored" in str(error), error
        raises(PackError, decode_question, data, "white", "yellow")
