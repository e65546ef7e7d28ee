"""The Finger Football box in Wokwi diagrams (propctl.wokwi): every pin signal as the part
that stands for it."""
from propctl.wokwi_parts import GND, V33, button, led, part, piezo, sig

PARTS = (
    button("btn_roll", "ROLL", "r", "red")
    + button("btn_kick", "KICK", "k", "yellow")
    + button("btn_good", "GOOD", "g", "green")
    + button("btn_miss", "MISS", "m", "black")
    + piezo("piezo")
    + [part("oled", "board-ssd1306", {"i2c-address": "0x3c"},
             {"SDA": sig("oled_sda"), "SCL": sig("oled_scl"), "VCC": V33, "GND": GND})]
    + led("led_home", 220, "red", "home")
    + led("led_away", 220, "yellow", "away")
    + led("led_kick", 220, "orange", "kick count")
    + led("led_down1", 220, "limegreen", "down 1")
    + led("led_down2", 220, "limegreen", "down 2")
    + led("led_down3", 220, "limegreen", "down 3")
    + led("led_down4", 220, "limegreen", "down 4")
    + led("led", 330, "red", "LED")
)
