"""Seeded xorshift32 generator shared by the boards and the desktop.

MicroPython's `random` differs by port and has no `Random` class or `shuffle`,
so every random decision that must be reproducible comes from here. All
arithmetic is masked to 32 bits, so CPython and MicroPython give the same
sequence for the same seed.
"""

_MASK = 0xFFFFFFFF
# Any odd constant works; this one only keeps seed 0 (an all-zero state, which
# xorshift can never leave) away from the fixed point.
_SEED_SALT = 0x6D2B79F5


class Rng:
    """A small deterministic PRNG with integer helpers."""

    def __init__(self, seed: int = 0) -> None:
        state = (seed ^ _SEED_SALT) & _MASK
        if state == 0:
            state = _SEED_SALT
        self._state = state
        # Spread nearby seeds apart before the first draw.
        for _ in range(4):
            self.next32()

    def next32(self) -> int:
        """Return the next raw 32-bit value (0 .. 2**32-1)."""
        x = self._state
        x ^= (x << 13) & _MASK
        x ^= x >> 17
        x ^= (x << 5) & _MASK
        self._state = x
        return x

    def below(self, n: int) -> int:
        """Uniform integer in 0..n-1 (rejection sampling, no modulo bias)."""
        if n <= 0 or n > 0x100000000:
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
        return self._state

    @classmethod
    def from_state(cls, state: int) -> "Rng":
        """Resume a generator from a saved `state` (never 0)."""
        if state <= 0 or state > _MASK:
            raise ValueError("an Rng state is 1..2**32-1, got %r" % (state,))
        rng = cls(0)  # MicroPython has no cls.__new__ for plain classes
        rng._state = state
        return rng
