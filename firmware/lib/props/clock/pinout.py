"""The ghost clock's pin roles on each base board: its section of the board profile.

One function per base board of boardprofiles.BASES (pico, esp32, esp32s3), named as the board:
code, not data, so a frozen image keeps it in flash and a board makes only its own
board's dict, only while the prop is built (boardprofiles.profile; link.startup then
forgets this module: docs/heap.md). Each entry is a signal name of the wiring table
(hardware/clock/README.md, a test compares the two) and an int GPIO, a pin name the port
knows, or None. A board variant (boardprofiles.VARIANTS) changes some of them.
"""


def pico() -> dict:
    return {
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
    }


def esp32() -> dict:
    return {
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
    }


def esp32s3() -> dict:
    return {
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
    }
