"""`propctl wokwi`: Wokwi simulator diagrams generated from the firmware's board profiles.

Wokwi (wokwi.com, a browser simulator for the Pico and ESP32 boards) describes a
circuit in a `diagram.json`: parts (`{"id", "type", "left", "top", "attrs"}`)
and connections (`["part:PIN", "part:PIN", colour, []]`). This module writes
one per prop and board, hardware/<prop>/wokwi/<board>/diagram.json, from
`boardprofiles.board_profile`, so a diagram cannot drift from the firmware's pins: the
tests regenerate them and compare, and check every wire against the profile.

Part types and pin names are Wokwi's documented ones (docs.wokwi.com/parts and
the wokwi-boards board.json files). Wokwi has no H-bridge, DC motor, ULN2003,
MOSFET or MCP23017 part, so:
  - the DC motor is two LEDs in anti-parallel between the bridge inputs
    (AIN1 and AIN2): one lights while the hand would turn clockwise (AIN1
    high, AIN2 low), the other anticlockwise; both dark when braked (both
    high) or coasting (both low), as the motor itself would stand;
  - nSLEEP/STBY, the TB6612's PWMA, the ULN2003's IN1-IN4 (its board has
    LEDs on those inputs too) and the solenoid's MOSFET gate are LEDs;
  - the battery divider is a potentiometer on the ADC pin;
  - a window sensor is a slide switch: left (its start position) shorts the
    input to GND like a reed held shut by the magnet of a closed window;
  - the fuse box's MCP23017 option is not drawn (no such part): the diagram
    shows the default, one GPIO per window.
"""
import importlib
import importlib.util
import json
import os
import sys
import types
from pathlib import Path

from propctl import props
from propctl.build import FIRMWARE_DIR, REPO_ROOT
from propctl.wokwi_parts import V33
from propctl.wokwi_parts import part as make_part

FIRMWARE_LIB = FIRMWARE_DIR / "lib"

REPO_HARDWARE = REPO_ROOT / "hardware"  # a clone's; an installed propctl has none (use --out)

# Boards with their own wiring columns; the Pico W, Pico 2 and Pico 2 W are wired like the Pico.
WOKWI_BOARDS = {
    "pico": {"type": "wokwi-pi-pico", "id": "pico", "gnd": "GND.8", "3v3": "3V3"},
    "esp32": {"type": "board-esp32-devkit-c-v4", "id": "esp", "gnd": "GND.1", "3v3": "3V3"},
    "esp32s3": {"type": "board-esp32-s3-devkitc-1", "id": "esp", "gnd": "GND.1", "3v3": "3V3.1"},
}
# Header pins whose Wokwi name is not the GPIO number (DevKitC V4; ESP32-S3-DevKitC-1).
NAMED = {"esp32": {36: "VP", 39: "VN", 1: "TX", 3: "RX"}, "esp32s3": {43: "TX", 44: "RX"}}
# ESP32 GPIO 34-39 are inputs without internal pull-ups: a button there gets 10k to 3V3.
ESP32_NO_PULLUP = (34, 35, 36, 37, 38, 39)

# Documented pin names of every part type used (Wokwi part references).
PART_PINS = {
    "wokwi-pi-pico": {"GP%d" % n for n in list(range(23)) + [26, 27, 28]}
    | {"GND.%d" % n for n in range(1, 9)} | {"VSYS", "VBUS", "3V3"},
    "board-esp32-devkit-c-v4": {"3V3", "EN", "VP", "VN", "34", "35", "32", "33", "25", "26", "27", "14",
                                "12", "GND.1", "13", "D2", "D3", "CMD", "5V", "GND.2", "23", "22", "TX",
                                "RX", "21", "GND.3", "19", "18", "5", "17", "16", "4", "0", "2", "15",
                                "D1", "D0", "CLK"},
    "board-esp32-s3-devkitc-1": {"3V3.1", "3V3.2", "RST", "5V", "TX", "RX"}
    | {"GND.%d" % n for n in range(1, 5)}
    | {str(n) for n in list(range(22)) + [35, 36, 37, 38, 39, 40, 41, 42, 45, 46, 47, 48]},
    "wokwi-pushbutton": {"1.l", "1.r", "2.l", "2.r"},
    "wokwi-slide-switch": {"1", "2", "3"},
    "wokwi-led": {"A", "C"},
    "wokwi-resistor": {"1", "2"},
    "wokwi-buzzer": {"1", "2"},
    "wokwi-relay-module": {"VCC", "GND", "IN", "NC", "COM", "NO"},
    "wokwi-potentiometer": {"GND", "SIG", "VCC"},
    "board-ssd1306": {"GND", "VCC", "SCL", "SDA"},
    "wokwi-text": set(),
}

