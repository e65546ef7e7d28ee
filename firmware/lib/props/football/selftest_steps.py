"""The football box's self-test steps: the piezo, the LEDs, the 4 buttons.

build(test, settings) makes the box's drivers with its own wiring module (props.football.wiring:
the drivers and pins build() uses) and adds them to the selftest.session.Session `test`,
with the step helpers of selftest.steps. Imported by name (selftest.session) only when
the self-test begins.
"""
from selftest.steps import add_buttons, add_led, add_piezo

# What each sound of the football box's SOUNDS table is, for the person listening.
SOUND_WORDS = {
    "go": "the start of the count: one high beep",
    "beat": "a beat of the count: one short beep",
    "end": "the end of the count: one long low beep",
    "refused": "a refused button: one short low beep",
}


def build(test, settings) -> None:
    import machine

    from props.football.wiring import SCOREBOARD_LEDS, SOUNDS, FootballWiring
    wiring = FootballWiring(machine, settings)
    pins = wiring.pins
    add_piezo(test, pins, "piezo", SOUNDS, SOUND_WORDS)
    if wiring.leds_asked_for():
        for name, what in SCOREBOARD_LEDS:
            add_led(test, pins, name, "the %s LED should blink 3 times" % what)
    add_led(test, pins, "led", "the board's LED should blink 3 times")
    add_buttons(test, pins, [("btn_roll", "ROLL"), ("btn_kick", "KICK"), ("btn_good", "GOOD"),
                             ("btn_miss", "MISS")], wiring.buttons())
