"""When to try again: doubling waits with jitter, so twenty props that lost one broker
do not all knock again on the same millisecond.

    backoff = Backoff(Rng(seed))
    delay = backoff.next(now)      # 1 s, 2 s, 4 s, then 7 s each time, each +-25 %
    backoff.retry_at               # ticks_ms value of the next try
    backoff.reset()                # after a success

The cap (MAX_MS) decides how soon a prop is back after a long outage: a broker that
returns just after a try began is tried again at most 1.25 x MAX_MS = 8.75 s later
(net.venue counts the wait after a failed try from the try's start, so a silent host's
5 s TCP timeout is inside it), so every prop is back within 10 s of its broker, however
long it was away (a Raspberry Pi's reboot, a minute's power cut). The jitter spreads
those tries over 5.25-8.75 s: fifty props arrive over several seconds, not in one
burst. A try at a dead broker costs a TCP connect that is refused or times out, about
once every 7 s.

next(now, at_least): a wait of at least `at_least` ms whatever the jitter (after a
refused login, after another board's claim), spread above it by up to a quarter.
"""
from time import ticks_add

from micropython import const

FIRST_MS = const(1000)
MAX_MS = const(7000)


class Backoff:
    def __init__(self, rng, first_ms: int = FIRST_MS, max_ms: int = MAX_MS) -> None:
        self._rng = rng
        self._first = first_ms
        self._max = max_ms
        self._base = first_ms
        self.retry_at = 0
        self.tries = 0

    def reset(self) -> None:
        self._base = self._first
        self.tries = 0

    def next(self, now: int, at_least: int = 0) -> int:
        """The wait before the next try (and retry_at); the one after it doubles."""
        base = self._base if self._base > at_least else at_least
        delay = base * 3 // 4 + self._rng.below(base // 2 + 1)
        if delay < at_least:  # the jitter spreads above the least wait, never below it
            delay = at_least + self._rng.below(at_least // 4 + 1)
        self._base = base * 2 if base * 2 < self._max else self._max
        self.tries += 1
        self.retry_at = ticks_add(now, delay)  # type: ignore[type-var]
        return delay
