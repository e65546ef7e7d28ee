"""The wiring self-test: each output in turn, each input live, driven by `propctl selftest`.

    app = selftest.wrap(app, settings, on_event)   # link.startup wraps every prop's app

The wrapper runs the prop as before and adds four link commands:
    selftest_begin()        stop the prop (app.shutdown(), no more prop ticks) and build the
                            test's own drivers on the profile's pins; returns the steps:
                            {"outputs": [[name, prompt, ms], ...], "inputs": [[name, prompt, where], ...]}
    selftest_output(name)   start one output step (event selftest_done {"name"} when it is over)
    selftest_inputs()       {"active": [0/1 per input], "changes": [count per input since the
                            last call]}: inputs are sampled every tick, so a short press is not missed
    selftest_end()          everything off, then the board resets and the prop starts afresh

The running test is selftest/session.py and the steps of each prop are in its
folder (props/PROP/selftest_steps.py, with the helpers of selftest/steps.py), all imported
only when the self-test begins, and of the props only the one that runs. Outputs go
through the same drivers the props use, with the same settings: the motor
keeps its ramp, its brake-then-dwell before a reversal and its release after
a stop (drivers.motor), at props.clock.selftest_steps.MOTOR_PERMILLE or the round's
slowest speed (`speed_min`), whichever is faster (slower may only hum a
geared motor) and never longer than the step (2 s); the piezo plays each of
the prop's sounds (its SOUNDS table), one step each; the solenoid's pulse is
capped by drivers.chime. No step can
run on after the link goes quiet: each ends on its own time.
"""

TYPE_CHECKING = False
if TYPE_CHECKING:  # mypy only: the prop contract (props/contract.pyi), never run on a board
    from props.contract import PropApp


class Gate:
    """A prop's app (props/contract.pyi: PropApp) with the self-test's commands: a Linked itself."""

    def __init__(self, app: "PropApp", settings, on_event) -> None:
        self.app = app
        self.tick_ms = app.tick_ms
        self._settings = settings
        self._on_event = on_event
        self.session: object = None  # a selftest.session.Session while the self-test runs
        self._now = 0
        self._ticked = False
        self.config_errors = app.config_errors

    def tick(self, now: int) -> None:
        self._now = now
        self._ticked = True
        if self.session is None:
            self.app.tick(now)
        else:
            self.session.tick(now)  # type: ignore[attr-defined]

    def wait_ms(self, now: int) -> int:
        return self.app.wait_ms(now) if self.session is None else self.tick_ms

    def flash_ok(self, now: int) -> bool:
        """The prop's flash_ok; never while the self-test drives outputs."""
        if self.session is not None:
            return False
        return self.app.flash_ok(now)

    def shutdown(self) -> None:
        if self.session is not None:
            self.session.all_off()  # type: ignore[attr-defined]
        self.app.shutdown()

    def fault(self, exc) -> None:
        """runtime.Runtime's fault contract: the prop reports it (the outputs are already off)."""
        self.app.fault(exc)

    def commands(self) -> dict:
        table = dict(self.app.commands())
        table["selftest_begin"] = (self._begin, {})
        table["selftest_output"] = (lambda name: self._running().output(name), {"name": "str"})
        table["selftest_inputs"] = (lambda: self._running().inputs(), {})
        table["selftest_end"] = (lambda: self._running().end(), {})
        return table

    def _begin(self) -> dict:
        """Stop the prop, build the test's drivers; the list of steps."""
        if not self._ticked:
            raise ValueError("the board is still starting up: try again in a moment")
        if self.session is None:
            self.app.shutdown()
            from selftest.session import Session  # compiled only now: no heap for it while the prop runs
            self.session = Session(self._settings, self._on_event, self._now)
        return self._running().steps()  # type: ignore[attr-defined]

    def _running(self):
        if self.session is None:
            raise ValueError("start the self-test first (selftest_begin)")
        return self.session


def wrap(app: "PropApp", settings, on_event) -> Gate:
    """The prop's app with the self-test commands (see the module docstring)."""
    return Gate(app, settings, on_event)
