"""A fresh random seed from the board's hardware random generator (os.urandom)."""


def urandom_seed() -> int:
    """A fresh 30-bit seed (stays a small int on a 32-bit board)."""
    import os
    raw = os.urandom(4)
    return raw[0] | (raw[1] << 8) | (raw[2] << 16) | ((raw[3] & 0x3F) << 24)
