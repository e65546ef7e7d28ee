"""The ghost clock: idle -> button -> hand runs the planned round -> stop -> chime -> idle.

ClockApp (props.clock.app) is a tickable state machine: `tick(now_ms)` with an injected time
does all the work (switch scan, plan, motor, chime). The board runs it in
runtime.Runtime, which wakes it at `wait_ms(now)` (the planned stop to the
millisecond); the tests run a whole round through the same Runtime in
virtual time (vboard.Board.run):

    app = build(settings, on_event)       # drivers from machine pins of the board profile
    Runtime(app, wdt=...).run()           # motor released on any exit

Methods the link's commands use: `start_round(seed=None)`, `emergency_stop()`,
`snapshot()`; `commands()` is the link's table (props.clock.commands: these plus
the saved game). Events go to `on_event(name, fields)`: button, start, reverse,
stop, chime, estop, fault, battery_low, idle. The fields dict of each event
name is allocated once and reused (a tick must not allocate): copy it to keep it.

Safety: the motor is braked when the round ends and released after the
dwell, released at once on any exception (which is re-raised) and on
shutdown; a round never runs longer than HARD_MAX_RUN_MS, whatever the plan,
settings or board say; a watchdog resets a hung board (the bridge inputs
are pulled low on reset, so the motor coasts). A long press while the hand
turns is an emergency stop; short presses while it turns are ignored.
"""
# The prop contract is this module: STATE_FILE and build(). It imports nothing at the top,
# so a module of the package (props.clock.commands, .wiring) can be imported on its own; the
# clock's logic is props.clock.app, its wiring props.clock.wiring.
STATE_FILE = "clock_state.json"  # the game (props.clock.commands), saved on the board's flash
TYPE_CHECKING = False
if TYPE_CHECKING:  # mypy only: build() is checked against the prop contract (props/contract.pyi)
    from props.contract import PropApp


def build(settings, on_event=None, store=None, **app_options) -> "PropApp":
    """A ClockApp with drivers on the pins of settings["board"]'s clock profile (the prop contract).

    store: a store.Store for the game (None: nothing saved). Extra keyword
    options go to ClockApp (planner, entropy, ...). The drivers come from
    props.clock.wiring, as the self-test's do.
    """
    import machine
    from drivers.switches import Switches

    from props.clock.app import ClockApp
    from props.clock.wiring import ClockWiring
    cfg = settings["clock"]
    wiring = ClockWiring(machine, settings)
    pins = wiring.pins
    switches = Switches(pins.buttons(("button",)), 1, debounce_ms=cfg["debounce_ms"],
                        long_press_ms=cfg["long_press_ms"])
    app = ClockApp(wiring.motor(), switches, wiring.chime(), settings, on_event, battery=wiring.battery(),
                   indicator=pins.led("led"), max_run_ms=pins.limits["max_run_ms"], store=store,
                   **app_options)
    app.config_errors.extend(wiring.notes)
    return app
