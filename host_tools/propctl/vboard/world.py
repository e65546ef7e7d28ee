"""The physical side of a served virtual board: switches a person works, what they would see.

Only for `propctl sim --serve`: when the flash folder holds `vboard_world.json`,
vboard.current() attaches a World to the board. It is the prop's hardware
as built, wires and all, so a wiring fault can be put in on purpose:

    vboard_world.json   {"wires": {"window3": "window4", "window4": "window3", "window5": null,
                                   "motor_in1": "motor_in2", "motor_in2": "motor_in1"},
                         "battery_mv": 0}
        each part (named by its profile signal) is wired to the pin of the signal
        given (null: to nothing, a dead sensor or a broken wire); parts not listed
        are wired as the profile says. Here: windows 3 and 4 swapped at the board,
        window 5's sensor dead, the motor's leads reversed. "battery_mv": the pack's
        voltage (0: switched off while USB feeds the board): the motor turns with it
        (vboard.physics) and the solenoid strikes only with a pack (above 1 V).
    vboard_hands.json   written by whoever plays the person: {"seq": N, "acted": ["window3"]}
        the parts acted on now: a button held down, a window slid open (every
        other window is closed: its reed is held shut by the magnet).
    vboard_seen.json    written by the World every POLL_MS: what a person would see,
        {"t": ms, "seq": the hands' seq applied, "on": {part: 1/0},
         "edges": {part: times switched on so far}, and for the clock "hand_mdeg" (hand
         angle, clockwise +) and "motor" (energised, forbidden, quick_reversals, reversals,
         and for a DC motor hum_ms: ms it was driven without turning, physics.HBridgeHand)}

The World reads and writes these files when the firmware reads an input
(machine.Pin.value), at most every POLL_MS; inputs follow the wiring, the
hand follows the motor outputs through vboard.physics. Not for the heap-locked
tests: a served board only.
"""
import json
import os
import time

CONFIG = "vboard_world.json"
HANDS = "vboard_hands.json"
SEEN = "vboard_seen.json"
POLL_MS = 20
PACK_OFF_MV = 1000  # below this the pack is off: what it powers does nothing

# Inputs and how they read: a button reads active (low) while pressed; a window's reed
# reads active while the window is closed (its magnet over the reed), so opening it
# lets the pull-up win.
_INPUT_PREFIXES = ("button", "btn_", "window")


def attach(board):
    """A World for `board` if the flash folder asks for one (vboard_world.json), else None."""
    try:
        with open(CONFIG) as f:
            config = json.load(f)
    except OSError:
        return None
    return World(board, config)


class World:
    def __init__(self, board, config: dict) -> None:
        import boardprofiles
        import settings as settings_module
        try:
            with open("config.json") as f:
                overrides = json.load(f)
        except (OSError, ValueError):
            overrides = {}
        cfg, _ = settings_module.merge(overrides)
        self.board = board
        self.prop = cfg["prop"]
        pins = boardprofiles.profile(cfg["board"], self.prop)
        wires = config.get("wires", {})
        # where each part's wire ends: the pin of the signal it is wired to (None: nowhere)
        self.pin_of = {}
        for part in pins:
            if pins[part] is None:
                continue
            to = wires[part] if part in wires else part
            self.pin_of[part] = pins[to] if to is not None else None
        self.inputs = [p for p in self.pin_of if p.startswith(_INPUT_PREFIXES)]
        self.acted = []
        self.seq = -1
        self.on = {}
        self.edges = {}
        self._watched = {}
        for part in self.pin_of:
            if part in self.inputs or self.pin_of[part] is None:
                continue
            self.on[part] = 0
            self.edges[part] = 0
            for suffix in ("", ".duty"):
                self._watched[board.signal(str(self.pin_of[part]) + suffix)] = part
        board.clock.run_real(1)
        own = _prop_part(self.prop)  # vprops/<prop>/world.py: the prop's own hardware, if any
        if own is not None:
            own.wire(board, cfg)
        if config.get("battery_mv") is not None:
            board.set_battery_mv(config["battery_mv"])
        self.hand = own.hand(board, cfg, self.pin_of) if own is not None else None
        board.watch(self._changed)
        self._next = time.ticks_ms()
        self._apply()

    def _changed(self, sig: int, value: int, t: int) -> None:
        part = self._watched.get(sig)
        if part is None:
            return
        lit = 1 if value > 0 else 0
        if part == "solenoid" and self.board.battery_mv < PACK_OFF_MV:
            lit = 0  # the solenoid runs from the pack: no pack, no strike
        if lit and not self.on[part]:
            self.edges[part] += 1
        self.on[part] = lit

    def _apply(self) -> None:
        """Set every input pin from the parts wired to it."""
        levels = {}
        for part in self.inputs:
            pin = self.pin_of[part]
            if pin is None:
                continue
            acted = part in self.acted
            active = (not acted) if part.startswith("window") else acted
            if active:
                levels[pin] = 0
            elif pin not in levels:
                levels[pin] = None
        for pin in levels:
            if levels[pin] is None:
                self.board.clear_input(pin)
            else:
                self.board.set_input(pin, levels[pin])

    def poll(self) -> None:
        """Read the person's hands, write what can be seen (at most every POLL_MS)."""
        now = time.ticks_ms()
        if time.ticks_diff(now, self._next) < 0:
            return
        self._next = time.ticks_add(now, POLL_MS)
        try:
            with open(HANDS) as f:
                hands = json.load(f)
            if hands.get("seq") != self.seq:
                self.seq = hands.get("seq")
                self.acted = hands.get("acted", [])
                self._apply()
        except (OSError, ValueError):
            pass
        seen = {"t": self.board.clock.elapsed, "seq": self.seq, "on": self.on, "edges": self.edges}
        hand = self.hand
        if hand is not None:
            seen["hand_mdeg"] = hand.angle_mdeg()
            # the motor's safety rules as the bridge saw them (vboard.physics)
            seen["motor"] = {"energised": hand.energised, "forbidden": hand.forbidden,
                             "quick_reversals": hand.quick_reversals, "reversals": hand.reversals}
            if hasattr(hand, "hum_ms"):
                seen["motor"]["hum_ms"] = hand.hum_ms
        with open(SEEN + ".tmp", "w") as f:
            f.write(json.dumps(seen))
        os.rename(SEEN + ".tmp", SEEN)


def _prop_part(prop: str):
    """The prop's part of the world (vprops/<prop>/world.py: wire(board, cfg) and
    hand(board, cfg, pin_of)), or None for a prop with no hardware of its own modelled here."""
    name = "vprops.%s.world" % prop
    try:
        return __import__(name, None, None, ("wire",), 0)
    except ImportError as exc:
        if name not in str(exc):  # the part is there but something it imports is not: say so
            raise
        return None
