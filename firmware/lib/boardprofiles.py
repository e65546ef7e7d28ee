"""Board profiles: each board's name, header and limits, and where each prop's pins are found.

Structure (plain dicts, importable on a board and on the desktop):

    board_profile(board) == {
        "name":   human name of the board,
        "header": {GPIO: where the builder finds it on the board's header}
                  (Pico: the physical pin 1-40; ESP32 DevKitC and ESP32-S3-DevKitC-1:
                  "J1-9" = header J1, pin 9, whose silkscreen label is the GPIO number),
        "limits": board-level facts and caps shared by every prop:
                  adc_full_mv     millivolts at ADC.read_u16() == 65535
                  adc_read_uv     True where the port's ADC.read_uv() is calibrated
                                  (then adc_full_mv is only the fallback)
                  pwm_motor_hz    PWM frequency for motor drivers (inaudible)
                  max_run_ms      no motor on this board runs longer than this per round
                  wdt_max_ms      the longest watchdog timeout the chip accepts
                  no_pull         GPIOs without internal pull resistors (input-only):
                                  an input there gets no pull requested (an external
                                  pull-up is wired, see the wiring tables)
                  battery_divider_permille  the clock's battery divider as its wiring table
                                  wires it on this board (battery V per ADC-pin V x 1000):
                                  the setting's default (clock.battery_divider_permille 0)
        PROP:     for each prop of the registry (props.ALL), its pins on this board, from
                  the prop's own folder: props/PROP/pinout.py, one function per base board
                  (see hardware/PROP/README.md),
    }

Every pin entry of a prop section is an int GPIO number, a str pin name
the port knows (the Pico W's "LED" on its wireless chip), or None when the
board has nothing wired for it. Pin names are the signal names used in the
wiring tables under hardware/<prop>/, and a test compares the two.

Each base board's profile is made by a function (BASES), on demand, and a prop's
pins by its pinout module's function of that board: a board makes only its own
board's pins of the prop it runs, while the prop is built (profile(), limits()),
and keeps none of the others on its heap; all_profiles() makes them all, for the
desktop's docs and checks. VARIANTS lists boards that are another board with
a few pins or limits changed (the Pico W, Pico 2 and Pico 2 W are wired like
the Pico); their profiles are made from the base board's. The limits alone
are a table (LIMITS), looked up without making a profile: settings, the
watchdog and every prop's pins read them at boot. NAMES: every board.
"""


def _pico() -> dict:
    return {
        "name": "Raspberry Pi Pico (RP2040)",
        # GPx -> physical pin (1-40, pin 1 next to the USB socket)
        "header": {
            0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16, 13: 17,
            14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29, 26: 31, 27: 32, 28: 34,
        },
    }


def _esp32() -> dict:
    return {
        "name": "ESP32 DevKitC (ESP32-WROOM-32)",
        # GPIO -> header pin (DevKitC V4, Espressif's user guide, headers J1 and J3)
        "header": {
            36: "J1-3", 39: "J1-4", 34: "J1-5", 35: "J1-6", 32: "J1-7", 33: "J1-8", 25: "J1-9",
            26: "J1-10", 27: "J1-11", 14: "J1-12", 12: "J1-13", 13: "J1-15",
            23: "J3-2", 22: "J3-3", 1: "J3-4", 3: "J3-5", 21: "J3-6", 19: "J3-8", 18: "J3-9", 5: "J3-10",
            17: "J3-11", 16: "J3-12", 4: "J3-13", 0: "J3-14", 2: "J3-15", 15: "J3-16",
        },
    }


def _esp32s3() -> dict:
    return {
        "name": "ESP32-S3-DevKitC-1 (ESP32-S3-WROOM-1)",
        # GPIO -> header pin (v1.0 and v1.1, Espressif's user guide, J1 and J3; J3-2/J3-3 are
        # labelled TX/RX). Being on the header does not make a pin safe: see the boards notes
        # in hardware/README.md for the pins the profile leaves alone.
        "header": {
            4: "J1-4", 5: "J1-5", 6: "J1-6", 7: "J1-7", 15: "J1-8", 16: "J1-9", 17: "J1-10", 18: "J1-11",
            8: "J1-12", 3: "J1-13", 46: "J1-14", 9: "J1-15", 10: "J1-16", 11: "J1-17", 12: "J1-18",
            13: "J1-19", 14: "J1-20",
            43: "J3-2", 44: "J3-3", 1: "J3-4", 2: "J3-5", 42: "J3-6", 41: "J3-7", 40: "J3-8", 39: "J3-9",
            38: "J3-10", 37: "J3-11", 36: "J3-12", 35: "J3-13", 0: "J3-14", 45: "J3-15", 48: "J3-16",
            47: "J3-17", 21: "J3-18", 20: "J3-19", 19: "J3-20",
        },
    }


# The base boards, each a function that makes its profile: code, not data, so a frozen image
# keeps it in flash and a .mpy keeps compact bytecode; a board makes dicts of its own profile
# only, only while its prop is built (link.startup then forgets this module: docs/heap.md).
# A prop's pins are functions of the same names in props/PROP/pinout.py.
BASES: dict = {"pico": _pico, "esp32": _esp32, "esp32s3": _esp32s3}

