"""The fourth prop (tests/fixtures/props/lamp, copied into a firmware tree) booted as main.py
boots a prop, then its self-test run through the link, on the virtual board (MicroPython).

    MICROPYPATH=host_tools/propctl/vboard:TREE/lib micropython tests/project/mp_fourth_prop.py

Run in a folder holding the config.json to boot with. Prints one JSON line: the settings
and errors the boot read, the link's lines (boot events, replies, events) and the levels
the virtual board recorded on the lamp's pin.
"""
import json

import safemode
import vboard

from link import startup
from link.router import Link


def main():
    board = vboard.new_board()
    import settings
    config, errors = settings.load(echo=None)
    lines = []
    link = Link(lines.append, startup.identity(config, safemode.RUN, errors))
    rt, _ = startup.build_prop(link, config, errors, safemode.BootGuard())
    gate = rt.app  # the prop's app inside the self-test's gate, as the runtime runs it
    gate.tick(0)
    link.handle_line(b'{"id": 1, "cmd": "toggle"}')
    link.handle_line(b'{"id": 2, "cmd": "selftest_begin"}')
    link.handle_line(b'{"id": 3, "cmd": "selftest_output", "args": {"name": "lamp"}}')
    now = 0
    while now < 3000:  # past the step's 2 s: the blink runs on the lamp's pin, then done
        now += 10
        gate.tick(now)
    link.handle_line(b'{"id": 4, "cmd": "selftest_inputs"}')
    # the Pico's lamp pin is GP15 (props/lamp/pinout.py)
    levels = [value for _, name, value in board.log() if name == "15"]
    print(json.dumps({"lamp": config["lamp"], "errors": errors, "lines": lines,
                      "levels": levels, "modules": sorted(n for n in __import__("sys").modules
                                                          if n.startswith("props."))}))


main()
