"""The virtual board's `time`: ticks that wrap at 2^30 ms, as on a Pico or an ESP32.

The unix port's ticks_ms() wraps at 2^62, so a timer written with `+`
instead of ticks_add() never fails there. With this folder first on
MICROPYPATH, `import time` (and `from time import ticks_diff`) in the
firmware finds this module instead; everything else comes from the built-in.

    set_ticks_start(ms)     # ticks_ms() reads ms from now on (tests: put the wrap anywhere)
    TICKS_PERIOD            # 2^30: ticks_ms(), ticks_add() and ticks_diff() agree with a board

Stricter than a board in one way: a value outside 0..2^30-1 passed as a
ticks value (made with `+` instead of ticks_add) raises ValueError, where a
board would silently compute with garbage.

`VBOARD_TICKS_START` in the environment sets the start for a whole process
(e.g. `propctl sim --serve`). The virtual board's clock (vboard.Clock) makes
its own ticks values with ticks_add, so they wrap at the same place.
"""
import sys

import utime as _builtin  # the unix port's own module (this file shadows `time`)
from micropython import const


def _asyncio_on_the_ports_ticks() -> None:
    # asyncio's C task queue keys tasks with the port's own (2^62) ticks; it must
    # read the same ticks in Python, so it is imported with the built-in `time`.
    shim = sys.modules.get("time")
    sys.modules["time"] = _builtin
    try:
        import asyncio  # noqa: F401
    except ImportError:
        pass
    finally:
        if shim is not None:
            sys.modules["time"] = shim


_asyncio_on_the_ports_ticks()

TICKS_PERIOD = const(0x40000000)
_MASK = const(0x3FFFFFFF)
_HALF = const(0x20000000)

sleep = _builtin.sleep
sleep_ms = _builtin.sleep_ms
sleep_us = _builtin.sleep_us
time = _builtin.time
localtime = _builtin.localtime
gmtime = getattr(_builtin, "gmtime", _builtin.localtime)
mktime = _builtin.mktime
time_ns = getattr(_builtin, "time_ns", None)
ticks_cpu = getattr(_builtin, "ticks_cpu", _builtin.ticks_us)

# ticks_ms() = real ms since _offset[1] + _offset[0], wrapped at 2^30
_offset = [0, _builtin.ticks_ms()]


def _check(ticks) -> None:
    # A board reads the raw bits of a value that is no small int: garbage, no
    # error. Here it is an error, so a tick value made with `+` cannot hide.
    if not 0 <= ticks <= _MASK:
        raise ValueError("%r is no ticks value (0..2^30-1): add to ticks with ticks_add" % (ticks,))


def ticks_add(ticks: int, delta: int) -> int:
    """ticks + delta on the 2^30 circle; OverflowError for |delta| >= 2^29, as on a board."""
    _check(ticks)
    if not -_HALF <= delta < _HALF:
        raise OverflowError("ticks interval overflow")
    return (ticks + delta) & _MASK


def ticks_diff(end: int, start: int) -> int:
    """Signed distance from start to end on the 2^30 circle (-2^29 .. 2^29-1)."""
    _check(end)
    _check(start)
    return ((end - start + _HALF) & _MASK) - _HALF


def ticks_ms() -> int:
    """Real milliseconds, wrapping at 2^30 like a board's counter."""
    return (_builtin.ticks_diff(_builtin.ticks_ms(), _offset[1]) + _offset[0]) & _MASK


def ticks_us() -> int:
    """Real microseconds, wrapping at 2^30 like a board's counter."""
    return _builtin.ticks_us() & _MASK


def set_ticks_start(ms: int) -> None:
    """From now on ticks_ms() counts up from `ms` (wrapped into 0 .. 2^30-1)."""
    _offset[0] = ms & _MASK
    _offset[1] = _builtin.ticks_ms()


def host_env(name: str):
    """The host's environment variable `name`, or None (also where the port has no os.getenv: wasm32)."""
    import os
    getenv = getattr(os, "getenv", None)
    return getenv(name) if getenv is not None else None


def _start_from_env() -> None:
    raw = host_env("VBOARD_TICKS_START")
    if raw:
        set_ticks_start(int(raw))


_start_from_env()
