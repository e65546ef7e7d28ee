"""Every number option of `propctl` has a range, checked by argparse: a value outside it, or no
number at all, is a command-line error (exit 2) before anything runs.

    parser.add_argument("--frame-ms", type=Whole(1, 1000), default=100, ...)

`Whole`, `Seconds` and `Size` carry their range (lo, hi), so tests can try the values at and
beside every option's ends; tests/cli/test_option_fuzz.py also holds every option to one of them.
"""
import argparse
import math

SEED_MAX = 0xFFFFFFFF  # a seed the props draw (the firmware's settings: 0..4294967295)
_SHOWN = 30            # a typed value in a message is cut to this many characters


def _shown(text: str) -> str:
    from propctl.termsafe import printable
    text = printable(text, newlines=False)
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "..."


class Whole:
    """A whole number lo..hi; `what` ends the out-of-range message (", the seeds the clock draws")."""

    def __init__(self, lo: int, hi: int, what: str = "") -> None:
        self.lo, self.hi, self.what = lo, hi, what
        self.__name__ = "whole number"  # argparse names a type by it

    def __call__(self, text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError("'%s' is not a whole number" % _shown(text)) from None
        if not self.lo <= value <= self.hi:
            raise argparse.ArgumentTypeError("%s is outside %d..%d%s"
                                             % (_shown(text), self.lo, self.hi, self.what))
        return value

    def __repr__(self) -> str:
        return "Whole(%d, %d)" % (self.lo, self.hi)


class Seconds:
    """A time in seconds, lo..hi (a decimal number; not NaN or infinite)."""

    def __init__(self, lo: float, hi: float) -> None:
        self.lo, self.hi = lo, hi
        self.__name__ = "number of seconds"

    def __call__(self, text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError("'%s' is not a number of seconds" % _shown(text)) from None
        if not (math.isfinite(value) and self.lo <= value <= self.hi):
            raise argparse.ArgumentTypeError("%s is outside %g..%g seconds"
                                             % (_shown(text), self.lo, self.hi))
        return value

    def __repr__(self) -> str:
        return "Seconds(%g, %g)" % (self.lo, self.hi)


class Size:
    """A memory size in bytes, lo..hi, written as bytes or with K or M (256K, 2M); the value is
    returned as written (normalised, e.g. "256K"), as MicroPython's -X heapsize= takes it."""

    UNITS = {"": 1, "K": 1024, "M": 1024 * 1024}

    def __init__(self, lo: int, hi: int) -> None:
        self.lo, self.hi = lo, hi
        self.__name__ = "size"

    def __call__(self, text: str) -> str:
        digits = text.strip().upper()
        unit = digits[-1:] if digits[-1:] in ("K", "M") else ""
        number = digits[:len(digits) - len(unit)]
        if not (number.isascii() and number.isdigit()):
            raise argparse.ArgumentTypeError("'%s' is not a size (bytes, or with K or M: 256K, 2M)"
                                             % _shown(text))
        if not self.lo <= int(number) * self.UNITS[unit] <= self.hi:
            raise argparse.ArgumentTypeError("%s is outside %s..%s" % (_shown(text), self.written(self.lo),
                                                                       self.written(self.hi)))
        return str(int(number)) + unit

    @staticmethod
    def written(size: int) -> str:
        """A size as people write it: 64K, 16M."""
        for unit in ("M", "K"):
            if size % Size.UNITS[unit] == 0:
                return "%d%s" % (size // Size.UNITS[unit], unit)
        return str(size)

    def bytes(self, text: str) -> int:
        """The number of bytes of a value __call__ returned."""
        unit = text[-1:] if text[-1:] in ("K", "M") else ""
        return int(text[:len(text) - len(unit)]) * self.UNITS[unit]

    def __repr__(self) -> str:
        return "Size(%s, %s)" % (self.written(self.lo), self.written(self.hi))


SEED = Whole(0, SEED_MAX, ", the seeds the props draw")


class TopicLevel:
    """One MQTT topic level as the firmware takes net.id and net.prefix: 1..32 of
    A-Z a-z 0-9 - _ (no / that would make two levels, no + or # wildcards)."""

    MAX = 32
    ALLOWED = "A-Z a-z 0-9 - _"

    def __init__(self) -> None:
        self.__name__ = "topic level"

    def problem(self, text: str):
        """Why `text` is no topic level, or None."""
        if not 1 <= len(text) <= self.MAX or not all(
                ch.isascii() and (ch.isalnum() or ch in "-_") for ch in text):
            return "'%s' is not 1 to %d of %s" % (_shown(text), self.MAX, self.ALLOWED)
        return None

    def __call__(self, text: str) -> str:
        problem = self.problem(text)
        if problem:
            raise argparse.ArgumentTypeError(problem)
        return text

    def __repr__(self) -> str:
        return "TopicLevel()"


TOPIC_LEVEL = TopicLevel()
