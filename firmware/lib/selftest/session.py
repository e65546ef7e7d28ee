"""A running wiring self-test (made by selftest.Gate at `selftest_begin`; see selftest.py)."""
from time import ticks_add, ticks_diff


class _Step:
    def __init__(self, name: str, prompt: str, ms: int, place: str, start, stop=None, check=None,
                 pack: bool = False) -> None:
        self.name = name
        self.place = place
        self.prompt = prompt
        self.ms = ms
        self.start = start
        self.stop = stop
        self.check = check  # what else to check when the step is not seen (besides the wires)
        self.pack = pack    # powered from the battery pack (motor, solenoid), not the board


class Session:
    """One self-test: the prop's test drivers, its steps, the inputs' changes (see selftest.py)."""

    def __init__(self, settings, on_event, now: int) -> None:
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
        self._now = now
        self._done = {"name": ""}
        self.battery = None       # a drivers.battery.Battery where the prop's divider is wired
        import props
        prop = settings["prop"]
        if prop not in props.NAMES:
            raise ValueError("no self-test for the %s prop" % prop)
        # the prop's own steps (props/PROP/selftest_steps.py), by name: no other prop's load
        __import__("props.%s.selftest_steps" % prop, None, None, ["build"]).build(self, settings)
        self._changes = [0] * len(self._inputs)
        self._active_bits = self._read()

    def tick(self, now: int) -> None:
        """Sample the inputs, run the drivers, end the step when its time is up."""
        self._now = now
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

    def steps(self) -> dict:
        """The outputs [name, prompt, ms, where] and inputs [name, prompt, where]."""
        return {"outputs": [[s.name, s.prompt, s.ms, s.place] for s in self._steps],
                "inputs": [list(i) for i in self._inputs]}

    def output(self, name: str) -> dict:
        """Start one output step: {"ms": its length, "check": what to check besides the wires
        if it is not seen, "supply_mv": the pack's voltage as it starts (a pack-powered step
        with the divider wired: about 0 means the motor supply is off)}."""
        if self._step is not None:
            raise ValueError("step %s is still running" % self._step.name)
        for step in self._steps:
            if step.name == name:
                reply = {"ms": step.ms}
                if step.check is not None:
                    reply["check"] = step.check
                if step.pack and self.battery is not None:
                    reply["supply_mv"] = self.battery.read_mv()
                step.start(self._now)
                self._step = step
                self._until = ticks_add(self._now, step.ms)  # type: ignore[type-var]
                return reply
        raise ValueError("no output step %r (steps: %s)" % (name, ", ".join(s.name for s in self._steps)))

    def inputs(self) -> dict:
        """Each input's state now (1 = active: pressed, or sensor closed) and its changes since last asked."""
        bits = self._active_bits
        changes = list(self._changes)
        for i in range(len(self._changes)):
            self._changes[i] = 0
        return {"active": [(bits >> i) & 1 for i in range(len(changes))], "changes": changes}

    def end(self) -> dict:
        """Everything off; the board resets so the prop starts afresh."""
        self.all_off()
        self._on_event("resetting", {"why": "self-test over"})
        import machine
        machine.reset()
        return {}

    # --- helpers for the builders --------------------------------------
    def add_output(self, name: str, prompt: str, ms: int, place: str, start, stop=None, check=None,
                   pack: bool = False) -> None:
        self._steps.append(_Step(name, prompt, ms, place, start, stop, check, pack))

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

    def all_off(self) -> None:
        self._step = None
        for off in self._off:
            off()
