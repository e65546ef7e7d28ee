"""Seeded xorshift32 generator shared by the boards and the desktop.

MicroPython's `random` differs by port and has no `Random` class or `shuffle`,
so every random decision that must be reproducible comes from here. CPython
and every MicroPython give the same sequence for the same seed.

32-bit clean: a board's small ints hold 31 bits, so any value of 2**30 or more
is a heap-allocated big int there. The 32-bit state is kept as two 16-bit
halves and `below(n)` reduces the halves modulo n without ever forming the
32-bit value, so every draw with n <= 2**29 (all of the games' dice, plans and
shuffles) allocates nothing on a board. The sequence is the plain xorshift32
one (13, 17, 5): the halves are only how it is computed. Only `next32()`,
`state`, and `below(n)` for n > 2**29 form 32-bit values (big ints on a board).
"""

_MASK = 0xFFFFFFFF
# Any odd constant works; this one only keeps seed 0 (an all-zero state, which
# xorshift can never leave) away from the fixed point.
_SEED_SALT = 0x6D2B79F5
# Largest n that `below` reduces in small ints: n << 1 stays below 2**30.
_SMALL_N = 0x20000000


class Rng:
    """A small deterministic PRNG with integer helpers."""

    def __init__(self, seed: int = 0) -> None:
        state = (seed ^ _SEED_SALT) & _MASK
        if state == 0:
            state = _SEED_SALT
        self._hi = state >> 16
        self._lo = state & 0xFFFF
        # Spread nearby seeds apart before the first draw.
        for _ in range(4):
            self._step()

    def _step(self) -> None:
        # x ^= x << 13; x ^= x >> 17; x ^= x << 5 (mod 2**32), on 16-bit halves.
        hi = self._hi
        lo = self._lo
        hi ^= ((hi << 13) | (lo >> 3)) & 0xFFFF
        lo ^= (lo << 13) & 0xFFFF
        lo ^= hi >> 1
        hi ^= ((hi << 5) | (lo >> 11)) & 0xFFFF
        lo ^= (lo << 5) & 0xFFFF
        self._hi = hi
        self._lo = lo

    def next32(self) -> int:
        """Return the next raw 32-bit value (0 .. 2**32-1); a big int on a board."""
        self._step()
        return (self._hi << 16) | self._lo

    def below(self, n: int) -> int:
        """Uniform integer in 0..n-1 (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("below(n) needs 1 <= n <= 2**32, got %r" % (n,))
        if n > _SMALL_N:
            return self._below_large(n)
        # Draws at or above 2**32 - (2**32 % n) are rejected, as in the plain
        # form below: the limit's halves, when 2**32 % n is not 0.
        rem = _mod(65536 % n, 0, n)
        limit_hi = 0xFFFF - ((rem - 1) >> 16)
        limit_lo = 0xFFFF - ((rem - 1) & 0xFFFF)
        while True:
            self._step()
            hi = self._hi
            lo = self._lo
            if rem == 0 or hi < limit_hi or (hi == limit_hi and lo < limit_lo):
                return _mod(hi, lo, n)

    def _below_large(self, n: int) -> int:
        if n > 0x100000000:
            raise ValueError("below(n) needs 1 <= n <= 2**32, got %r" % (n,))
        limit = 0x100000000 - (0x100000000 % n)
        while True:
            r = self.next32()
            if r < limit:
                return r % n

    def between(self, a: int, b: int) -> int:
        """Uniform integer in a..b, both ends included."""
        if b < a:
            raise ValueError("between(a, b) needs a <= b, got %r > %r" % (a, b))
        return a + self.below(b - a + 1)

    def chance(self, permille: int) -> bool:
        """True with probability permille/1000."""
        if permille < 0 or permille > 1000:
            raise ValueError("chance needs 0..1000 per mille, got %r" % (permille,))
        return self.below(1000) < permille

    def choice(self, seq):
        """One element of a non-empty sequence."""
        if not seq:
            raise ValueError("choice() from an empty sequence")
        return seq[self.below(len(seq))]

    def shuffle(self, items: list) -> None:
        """Shuffle a list in place (Fisher-Yates)."""
        i = len(items) - 1
        while i > 0:
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
            i -= 1

    @property
    def state(self) -> int:
        """The current internal state, to save and later resume a sequence."""
        return (self._hi << 16) | self._lo

    @classmethod
    def from_state(cls, state: int) -> "Rng":
        """Resume a generator from a saved `state` (never 0)."""
        if state <= 0 or state > _MASK:
            raise ValueError("an Rng state is 1..2**32-1, got %r" % (state,))
        rng = cls(0)  # MicroPython has no cls.__new__ for plain classes
        rng._hi = state >> 16
        rng._lo = state & 0xFFFF
        return rng


def _mod(hi: int, lo: int, n: int) -> int:
    """(hi * 2**16 + lo) % n for hi, lo < 2**16 and n <= 2**29, every step below 2**30."""
    x = hi % n
    if n <= 0x4000:
        return ((x << 16) | lo) % n
    if n <= 0x400000:
        x = ((x << 8) | (lo >> 8)) % n
        return ((x << 8) | (lo & 0xFF)) % n
    bit = 15
    while bit >= 0:
        x = (x << 1) | ((lo >> bit) & 1)
        if x >= n:
            x -= n
        bit -= 1
    return x