# Layout: these parts open a row (left), the part after them sits to their right.
_ROW_STARTERS = ("wokwi-resistor", "wokwi-slide-switch", "wokwi-potentiometer")
# Each prop's parts (propctl/props/<name>/wokwi.py: PARTS, and NOT_DRAWN, the profile signals
# it leaves out on purpose and why), for every prop of the firmware that has them.
PROPS = tuple(name for name in props.names() if props.has(name, "wokwi"))
PROP_PARTS = {name: props.part(name, "wokwi").PARTS for name in PROPS}
NOT_DRAWN = {name: props.part(name, "wokwi").NOT_DRAWN for name in PROPS
             if getattr(props.part(name, "wokwi"), "NOT_DRAWN", None)}


def load_boards(firmware_lib: Path = FIRMWARE_LIB):
    """The firmware's board profiles, read from the firmware tree: every board's profile with
    every prop's pins (boardprofiles.py and props/PROP/pinout.py through the registry), made
    once while that tree is importable; the names it loads (boardprofiles, props...) are in
    sys.modules only meanwhile. Gives .profile(board, prop) and .board_profile(board)."""
    if not (firmware_lib / "boardprofiles.py").is_file():
        raise FileNotFoundError("no boardprofiles.py in %s" % firmware_lib)

    def loaded() -> list:
        return [name for name in sys.modules
                if name in ("boardprofiles", "props") or name.startswith("props.")]
    saved = {name: sys.modules.pop(name) for name in loaded()}
    sys.path.insert(0, str(firmware_lib))
    try:
        profiles = importlib.import_module("boardprofiles").all_profiles()
    finally:
        sys.path.remove(str(firmware_lib))
        for name in loaded():
            sys.modules.pop(name, None)
        sys.modules.update(saved)
    return types.SimpleNamespace(profile=lambda board, prop: profiles[board][prop],
                                 board_profile=lambda board: profiles[board])


def board_pin(board: str, gpio, header: dict):
    """The Wokwi pin name of `gpio` on `board`, or None for a pin on the board itself (Pico LED)."""
    if type(gpio) is not int or gpio not in header:
        return None
    if board == "pico":
        return "GP%d" % gpio
    return NAMED[board].get(gpio, str(gpio))


def _signals(parts: list) -> list:
    names = []
    for part in parts:
        for end in part["wires"].values():
            if end[0] == "sig" and end[1] not in names:
                names.append(end[1])
    return names


def _pullups(board: str, spec: list, pins: dict) -> list:
    """10k to 3V3 for each ESP32 button on a pin without an internal pull-up."""
    extra = []
    for part in spec:
        end = part["wires"].get("1.l")
        if (board == "esp32" and part["type"] == "wokwi-pushbutton" and end
                and pins.get(end[1]) in ESP32_NO_PULLUP):
            extra.append(make_part("pullup_" + end[1], "wokwi-resistor", {"value": "10000"},
                                    {"1": end, "2": V33}))
    return extra


def diagram(boards_module, board: str, prop: str) -> dict:
    """The diagram.json content for one prop on one board."""
    wb = WOKWI_BOARDS[board]
    pins = boards_module.profile(board, prop)
    header = boards_module.board_profile(board)["header"]
    spec = PROP_PARTS[prop]
    drawn = _signals(spec)
    missing = set(pins) - set(drawn) - set(NOT_DRAWN.get(prop, {}))
    if missing:
        raise ValueError("%s: profile signals with no part in the diagram: %s" % (prop, sorted(missing)))
    skipped = {}
    for signal in drawn:
        if pins.get(signal) is None:
            skipped[signal] = "not wired on this board"
        elif board_pin(board, pins[signal], header) is None:
            skipped[signal] = "on the board itself (%s), nothing to wire" % pins[signal]
    parts = [{"type": wb["type"], "id": wb["id"], "top": 0, "left": 0, "attrs": {}}]
    connections = []
    row = 0
    opened = False
    for part in spec + _pullups(board, spec, pins):
        if any(end[0] == "sig" and end[1] in skipped for end in part["wires"].values()):
            continue
        starts_row = part["type"] in _ROW_STARTERS
        if starts_row and opened:
            row += 1  # two row starters in a row: the first stands alone
        column, line = divmod(row, 12)
        parts.append({"type": part["type"], "id": part["id"], "top": line * 70 - 60,
                      "left": 260 + column * 300 + (0 if starts_row else 110), "attrs": dict(part["attrs"])})
        opened = starts_row
        if not starts_row:
            row += 1
        for pin in sorted(part["wires"]):
            end = part["wires"][pin]
            if end[0] == "sig":
                other, color = "%s:%s" % (wb["id"], board_pin(board, pins[end[1]], header)), "green"
            elif end[0] == "gnd":
                other, color = "%s:%s" % (wb["id"], wb["gnd"]), "black"
            elif end[0] == "3v3":
                other, color = "%s:%s" % (wb["id"], wb["3v3"]), "red"
            else:
                other, color = "%s:%s" % (end[1], end[2]), "green"
            connections.append(["%s:%s" % (part["id"], pin), other, color, []])
    notes = dict(NOT_DRAWN.get(prop, {}))
    notes.update(skipped)
    if notes:
        parts.append({"type": "wokwi-text", "id": "notes", "top": -140, "left": 0,
                      "attrs": {"text": "\n".join("%s: %s" % (k, notes[k]) for k in sorted(notes))}})
    result = {"version": 1, "author": "propctl wokwi (generated from firmware/lib/boardprofiles.py)",
              "editor": "wokwi", "parts": parts, "connections": connections, "dependencies": {}}
    check_pin_names(result)
    return result


