"""Hardware drivers shared by every prop.

Each driver takes already-built machine objects (Pin, PWM, ADC, I2C) and is
driven by `update(now_ms)` calls with an injected time, so tests and the
virtual board run them in virtual time. Nothing here touches hardware at
import time, and no update() allocates memory.

    switches   debounced inputs with press/release/long-press events
    motor      HBridgeMotor (DRV8833, TB6612FNG) and StepperMotor (28BYJ-48 + ULN2003)
    chime      PiezoChime (melody on one PWM) and SolenoidChime (capped strike pulses)
    battery    battery voltage from an ADC through a divider
    indicator  LED blink patterns
    display    SSD1306 OLED (text lines in a framebuf)
    eventqueue   the ring buffer of input events (switches, sensorwatch)
    entropy      a fresh seed from the board's hardware random generator
    sensorwatch  faulty on/off sensors (flicker, stuck open), wrapped around a switch source
"""
