"""The ghost clock in Wokwi diagrams (propctl.wokwi): every pin signal as the part that stands for it."""
from propctl.wokwi_parts import GND, V33, button, dc_motor, led, part, piezo, sig

PARTS = (
    button("button", "START", "s", "green")
    + dc_motor("motor_in1", "motor_in2")
    + led("motor_pwm", 220, "blue", "TB6612 PWMA")
    + led("motor_stby", 220, "white", "nSLEEP / STBY")
    + led("stepper_in1", 220, "red", "ULN2003 IN1")
    + led("stepper_in2", 220, "red", "ULN2003 IN2")
    + led("stepper_in3", 220, "red", "ULN2003 IN3")
    + led("stepper_in4", 220, "red", "ULN2003 IN4")
    + piezo("piezo")
    + led("solenoid", 220, "yellow", "solenoid MOSFET gate")
    + [part("battery_adc", "wokwi-potentiometer", {"value": "700"},
             {"SIG": sig("battery_adc"), "GND": GND, "VCC": V33}),
       part("label_battery_adc", "wokwi-text", {"text": "battery divider"}, {})]
    + led("led", 330, "red", "LED")
)
