"""The ghost clock's settings: config.json's "clock" section (settings.py checks it).

section() gives each key's spec, a literal tuple (kind, default, then the kind's fields:
settings.py names them). The `#:` comment above a key is its one description, for a
person: docs/reference/settings.md is made from these comments (propctl.reference);
comments never reach a board. settings.py imports this module at boot only when the
clock is the prop that runs, and forgets it once the prop is built (link.startup).
"""


def section(watchdog: tuple) -> dict:
    """The clock's specs; `watchdog` is the watchdog spec every prop shares (settings.WATCHDOG)."""
    return {
        #: `dc`: a gear motor on an H-bridge; `stepper`: a 28BYJ-48 on a ULN2003
        "motor": ("choice", "dc", ("dc", "stepper")),
        #: the H-bridge of the DC motor (`dc` only)
        "bridge": ("choice", "drv8833", ("drv8833", "tb6612")),
        #: `piezo`: the bell melody on one PWM; `solenoid`: a solenoid striking a real bell
        "chime": ("choice", "piezo", ("piezo", "solenoid")),
        #: a number: the same round every time; `null`: a fresh round every time
        "seed": ("seed", None, 0, 0xFFFFFFFF),
        #: lowers (never raises) the firmware's 120 s hard cap on a round (0 would mean no cap:
        #: refused)
        "max_run_ms": ("int", 60000, 1000, 120000, None),
        #: the DC motor's rated voltage: full speed (the planner's 1000) puts this on the motor
        #: on average, on a fresh or a flat pack (the duty follows the pack); 3000 for the
        #: recommended 3 V N20
        "motor_rated_mv": ("int", 3000, 1000, 12000, None),
        #: the pack's voltage where it is not measured (`battery_min_mv` 0: no divider): a fresh
        #: 3 x AA's 4.8 V, the highest it gets, so the motor is never over-driven (a flat pack
        #: then turns it slower); with the divider the firmware measures the pack instead
        "supply_mv": ("int", 4800, 1000, 12000, None),
        #: a further cap on the duty, as a share of the pack's voltage, below what
        #: `motor_rated_mv` allows
        "motor_max_permille": ("int", 1000, 100, 1000, None),
        #: the time for a full-scale speed change
        "ramp_ms": ("int", 120, 1, 5000, None),
        #: the braked pause before any reversal; also the longest the motor (the stepper's
        #: coils) stays energised after a stop: bounded, so nothing stands powered long
        "dwell_ms": ("int", 150, 50, 2000, None),
        #: stepper only: half-steps per second at full speed (a 28BYJ-48 on 3 x AA misses
        #: steps near 500)
        "stepper_steps_per_s": ("int", 300, 1, 1000, None),
        #: refuse to start a round below this pack voltage (3 x NiMH: about 3300); set, the
        #: pack is also read every 2 s while the hand turns, for the motor's voltage; 0: no
        #: divider wired (no check, `supply_mv` used)
        "battery_min_mv": ("int", 0, 1000, 12000, 0),
        #: battery volts per ADC-pin volt x 1000 (2000 for 100k/100k; 100k over 47k is 3128);
        #: 0: the divider the board's wiring table wires (boardprofiles LIMITS: 3128 on an
        #: ESP32 DevKitC, else 2000)
        "battery_divider_permille": ("int", 0, 1000, 20000, 0, "the board's divider"),
        #: button debounce (a press is longer, a bounce shorter: ~10 ms; a debounce near a
        #: press's length would swallow presses)
        "debounce_ms": ("int", 20, 1, 50, None),
        #: holding the button this long while the hand turns is the emergency stop
        "long_press_ms": ("int", 1500, 300, 10000, None),
        #: watchdog timeout (the board profile may lower it); 0: no watchdog
        "watchdog_ms": watchdog,
        #: overrides for `rules.geisteruhr.DEFAULT_LIMITS` (round length, speeds, pauses),
        #: checked by the rules core
        "limits": ("object", {}),
    }
