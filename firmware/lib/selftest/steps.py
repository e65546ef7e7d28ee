"""The self-test's step helpers, which each prop's own steps use (see selftest.py).

A prop's steps are in its folder, props/PROP/selftest_steps.py: build(test, settings) makes
the prop's drivers with the prop's own wiring module (props.PROP.wiring: the drivers, pins
and guards the prop's build() uses) and adds them to the selftest.session.Session `test`
with these helpers. selftest.session imports that module by name, through the registry
(props.NAMES), only when the self-test begins: no other prop's steps are loaded.
"""
BLINKS = (300, 300, 300, 300, 300, 300)  # three blinks


def where(board: str, gpio) -> str:
    """A pin as the builder finds it: "GP9 (pin 12)", "GPIO 17 (pin J3-11)", "LED (on the board)"."""
    import boardprofiles
    if type(gpio) is not int:
        return "%s (on the board)" % gpio
    name = ("GP%d" if board.startswith("pico") else "GPIO %d") % gpio
    header = boardprofiles.header_pin(board, gpio)
    return name + (" (on the board)" if header == "-" else " (pin %s)" % header)


def add_led(test, pins, signal: str, prompt: str) -> None:
    """A step that blinks the LED `signal` 3 times (none if the board has no such LED)."""
    led = pins.led(signal)
    if led is None:
        return
    test.add_driver(led, led.off)
    test.add_output(signal, prompt, 2000, where(test.board, pins.names[signal]),
                    lambda now: led.start(now, BLINKS), led.off)


def _length(melody) -> int:
    ms = 0
    i = 1
    while i < len(melody):
        ms += melody[i]
        i += 2
    return ms


def add_piezo(test, pins, part: str, sounds, words: dict) -> None:
    """One step per sound of the prop (its SOUNDS table), each played on the piezo; words:
    what each sound is, for the person listening (the prop's SOUND_WORDS)."""
    chime = pins.piezo()
    test.add_driver(chime, chime.silence)
    place = where(test.board, pins.names["piezo"])
    for name, melody in sounds:
        test.add_output("piezo_" + name, "the %s should play %s" % (part, words[name]),
                        _length(melody) + 300, place, _play(chime, melody), chime.silence)


def _play(chime, melody):
    return lambda now: chime.start(now, melody)


def add_buttons(test, pins, labels, source=None) -> None:
    """Buttons [(pin name, label on the box)], read through `source` (default: their own pins)."""
    names = [name for name, _ in labels]
    test.add_inputs(source or pins.buttons(names), [
        [n, "press the %s button" % label, where(pins.board, pins.names[n])] for n, label in labels])
