"""The loop every prop runs in: on the board, on the virtual board (real or virtual time), in the bench.

    rt = Runtime(app, port=port, wdt=watchdog(settings, "clock"), guard=guard)
    rt.run()                       # forever (or until until() is true); app.shutdown() on any exit

One pass (`step()`): tick the app at the clock's time, feed the watchdog,
tell the boot guard once the prop has run STABLE_MS, then wait until the
app's next deadline: `app.wait_ms(now)` (the clock's planned stop or next
segment, so a stop lands on the millisecond it was planned for; a prop whose
deadlines all fall on ticks says its `tick_ms`), at most `tick_ms`. While waiting the link's port is
pumped (`port.pump(timeout_ms)`), so a request is answered at once; without a
port the runtime sleeps.

The virtual board runs the same passes in virtual time (vboard.Board.runtime
and Board.run): its sleep moves the board's clock on, so a test or `propctl
sim` in log mode ticks the prop exactly as a board would, only faster.

Flash writes stall the chip (a 4 KB sector: typically 45 ms, at worst
FLASH_STALL_MS, interrupts off). So the runtime writes the flash itself, and
only when the app allows it: the boot guard's counter once the prop runs
stably, and whatever its stores (store.Store with later=True) wait to write.
After a tick and the watchdog's feed it runs one flash operation per pass,
only while `app.flash_ok(now)` is true (no deadline within FLASH_STALL_MS,
no time-limited output on: motor, bell, relay, count; no input being
debounced), so the app ticks and scans between two writes. The watchdog's
timeout never goes below WDT_MIN_MS, which covers the worst stall.

The one fault contract, for every prop: when `app.tick` raises, the runtime
makes the outputs safe at once (`app.shutdown()`: motor released, sound and
lights off, relay open), then lets the app say so (`app.fault(exc)`: its state
and the "fault" event; a failure there is swallowed, the
outputs are already safe) and re-raises. A prop's tick has no try block of
its own; link.startup reports the exception and resets the board.

A pass allocates nothing (tested with micropython.heap_lock over whole passes,
link idle and link busy): what is measured by bench/mp_timing.py is what runs
on the board.
"""
import time
from time import ticks_diff

from micropython import const
from safemode import STABLE_MS

TYPE_CHECKING = False
if TYPE_CHECKING:  # mypy only: the prop contract (props/contract.pyi), never run on a board
    from props.contract import Runnable

FLASH_STALL_MS = const(400)   # the longest a flash write may stall the chip (W25Q16 sector erase)
WDT_MIN_MS = const(500)       # a watchdog must outlast one stall and the pass around it


def watchdog(settings, name: str, machine_module=None):
    """A machine.WDT for prop `name`'s `watchdog_ms` setting, clamped to what the board allows.

    None when the setting is 0 (no watchdog).
    """
    watchdog_ms = settings.get(name, {}).get("watchdog_ms", 0)
    if not watchdog_ms:
        return None
    import boardprofiles
    if machine_module is None:
        import machine as machine_module
    longest = boardprofiles.limits(settings["board"])["wdt_max_ms"]
    timeout = watchdog_ms if watchdog_ms < longest else longest
    return machine_module.WDT(timeout=timeout if timeout > WDT_MIN_MS else WDT_MIN_MS)


class Runtime:
    """Ticks one app against a clock until told to stop (see the module docstring).

    clock(): ticks_ms-style time (default time.ticks_ms); port: anything with
    pump(timeout_ms), or None to sleep; sleep_ms: how to sleep without a port
    (default time.sleep_ms); speed: a virtual clock running `speed` times
    faster than real time sleeps 1/speed as long; wdt: something with feed();
    guard: a safemode.BootGuard (stable_steps()); stores: store.Store objects
    with later=True, whose waiting writes the runtime makes (module docstring);
    min_wait_ms: the shortest wait, 1 on a virtual clock, which moves only
    while the runtime sleeps (a wait of 0 would tick the app at the same
    millisecond forever); a board's clock moves on by itself, so 0 there.
    """

    def __init__(self, app: "Runnable", clock=None, port=None, sleep_ms=None, wdt=None, guard=None,
                 stable_ms: int = STABLE_MS, speed: int = 1, min_wait_ms: int = 0,
                 stores=()) -> None:
        self.app = app
        self._clock = clock if clock is not None else time.ticks_ms  # type: ignore[attr-defined]
        self._port = port
        self._sleep = sleep_ms if sleep_ms is not None else time.sleep_ms  # type: ignore[attr-defined]
        self._wdt = wdt
        self._guard = guard
        self._stable_ms = stable_ms
        self.speed = speed if speed > 1 else 1  # a virtual clock's speed; a runner may change it
        self._min_wait = min_wait_ms
        self._stores = tuple(stores)
        self._writing = None      # the flash write under way: a generator, one operation a step
        self._guard_due = False   # the prop ran stably: the boot guard's write waits its moment
        self._started = 0
        self._passes = 0
        self.stable = False

    def wait_ms(self, now: int) -> int:
        """How long to wait after a tick: until the app's next deadline, at most its tick_ms."""
        app = self.app
        tick = app.tick_ms
        wait = app.wait_ms(now)
        if wait < 0:
            return 0
        return wait if wait < tick else tick

    def step(self) -> None:
        """One pass: tick, watchdog, boot guard, then wait for the next deadline."""
        now: int = self._clock()  # type: ignore[assignment]
        if self._passes == 0:
            self._started = now
            self._passes = 1
        try:
            self.app.tick(now)
        except Exception as exc:
            self.fault(exc)
            raise
        if self._wdt is not None:
            self._wdt.feed()
        if not self.stable and ticks_diff(now, self._started) >= self._stable_ms:
            self.stable = True
            self._guard_due = self._guard is not None
        if self._writing is not None or self._guard_due or self._waiting():
            self._flash(now)
        wait = self.wait_ms(self._clock()) // self.speed  # type: ignore[arg-type]
        if wait < self._min_wait:
            wait = self._min_wait
        if self._port is not None:
            self._port.pump(wait)
        elif wait > 0:
            self._sleep(wait)

    def _waiting(self) -> bool:
        for store in self._stores:
            if store.waiting is not None:
                return True
        return False

    def _flash(self, now: int) -> None:
        """One flash operation, if the app can take the stall now (see the module docstring)."""
        if not self.app.flash_ok(now):
            return
        job = self._writing
        if job is None:
            if self._guard_due:
                self._guard_due = False
                job = self._guard.stable_steps()  # type: ignore[union-attr]
            else:
                for store in self._stores:
                    if store.waiting is not None:
                        job = store.steps()
                        break
            self._writing = job
        try:
            next(job)  # type: ignore[arg-type]
        except StopIteration:
            self._writing = None

    def fault(self, exc) -> None:
        """The fault contract (module docstring): outputs safe first, then the app's report."""
        app = self.app
        app.shutdown()
        try:
            app.fault(exc)
        except Exception:  # the event sink itself may be what failed; the outputs are off
            pass

    def run(self, until=None) -> None:
        """Pass after pass until until() is true (forever when None); app.shutdown() however it ends."""
        try:
            while until is None or not until():
                self.step()
        finally:
            self.app.shutdown()