def check_pin_names(data: dict) -> None:
    """Every connection names a part of the diagram and one of that part type's documented pins."""
    types = {}
    for part in data["parts"]:
        if part["id"] in types:
            raise ValueError("part id %r used twice" % part["id"])
        types[part["id"]] = part["type"]
    for connection in data["connections"]:
        for end in connection[:2]:
            part_id, _, pin = end.partition(":")
            if part_id not in types:
                raise ValueError("connection %r: no part %r" % (connection, part_id))
            if pin not in PART_PINS[types[part_id]]:
                raise ValueError("connection %r: %s has no pin %r" % (connection, types[part_id], pin))


def render(data: dict) -> str:
    return json.dumps(data, indent=2) + "\n"


def diagram_path(root: Path, prop: str, board: str) -> Path:
    return root / prop / "wokwi" / board / "diagram.json"


def generate_all(boards_module, root: Path, write: bool) -> list:
    """Write (or, write=False, compare) every diagram; returns the paths that differ(ed)."""
    changed = []
    for prop in PROPS:
        for board in WOKWI_BOARDS:
            path = diagram_path(root, prop, board)
            text = render(diagram(boards_module, board, prop))
            old = path.read_text(encoding="utf-8") if path.exists() else None
            if old != text:
                changed.append(path)
                if write:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_text(text, encoding="utf-8")
    return changed


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "wokwi", help="write the Wokwi simulator diagrams from the board profiles",
        description="Write hardware/<prop>/wokwi/<board>/diagram.json for every prop (%s) on the "
                    "Pico, the ESP32 DevKitC and the ESP32-S3-DevKitC-1, from the "
                    "firmware's board profiles (firmware/lib/boardprofiles.py). Paste one into a "
                    "Wokwi MicroPython project's diagram.json "
                    "to see the wiring. Wokwi has no H-bridge or motor part: the motor is two LEDs "
                    "between AIN1 and AIN2, one per direction." % ", ".join(PROPS),
        epilog="Examples:\n"
               "  propctl wokwi            # after a change to firmware/lib/boardprofiles.py\n"
               "  propctl wokwi --check    # are the committed diagrams up to date?\n"
               "Exit codes: 0 written (or, with --check, up to date), 1 --check found a diagram that "
               "differs from the profiles, 2 bad command line.")
    parser.add_argument("--out", type=Path, default=REPO_HARDWARE,
                        help="the hardware folder to write into (default: the clone's hardware/)")
    parser.add_argument("--firmware", type=Path, default=FIRMWARE_LIB,
                        help="firmware/lib holding boardprofiles.py (default: the clone's)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 naming every diagram that differs from the profiles")
    parser.set_defaults(func=run)


def run(args) -> int:
    # os.path: a name too long (ENAMETOOLONG) is "not there", where Path.exists() raises
    if not os.path.isfile(args.firmware / "boardprofiles.py"):
        print("propctl wokwi: no boardprofiles.py in %s (use --firmware)" % args.firmware, file=sys.stderr)
        return 2
    if not os.path.isdir(args.out):
        if args.out != REPO_HARDWARE:  # the folder named with --out
            print("propctl wokwi: --out %s: %s; create it first, or name the hardware folder of a clone"
                  % (args.out, "not a folder" if os.path.lexists(args.out) else "no such folder"),
                  file=sys.stderr)
        else:
            print("propctl wokwi: no hardware folder at %s (run it in a clone, or give --out)" % args.out,
                  file=sys.stderr)
        return 2
    changed = generate_all(load_boards(args.firmware), args.out, write=not args.check)
    for path in changed:
        print("%s %s" % ("differs from the profiles:" if args.check else "wrote", path))
    if args.check and changed:
        print("run `propctl wokwi` to regenerate", file=sys.stderr)
        return 1
    if not changed:
        print("every diagram is up to date (%d)" % (len(PROPS) * len(WOKWI_BOARDS)))
    return 0
