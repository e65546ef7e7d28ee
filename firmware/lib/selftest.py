"""The wiring self-test: each output in turn, each input live, driven by `propctl selftest`.

    app = selftest.wrap(app, settings, on_event)   # link.board wraps every prop's app

The wrapper runs the prop as before and adds four link commands:
    selftest_begin()        stop the prop (app.shutdown(), no more prop ticks) and build the
                            test's own drivers on the profile's pins; returns the steps:
                            {"outputs": [[name, prompt, ms], ...], "inputs": [[name, prompt, where], ...]}
    selftest_output(name)   start one output step (event selftest_done {"name"} when it is over)
    selftest_inputs()       {"active": [0/1 per input], "changes": [count per input since the
                            last call]}: inputs are sampled every tick, so a short press is not missed
    selftest_end()          everything off, then the board resets and the prop starts afresh

The steps of each prop are in selftest_steps.py (imported only when the
self-test begins). Outputs go through the same drivers the props use, with
the same settings: the motor keeps its ramp, its brake-then-dwell before a
reversal and its release after a stop (drivers.motor), at the round's slowest
speed (`speed_min` of the clock's motion limits: slower stalls a geared motor)
and never longer than the step (2 s); the solenoid's pulse is capped by
drivers.chime. No step can run on after the link goes quiet: each ends on its
own time.
"""
from time import ticks_add, ticks_diff


class _Step:
    def __init__(self, name: str, prompt: str, ms: int, place: str, start, stop=None) -> None:
        self.name = name
        self.place = place
        self.prompt = prompt
        self.ms = ms
        self.start = start
        self.stop = stop


class SelfTest:
    """Wraps a prop's app (tick, tick_ms, shutdown, commands, wait_ms) and adds the self-test."""

    def __init__(self, app, settings, on_event) -> None:
        self.app = app
        self.tick_ms = app.tick_ms
        self._settings = settings
        self.board = settings["board"]
        self._on_event = on_event
        self.active = False
        self._steps: list = []
        self._inputs: list = []   # [name, prompt, where]
        self._sources: list = []  # (source with read() -> bitmap, first input index, count)
        self._drivers: list = []  # things with update(now)
        self._off: list = []      # things to call at the end: release(), silence(), off()
        self._active_bits = 0
        self._changes: list = []
        self._step = None
        self._until = 0
        self._now = 0
        self._ticked = False
        self._done = {"name": ""}
        if hasattr(app, "wait_ms"):
            self.wait_ms = self._wait_ms
        self.config_errors = getattr(app, "config_errors", [])

    # --- the prop contract -------------------------------------------
    def tick(self, now: int) -> None:
        self._now = now
        self._ticked = True
        if not self.active:
            self.app.tick(now)
            return
        self._sample()
        for driver in self._drivers:
            driver.update(now)
        step = self._step
        if step is not None and ticks_diff(now, self._until) >= 0:
            self._step = None
            if step.stop is not None:
                step.stop()
            self._done["name"] = step.name
            self._on_event("selftest_done", self._done)

    def _wait_ms(self, now: int) -> int:
        return self.tick_ms if self.active else self.app.wait_ms(now)

    def shutdown(self) -> None:
        self._all_off()
        self.app.shutdown()

    def commands(self) -> dict:
        table = dict(self.app.commands())
        table["selftest_begin"] = (self.begin, {})
        table["selftest_output"] = (self.output, {"name": "str"})
        table["selftest_inputs"] = (self.inputs, {})
        table["selftest_end"] = (self.end, {})
        return table

    # --- commands ------------------------------------------------------
    def begin(self) -> dict:
        """Stop the prop and build the test's drivers; the list of steps."""
        if not self._ticked:
            raise ValueError("the board is still starting up: try again in a moment")
        if not self.active:
            self.app.shutdown()
            from selftest_steps import BUILDERS  # compiled only now: no heap for it while the prop runs
            build = BUILDERS.get(self._settings["prop"])
            if build is None:
                raise ValueError("no self-test for the %s prop" % self._settings["prop"])
            build(self, self._settings)
            self._changes = [0] * len(self._inputs)
            self._active_bits = self._read()
            self.active = True
        return {"outputs": [[s.name, s.prompt, s.ms, s.place] for s in self._steps],
                "inputs": [list(i) for i in self._inputs]}

    def output(self, name: str) -> dict:
        """Start one output step."""
        if not self.active:
            raise ValueError("start the self-test first (selftest_begin)")
        if self._step is not None:
            raise ValueError("step %s is still running" % self._step.name)
        for step in self._steps:
            if step.name == name:
                step.start(self._now)
                self._step = step
                self._until = ticks_add(self._now, step.ms)  # type: ignore[type-var]
                return {"ms": step.ms}
        raise ValueError("no output step %r (steps: %s)" % (name, ", ".join(s.name for s in self._steps)))

    def inputs(self) -> dict:
        """Each input's state now (1 = active: pressed, or sensor closed) and its changes since last asked."""
        if not self.active:
            raise ValueError("start the self-test first (selftest_begin)")
        bits = self._active_bits
        changes = list(self._changes)
        for i in range(len(self._changes)):
            self._changes[i] = 0
        return {"active": [(bits >> i) & 1 for i in range(len(changes))], "changes": changes}

    def end(self) -> dict:
        """Everything off; the board resets so the prop starts afresh."""
        self._all_off()
        self._on_event("resetting", {"why": "self-test over"})
        import machine
        machine.reset()
        return {}

    # --- helpers for the builders --------------------------------------
    def add_output(self, name: str, prompt: str, ms: int, place: str, start, stop=None) -> None:
        self._steps.append(_Step(name, prompt, ms, place, start, stop))

    def add_driver(self, driver, off) -> None:
        self._drivers.append(driver)
        self._off.append(off)

    def add_inputs(self, source, entries: list) -> None:
        """A source (read() -> bitmap, bit i active) and its inputs' [name, prompt, where] entries."""
        self._sources.append((source, len(self._inputs), len(entries)))
        self._inputs.extend(entries)

    def _read(self) -> int:
        bits = 0
        for source, first, _ in self._sources:
            bits |= source.read() << first
        return bits

    def _sample(self) -> None:
        bits = self._read()
        changed = bits ^ self._active_bits
        if changed:
            i = 0
            while changed:
                if changed & 1:
                    self._changes[i] += 1
                changed >>= 1
                i += 1
            self._active_bits = bits

    def _all_off(self) -> None:
        self._step = None
        for off in self._off:
            off()


def wrap(app, settings, on_event) -> SelfTest:
    """The prop's app with the self-test commands (see the module docstring)."""
    return SelfTest(app, settings, on_event)
