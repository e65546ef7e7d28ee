"""Board profiles: the ONE place where pin numbers live.

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
        "clock":  pins of the ghost clock (GPIO numbers, see hardware/clock/README.md),
        "football": pins of the Finger Football box (see hardware/football/README.md),
        "fusebox": pins of the fuse box (see hardware/fusebox/README.md),
    }

Every pin entry of a prop section is an int GPIO number, a str pin name
the port knows (the Pico W's "LED" on its wireless chip), or None when the
board has nothing wired for it. Pin names are the signal names used in the
wiring tables under hardware/<prop>/, and a test compares the two.

Each base board's profile is made by a function (BASES), on demand: a board
makes only its own, while its prop is built (profile(), limits()), and keeps
none of the others on its heap; all_profiles() makes them all, for the
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
        "clock": {
            "button": 14,          # start button to GND, internal pull-up
            "motor_in1": 16,       # DRV8833 AIN1 / TB6612 AIN1
            "motor_in2": 17,       # DRV8833 AIN2 / TB6612 AIN2
            "motor_pwm": 18,       # TB6612 PWMA (unused with DRV8833)
            "motor_stby": 19,      # TB6612 STBY / DRV8833 nSLEEP
            "stepper_in1": 2,      # ULN2003 IN1..IN4 (28BYJ-48 option)
            "stepper_in2": 3,
            "stepper_in3": 4,
            "stepper_in4": 5,
            "piezo": 15,           # piezo disc via 100 ohm
            "solenoid": 20,        # logic-level MOSFET gate (solenoid bell option)
            "battery_adc": 26,     # ADC0, 100k/100k divider from the pack (after the main switch)
            "led": 25,             # on-board LED of a Pico (not W)
        },
        "football": {
            "btn_roll": 10,        # push buttons to GND, internal pull-ups
            "btn_kick": 11,
            "btn_good": 12,
            "btn_miss": 13,
            "piezo": 15,           # piezo disc via 100 ohm
            "oled_sda": 4,         # I2C0 SDA, SSD1306 OLED (display "oled")
            "oled_scl": 5,         # I2C0 SCL
            "led_home": 16,        # LED fallback (display "leds"): possession
            "led_away": 17,
            "led_kick": 18,        # lit during the field-goal count
            "led_down1": 19,       # downs as a bar of four
            "led_down2": 20,
            "led_down3": 21,
            "led_down4": 22,
            "led": 25,             # on-board LED of a Pico (not W)
        },
        "fusebox": {
            "window1": 2,          # window sensors 1..8 (top first) to GND, internal pull-ups
            "window2": 3,
            "window3": 6,
            "window4": 7,
            "window5": 8,
            "window6": 9,
            "window7": 26,
            "window8": 27,
            "btn_next": 10,        # next card, to GND
            "btn_prev": 11,        # previous card, to GND
            "btn_bolt": 12,        # manual mode: the bolt is in the window just opened
            "led_red": 13,         # red LED via 220 ohm: blown fuse, open windows, faults
            "led_green": 14,       # yellow-green LED via 220 ohm: safe window, card accepted
            "piezo": 15,           # piezo buzzer via 100 ohm
            "relay": 22,           # relay driver: 1k to a 2N2222's base, 3 V coil (bell or lamp), active high
            "i2c_sda": 4,          # I2C0 to the MCP23017 option
            "i2c_scl": 5,
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
        "clock": {
            "button": 25,
            "motor_in1": 26,
            "motor_in2": 27,
            "motor_pwm": 14,
            "motor_stby": 13,
            "stepper_in1": 16,
            "stepper_in2": 17,
            "stepper_in3": 18,
            "stepper_in4": 19,
            "piezo": 23,
            "solenoid": 22,
            "battery_adc": 34,     # ADC1 (input only); ADC2 pins clash with Wi-Fi
            "led": 2,              # LED + 330 ohm to GND: the DevKitC has no LED here
        },
        "football": {
            "btn_roll": 32,        # GPIO 34-39 have no pull-ups: not used for buttons
            "btn_kick": 33,
            "btn_good": 25,
            "btn_miss": 26,
            "piezo": 23,
            "oled_sda": 21,
            "oled_scl": 22,
            "led_home": 16,
            "led_away": 17,
            "led_kick": 18,
            "led_down1": 19,
            "led_down2": 13,
            "led_down3": 14,
            "led_down4": 27,
            "led": 2,
        },
        "fusebox": {
            "window1": 4,          # window sensors 1..8 to GND, internal pull-ups
            "window2": 13,
            "window3": 14,
            "window4": 16,
            "window5": 17,
            "window6": 18,
            "window7": 19,
            "window8": 23,
            "btn_next": 34,        # 34/35/39 are input-only without pull-ups: 10k to 3V3 each
            "btn_prev": 35,
            "btn_bolt": 39,
            "led_red": 26,
            "led_green": 27,
            "piezo": 25,
            "relay": 32,
            "i2c_sda": 21,         # I2C0 default pins, to the MCP23017 option
            "i2c_scl": 22,
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
        "clock": {
            "button": 4,           # every S3 GPIO has a pull-up: no input-only pins
            "motor_in1": 5,
            "motor_in2": 6,
            "motor_pwm": 7,
            "motor_stby": 15,
            "stepper_in1": 11,
            "stepper_in2": 12,
            "stepper_in3": 13,
            "stepper_in4": 14,
            "piezo": 16,
            "solenoid": 17,
            "battery_adc": 1,      # ADC1_CH0; ADC2 (GPIO 11-20) clashes with Wi-Fi
            "led": 21,             # LED + 330 ohm to GND: the board's RGB LED needs a NeoPixel driver
        },
        "football": {
            "btn_roll": 4,
            "btn_kick": 5,
            "btn_good": 6,
            "btn_miss": 7,
            "piezo": 15,
            "oled_sda": 8,         # MicroPython's default I2C0 pins on the S3
            "oled_scl": 9,
            "led_home": 16,
            "led_away": 17,
            "led_kick": 18,
            "led_down1": 11,
            "led_down2": 12,
            "led_down3": 13,
            "led_down4": 14,
            "led": 21,
        },
        "fusebox": {
            "window1": 4,          # window sensors 1..8 to GND, internal pull-ups
            "window2": 5,
            "window3": 6,
            "window4": 7,
            "window5": 15,
            "window6": 16,
            "window7": 17,
            "window8": 18,
            "btn_next": 10,
            "btn_prev": 11,
            "btn_bolt": 12,
            "led_red": 13,
            "led_green": 14,
            "piezo": 1,
            "relay": 2,
            "i2c_sda": 8,          # I2C0 default pins, to the MCP23017 option
            "i2c_scl": 9,
        },
    }


# The base boards, each a function that makes its profile: code, not data, so a frozen image
# keeps it in flash and a .mpy keeps compact bytecode; a board makes dicts of its own profile
# only, only while its prop is built (link.startup then forgets this module: docs/heap.md).
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


def board_profile(board: str) -> dict:
    """The whole profile of `board` (see the module docstring), made afresh on each call;
    ValueError naming the choices if there is no such board."""
    built = BASES[_base(board)]()
    if board in VARIANTS:
        _, built["name"], pins, _ = VARIANTS[board]
        for key in built:
            if key not in ("name", "header"):
                built[key].update({signal: pins[signal] for signal in pins if signal in built[key]})
    built["limits"] = limits(board)
    return built


def all_profiles() -> dict:
    """Every board's profile by name (for the desktop's docs and checks; a board needs one)."""
    return {board: board_profile(board) for board in NAMES}


def profile(board: str, prop: str) -> dict:
    """The pin section `prop` of board `board`; ValueError naming the choices if unknown."""
    section = board_profile(board).get(prop)
    if section is None:
        raise ValueError("board %r has no pins for the %s prop" % (board, prop))
    return section


def header_pin(board: str, pin) -> str:
    """Where GPIO `pin` of `board` is on its header ("19", "J1-9"), or "-" if it is not on it."""
    where = board_profile(board)["header"].get(pin) if type(pin) is int else None
    return "-" if where is None else str(where)


def limits(board: str) -> dict:
    """The board-level limits of `board` (LIMITS, with a variant's changes); no profile is made."""
    found = LIMITS[_base(board)]
    changes = VARIANTS[board][3] if board in VARIANTS else {}
    if changes:
        found = dict(found)
        found.update(changes)
    return found
