"""Damaged copies of a good file, for the fuzz tests of every file reader."""
from hypothesis import strategies as st


def damage(data, original: bytes) -> bytes:
    """`original` with a few bytes flipped, cut, inserted or overwritten."""
    damaged = bytearray(original)
    for _ in range(data.draw(st.integers(1, 3))):
        how = data.draw(st.sampled_from(["flip", "truncate", "insert", "overwrite"]))
        where = data.draw(st.integers(0, max(0, len(damaged) - 1)))
        if how == "flip" and damaged:
            damaged[where] ^= data.draw(st.integers(1, 255))
        elif how == "truncate":
            del damaged[where:]
        elif how == "insert":
            damaged[where:where] = data.draw(st.binary(min_size=1, max_size=16))
        else:
            chunk = data.draw(st.binary(min_size=1, max_size=16))
            damaged[where:where + len(chunk)] = chunk
    return bytes(damaged)
