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

STATE_FILE = "fusebox_state.json"
BUTTON_NEXT = const(0)
BUTTON_PREV = const(1)
BUTTON_BOLT = const(2)
ALL_WINDOWS = const(0xFF)

# A blown fuse: a harsh falling buzz. A safe window: a short tick.
BLOWN_SOUND = (196, 120, 175, 120, 196, 120, 175, 120, 147, 120, 131, 700)
CLICK = (3500, 8)
WRONG = (330, 120, 0, 80, 330, 120)   # a card cannot be accepted yet
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
