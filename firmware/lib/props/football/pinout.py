"""The football box's pin roles on each base board: its section of the board profile.

One function per base board of boardprofiles.BASES (pico, esp32, esp32s3), named as the board:
code, not data, so a frozen image keeps it in flash and a board makes only its own
board's dict, only while the prop is built (boardprofiles.profile; link.startup then
forgets this module: docs/heap.md). Each entry is a signal name of the wiring table
(hardware/football/README.md, a test compares the two) and an int GPIO, a pin name the port
knows, or None. A board variant (boardprofiles.VARIANTS) changes some of them.
"""


def pico() -> dict:
    return {
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
    }


def esp32() -> dict:
    return {
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
    }


def esp32s3() -> dict:
    return {
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
    }
