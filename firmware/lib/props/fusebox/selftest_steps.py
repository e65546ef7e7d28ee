"""The fuse box's self-test steps: the LEDs, the buzzer, the relay, the 8 windows and 3 buttons.

build(test, settings) makes the box's drivers with its own wiring module (props.fusebox.wiring:
the drivers and pins build() uses) and adds them to the selftest.session.Session `test`,
with the step helpers of selftest.steps. Imported by name (selftest.session) only when
the self-test begins.
"""
from micropython import const
from selftest.steps import add_buttons, add_led, add_piezo, where

RELAY_MS = const(1000)
# What each sound of the fuse box's SOUNDS table is, for the person listening.
SOUND_WORDS = {
    "blown": "the blown fuse: a falling buzz",
    "click": "the safe window: one short tick",
    "wrong": "the refused card: a low double beep",
}


def build(test, settings) -> None:
    import machine

    from props.fusebox.wiring import SOUNDS, FuseBoxWiring
    wiring = FuseBoxWiring(machine, settings)
    pins = wiring.pins
    add_led(test, pins, "led_red", "the red LED should blink 3 times")
    add_led(test, pins, "led_green", "the green LED should blink 3 times")
    add_piezo(test, pins, "buzzer", SOUNDS, SOUND_WORDS)
    relay = wiring.relay()
    if relay is not None:
        test.add_driver(relay, relay.off)
        test.add_output("relay", "the relay should click on and, 1 s later, off", RELAY_MS + 200,
                        where(pins.board, pins.names["relay"]), lambda now: relay.start(now, (RELAY_MS,)),
                        relay.off)
    test.add_inputs(wiring.windows(), [
        ["window%d" % (i + 1), "open window %d, then close it" % (i + 1), wiring.window_place(i, where)]
        for i in range(8)])
    add_buttons(test, pins, [("btn_next", "NEXT"), ("btn_prev", "PREV"), ("btn_bolt", "BOLT")],
                wiring.buttons())
