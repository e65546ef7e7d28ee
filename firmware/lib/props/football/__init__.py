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
# The box's parts and its logic live in props.football.parts and props.football.app;
# their names stay importable from here (the prop contract is this module).
from props.football.app import FootballApp
from props.football.parts import (  # noqa: F401
    BEAT_MS,
    BEAT_TONE,
    BUTTON_NAMES,
    COUNTING,
    DEFAULTS,
    END_TONE,
    FAULT,
    GO_TONE,
    GOOD,
    IDLE,
    KICK,
    MISS,
    REFUSED_TONE,
    ROLL,
    SAVE_VERSION,
    STATE_FILE,
    box_settings,
)


def build(settings, on_event=None, store=None, **app_options) -> FootballApp:
    """A FootballApp with drivers on the pins of settings["board"]'s football profile (the prop contract).

    store: a store.Store for the game (None: nothing saved). A missing OLED (no
    answer on I2C) falls back to the LEDs, with a config error.
    """
    import boards
    import machine as m
    from drivers.chime import PiezoChime
    from drivers.display import SSD1306
    from drivers.indicator import Indicator
    from drivers.switches import PinSource, Switches

    from props.football.scoreboard import LedDisplay, OledDisplay
    cfg, _ = box_settings(settings)
    pins = boards.profile(settings["board"], "football")
    errors: list = []

    def out(name):
        pin = pins.get(name)
        return None if pin is None else m.Pin(pin, m.Pin.OUT, value=0)

    buttons = [m.Pin(pins["btn_" + name], m.Pin.IN, m.Pin.PULL_UP) for name in BUTTON_NAMES]
    switches = Switches(PinSource(buttons, active_low=True), len(buttons),
                        debounce_ms=cfg["debounce_ms"], long_press_ms=cfg["long_press_ms"])
    chime = PiezoChime(m.PWM(m.Pin(pins["piezo"], m.Pin.OUT, value=0), freq=1000, duty_u16=0))
    display: object = None
    if cfg["display"] == "oled":
        try:
            i2c = m.I2C(0, scl=m.Pin(pins["oled_scl"]), sda=m.Pin(pins["oled_sda"]), freq=400000)
            display = OledDisplay(SSD1306(i2c, 128, cfg["oled_height"], cfg["oled_address"]))
        except (OSError, ValueError) as exc:
            errors.append("football.display: no OLED (%s); using the LEDs" % (exc,))
    elif cfg["display"] != "leds":
        errors.append("football.display: %r is not oled or leds; using the LEDs" % (cfg["display"],))
    if display is None:
        display = LedDisplay(out("led_home"), out("led_away"), out("led_kick"),
                             [out("led_down%d" % i) for i in (1, 2, 3, 4)])
    indicator = Indicator(out("led")) if pins.get("led") is not None else None
    if "clock" not in app_options:
        from time import ticks_ms
        app_options["clock"] = ticks_ms
    app = FootballApp(switches, chime, display, settings, on_event, store=store, indicator=indicator,
                      **app_options)
    app.config_errors = errors + app.config_errors
    return app