# Each board's "limits" (see the module docstring).
LIMITS: dict = {
    "pico": {
        "adc_full_mv": 3300,
        "adc_read_uv": False,  # the rp2 ADC has read_u16 only; its reference is the 3V3 rail
        "pwm_motor_hz": 20000,
        "max_run_ms": 120000,
        "wdt_max_ms": 8000,
        "no_pull": (),
        "battery_divider_permille": 2000,  # 100k/100k
    },
    "esp32": {
        "adc_full_mv": 3100,   # with ADC.ATTN_11DB, roughly linear up to ~2.5 V
        "adc_read_uv": True,   # read_uv() applies the chip's eFuse calibration
        "pwm_motor_hz": 20000,
        "max_run_ms": 120000,
        "wdt_max_ms": 8000,
        # GPIO 34-39 are input-only and have no pull-up or pull-down (ESP32 datasheet, "GPIO &
        # RTC GPIO"; ESP-IDF warns on the UART for each one a pull is asked for)
        "no_pull": (34, 35, 36, 37, 38, 39),
        # 100k over 47k (147/47): a fresh pack's 4.8 V puts 1.53 V on GPIO 34, inside the
        # 150-2450 mV ESP-IDF calls accurate at 11 dB (hardware/clock/README.md)
        "battery_divider_permille": 3128,
    },
    "esp32s3": {
        "adc_full_mv": 3100,   # with ADC.ATTN_11DB (the S3's 12 dB range), up to ~3.1 V
        "adc_read_uv": True,   # read_uv() applies the chip's eFuse calibration
        "pwm_motor_hz": 20000,
        "max_run_ms": 120000,
        "wdt_max_ms": 8000,
        "no_pull": (),         # every S3 GPIO has its pull-up
        "battery_divider_permille": 2000,  # 100k/100k: the S3's ADC is accurate to ~3.1 V
    },
}

# board: (base board, name, {pin changes in every prop}, {limit changes})
VARIANTS: dict = {
    "pico_w": ("pico", "Raspberry Pi Pico W (RP2040)",
               {"led": "LED"},   # the LED hangs on the wireless chip; GP25 selects that chip
               {}),
    "pico2": ("pico", "Raspberry Pi Pico 2 (RP2350)", {}, {}),
    "pico2_w": ("pico", "Raspberry Pi Pico 2 W (RP2350)",
                {"led": "LED"},  # as on the Pico W: GP25 selects the wireless chip
                {}),
}
NAMES = tuple(sorted(list(BASES) + list(VARIANTS)))  # every board a config may name


def _base(board: str) -> str:
    """The base board `board` is made from (itself, or a variant's); ValueError if unknown."""
    if board in BASES:
        return board
    if board not in VARIANTS:
        raise ValueError("unknown board %r (known: %s)" % (board, ", ".join(NAMES)))
    return VARIANTS[board][0]


def prop_pins(board: str, prop: str) -> dict:
    """The pins of `prop` on `board`, made afresh from the prop's folder (props/PROP/pinout.py)
    with a variant's changes; ValueError naming the choices if there is no such board or prop."""
    from props import ALL
    base = _base(board)
    if prop not in ALL:
        raise ValueError("board %r has no pins for the %s prop" % (board, prop))
    pins = getattr(__import__("props.%s.pinout" % prop, None, None, [base]), base)()
    if board in VARIANTS:
        changes = VARIANTS[board][2]
        for signal in changes:
            if signal in pins:
                pins[signal] = changes[signal]
    return pins


def board_profile(board: str) -> dict:
    """The whole profile of `board` (see the module docstring), every prop's pins included,
    made afresh on each call; ValueError naming the choices if there is no such board."""
    from props import ALL
    built = BASES[_base(board)]()
    if board in VARIANTS:
        built["name"] = VARIANTS[board][1]
    for prop in ALL:
        built[prop] = prop_pins(board, prop)
    built["limits"] = limits(board)
    return built


def all_profiles() -> dict:
    """Every board's profile by name (for the desktop's docs and checks; a board needs one)."""
    return {board: board_profile(board) for board in NAMES}


def profile(board: str, prop: str) -> dict:
    """The pin section `prop` of board `board`; ValueError naming the choices if unknown."""
    return prop_pins(board, prop)


def header_pin(board: str, pin) -> str:
    """Where GPIO `pin` of `board` is on its header ("19", "J1-9"), or "-" if it is not on it."""
    where = BASES[_base(board)]()["header"].get(pin) if type(pin) is int else None
    return "-" if where is None else str(where)


def limits(board: str) -> dict:
    """The board-level limits of `board` (LIMITS, with a variant's changes); no profile is made."""
    found = LIMITS[_base(board)]
    changes = VARIANTS[board][3] if board in VARIANTS else {}
    if changes:
        found = dict(found)
        found.update(changes)
    return found
