"""The Finger Football box: dice, play counter, scoreboard and the 3-second field-goal count.

FootballApp wraps the referee engine (rules.fingerfootball.FingerFootball)
with buttons, a piezo and a scoreboard display. Like the clock it is a
tickable state machine, `tick(now_ms)` with an injected time, so tests play
whole games in virtual time:

    app = build(settings, on_event)     # drivers on the pins of the board profile
    Runtime(app).run()                  # what main.py does (runtime.py), with the link

Buttons (index: name): 0 roll (coin at the toss, dice before a play),
1 kick ("ready": announces the field goal or extra-point kick if needed and
starts the count), 2 good (made, touchdown, kick good, onside or two-point
good), 3 miss (missed, no good). Holding roll after the final whistle
starts a new game. Everything else a play needs (yards,
announced targets, penalties) comes over the link with `report`.

The field-goal count: "go" beep at once, beeps at 1,000 and 2,000 ms
("one thousand one, one thousand two"), the final tone at 3,000 ms ("one
thousand three"), timed from the "go" on the injected clock. A "good" report
counts only if it comes before the final tone; after it (or with no report
at all) the kick is no good.

Events to `on_event(name, fields)`: button, toss, roll, play (the referee's
sentence after every action), kick_count (step go/beep/end), kick_result,
score, quarter, possession, refused, fault. kick_count's fields dict is
allocated once and reused (the count runs with no allocation); copy it to
keep it.
"""
# The prop contract is this module: STATE_FILE and build(). Nothing heavy is imported at the
# top, so a module of the package (props.football.constants, .wiring) can be imported on its own;
# the box's logic is props.football.app, its constants .constants, its wiring .wiring.
STATE_FILE = "football_state.json"  # the game, saved on the board's flash

TYPE_CHECKING = False
if TYPE_CHECKING:  # mypy only: build() is checked against the prop contract (props/contract.pyi)
    from props.contract import PropApp


def build(settings, on_event=None, store=None, **app_options) -> "PropApp":
    """A FootballApp with drivers on the pins of settings["board"]'s football profile (the prop contract).

    store: a store.Store for the game (None: nothing saved). A missing OLED (no
    answer on I2C) falls back to the LEDs, with a config error.
    """
    import machine
    from drivers.switches import Switches

    from props.football.app import FootballApp
    from props.football.constants import BUTTON_NAMES
    from props.football.wiring import FootballWiring
    wiring = FootballWiring(machine, settings)
    cfg = wiring.cfg
    errors: list = []
    switches = Switches(wiring.buttons(), len(BUTTON_NAMES), debounce_ms=cfg["debounce_ms"],
                        long_press_ms=cfg["long_press_ms"])
    chime = wiring.pins.piezo()
    display = wiring.display(errors)
    indicator = wiring.pins.led("led")
    if "clock" not in app_options:
        from time import ticks_ms
        app_options["clock"] = ticks_ms
    app = FootballApp(switches, chime, display, settings, on_event, store=store, indicator=indicator,
                      **app_options)
    app.config_errors = errors + app.config_errors
    return app
