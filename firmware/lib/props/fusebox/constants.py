"""What the fuse box is made of: modes, box states, buttons, sounds, light patterns, the event sink.

Shared by the card slot (props.fusebox.cards), the control logic
(props.fusebox.app) and the build (props.fusebox).
"""
from micropython import const

PACK = "pack"
MANUAL = "manual"
IDLE = "idle"
ROUND = "round"
BLOWN = "blown"

BUTTON_NEXT = const(0)
BUTTON_PREV = const(1)
BUTTON_BOLT = const(2)
ALL_WINDOWS = const(0xFF)

# A blown fuse: a harsh falling buzz (G7 F7 G7 F7 D7 C7). A safe window: a short tick. Every
# tone in a piezo's loud band (drivers.chime.PIEZO_LOW_HZ..PIEZO_HIGH_HZ).
BLOWN_SOUND = (3136, 120, 2794, 120, 3136, 120, 2794, 120, 2349, 120, 2093, 700)
CLICK = (3500, 8)
WRONG = (2093, 120, 0, 80, 2093, 120)   # a card cannot be accepted yet
# The fuse box's sounds (the self-test plays each): (name, melody).
SOUNDS = (("blown", BLOWN_SOUND), ("click", CLICK), ("wrong", WRONG))
SAFE_FLASH = (600,)                   # green on for 600 ms
ACCEPT_BLINK = (120, 100, 120)        # green: card accepted


def blinks(n: int) -> tuple:
    """Red LED pattern for "window n+1 is open": n+1 short blinks, then a pause."""
    pattern = []
    for _ in range(n + 1):
        pattern += [180, 180]
    pattern[-1] = 800
    return tuple(pattern)


def print_event(name: str, fields: dict) -> None:
    """The default event sink: one line on the console."""
    print("fusebox:", name, fields)
