"""The heap a prop keeps once booted as main.py boots it, on the virtual board (MicroPython).

    MICROPYPATH=host_tools/propctl/vboard:firmware/lib micropython tests/firmware/mp_boot_heap.py PROP [keep]

Run in an empty folder (the flash): it writes a config.json naming PROP, nothing else, so
the boot reads the defaults of PROP's settings, as a board's first boot does.
main.py's steps: the boot guard, settings.load, then link.startup.build_prop (the
prop built, wrapped and linked; nothing runs). `keep`: link.startup forgets no
module (BOOT_ONLY and PROP_BOOT_ONLY emptied), to compare. Prints one JSON line: the bytes in use
after a collection, and whether the boot-only modules are still in sys.modules.
"""
import gc
import json
import sys

import safemode

from link import startup
from link.router import Link


def load():
    """settings.load as main.py calls it; main.py then holds no name of the module (del)."""
    import settings
    return settings.load(echo=None)


def main():
    prop = sys.argv[1]
    if len(sys.argv) > 2 and sys.argv[2] == "keep":
        startup.BOOT_ONLY = ()
        startup.PROP_BOOT_ONLY = ()
    with open("config.json", "w") as f:
        f.write(json.dumps({"prop": prop}))
    guard = safemode.BootGuard()
    mode = safemode.boot_mode(guard)
    config, errors = load()
    lines = []
    link = Link(lines.append, startup.identity(config, mode, errors))
    startup.build_prop(link, config, errors, guard)
    gc.collect()
    boot_only = ("settings", "boardprofiles", "props.%s.settings_schema" % prop, "props.%s.pinout" % prop)
    print(json.dumps({"mode": mode, "used": gc.mem_alloc(), "lines": len(lines),
                      "loaded": [name for name in boot_only if name in sys.modules]}))


main()
