"""runtime.Runtime driving the clock on the virtual board (MicroPython, through vboard_process)."""
from runtime import Runtime
from vprops.clock.bench import ClockBench


def deadline_rounds(seed, rounds):
    """Play `rounds` rounds in virtual time, the runtime's waits moving the board's clock.

    Per round: how late the stop came against the plan (the runtime wakes the
    clock at its deadline, so 0), and the longest wait between two passes.
    """
    bench = ClockBench({"clock": {"seed": seed}})
    app = bench.app
    board = bench.board
    seen = {"late": [], "max_wait": 0, "passes": 0}

    def sleep(ms):
        if ms > seen["max_wait"]:
            seen["max_wait"] = ms
        board.clock.advance(ms)

    def on_event(name, fields):
        if name == "stop":
            seen["late"].append(fields["at_ms"] - fields["planned_ms"])
        elif name == "idle" and app.completed < rounds:
            app.start_round()

    app.on_event = on_event
    rt = Runtime(app, clock=board.clock.now, sleep_ms=sleep)

    def until():
        seen["passes"] += 1
        if seen["passes"] == 3:
            app.start_round()
        return app.completed >= rounds

    rt.run(until)
    seen["elapsed"] = board.clock.elapsed
    return seen


class _FakeApp:
    """What runtime.Runtime runs (props/contract.pyi: Runnable), recording its ticks."""

    def __init__(self, tick_ms, deadline, fail_at):
        self.tick_ms = tick_ms
        self.ticks = []
        self.shut = False
        self.fail_at = fail_at
        self.deadline = deadline  # None: every deadline on a tick
        self.faults = []

    def wait_ms(self, now):
        return self.tick_ms if self.deadline is None else self.deadline - now

    def flash_ok(self, now):
        return True

    def fault(self, exc):
        self.faults.append(repr(exc))

    def tick(self, now):
        self.ticks.append(now)
        if self.fail_at is not None and now >= self.fail_at:
            raise RuntimeError("broken")

    def shutdown(self):
        self.shut = True


def fake_run(tick_ms, deadline, passes, fail_at=None, stable_ms=1000, min_wait_ms=0):
    """Run a recording app in fake time: ticks, waits, watchdog feeds, guard calls, shutdown."""
    app = _FakeApp(tick_ms, deadline, fail_at)
    seen = {"now": 0, "waits": [], "fed": 0, "guard": 0, "error": None}

    def sleep(ms):
        seen["waits"].append(ms)
        seen["now"] += ms

    class Wdt:
        def feed(self):
            seen["fed"] += 1

    class Guard:
        def stable_steps(self):  # safemode.BootGuard's write, one flash operation a step
            seen["guard"] += 1
            yield

    rt = Runtime(app, clock=lambda: seen["now"], sleep_ms=sleep, wdt=Wdt(), guard=Guard(),
                 stable_ms=stable_ms, min_wait_ms=min_wait_ms)
    try:
        rt.run(lambda: len(app.ticks) >= passes)
    except RuntimeError as exc:
        seen["error"] = str(exc)
    seen["ticks"] = app.ticks
    seen["shut"] = app.shut
    seen["stable"] = rt.stable
    return seen


def watchdog_timeout(settings, name):
    """The timeout runtime.watchdog asks the board for (None: no watchdog)."""
    from runtime import watchdog

    class Machine:
        class WDT:
            def __init__(self, timeout):
                self.timeout = timeout

    wdt = watchdog(settings, name, Machine)
    return None if wdt is None else wdt.timeout


# --- virtual time on the virtual board: vboard.Board.runtime and Board.run ----------

def on_the_board(tick_ms, deadline, runs, calls=()):
    """A recording app in the board's runtime, run in virtual time in chunks of `runs` ms;
    calls: board times at which a call_at request notes the board's time and the ticks so far.

    deadline: wait_ms(now) says deadline - now (None: no wait_ms). Stops after 1000 passes
    whatever happens, so a run whose time stood still ends too.
    """
    import vboard
    board = vboard.new_board(0, 100)
    app = _FakeApp(tick_ms, deadline, None)
    rt = board.runtime(app)
    seen = {"passes": 0, "calls": [], "ends": []}

    def each():
        seen["passes"] += 1

    def until():
        return seen["passes"] >= 1000

    def note(at):
        def call():
            seen["calls"].append([at, board.clock.elapsed, len(app.ticks)])
        return call

    for at in calls:
        board.call_at(at, note(at))
    for ms in runs:
        seen["ends"].append(board.run(rt, ms, until, each))
    seen["ticks"] = app.ticks
    seen["shut"] = app.shut
    return seen
