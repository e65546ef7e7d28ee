"""A one-task asyncio for scripts run by tools/wasm/run.mjs: run() and sleep_ms()/sleep().

The WebAssembly port's own asyncio (its PyScript build) runs on the JavaScript
event loop and has no asyncio.run(); a script run by run.mjs owns the thread
and blocks, so this loop steps the one coroutine and sleeps (time.sleep_ms)
whenever it awaits a sleep. That is all the firmware's pump uses; the unix port
and the boards run the real asyncio.
"""
import time


def sleep_ms(ms):
    yield ms


def sleep(seconds):
    yield int(seconds * 1000)


def run(coro):
    """Run `coro` to its end; return its value."""
    while True:
        try:
            ms = coro.send(None)
        except StopIteration as done:
            return done.value
        if type(ms) is not int:
            raise NotImplementedError("this asyncio awaits only sleep() and sleep_ms(), not %r" % (ms,))
        if ms > 0:
            time.sleep_ms(ms)
