"""Which board profile a running MicroPython is, from its machine string.

MicroPython names its board in `sys.implementation._machine` (the same text
as `os.uname().machine`): "<board name> with <chip>", e.g.
"Raspberry Pi Pico W with RP2040", "Raspberry Pi Pico2 with RP2350",
"Generic ESP32 module with ESP32". `propctl deploy` compares it with the
profile it was asked for, so a Pico W never gets the Pico's LED pin.
"""

# (words the board name must contain, chip, profile); first match wins.
KNOWN = (
    ("Pico 2 W", "RP2350", None),   # LED on the wireless chip, like the Pico W: no profile yet
    ("Pico2 W", "RP2350", None),
    ("Pico 2", "RP2350", "pico2"),
    ("Pico2", "RP2350", "pico2"),
    ("Pico W", "RP2040", "pico_w"),
    ("Pico", "RP2040", "pico"),
)


def chip(machine: str) -> str:
    """The chip after " with ", or ""."""
    _, found, name = machine.rpartition(" with ")
    return name.strip() if found else ""


def detect(machine: str):
    """(profile or None, what it is): the profile a machine string belongs to."""
    part = chip(machine)
    for words, wanted_chip, profile in KNOWN:
        if part == wanted_chip and words in machine:
            return profile, machine
    if part == "ESP32":
        return "esp32", machine
    return None, machine


def mismatch(board: str, machine: str):
    """None if `board` suits the running MicroPython or it cannot tell (a virtual board, a
    clone board), else what is wrong and which profile to choose."""
    profile, _ = detect(machine)
    part = chip(machine)
    if profile == board:
        return None
    if profile is not None:
        return ("the board says it is a %r, which is the %s profile, not %s: deploy with --board %s"
                % (machine, profile, board, profile))
    if any(words in machine and part == wanted for words, wanted, p in KNOWN if p is None):
        return ("the board says it is a %r: there is no profile for it yet (its LED is on the "
                "wireless chip, unlike the %s's)" % (machine, board))
    if part.startswith("ESP32"):
        if board != "esp32":
            return "the board says it is a %r, not a %s: deploy with --board esp32" % (machine, board)
        return ("the board says it is a %r: the esp32 profile is for the ESP32 (ESP32-WROOM-32 "
                "DevKitC); its pins do not fit the %s" % (machine, part))
    if part in ("RP2040", "RP2350") and board == "esp32":
        return "the board says it is a %r, not an ESP32: deploy with --board pico" % machine
    return None
