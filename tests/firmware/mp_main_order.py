"""firmware/main.py's boot, watched: which firmware modules are loaded while settings is (MicroPython).

    MICROPYPATH=host_tools/propctl/vboard:firmware/lib micropython tests/firmware/mp_main_order.py MAIN_PY

Run in a folder whose config.json names the prop. main.py runs as on a board, with an import
hook that notes, at each import of a link or props module, whether settings is in
sys.modules; its last call, startup.start, is replaced by link.startup.build_prop (the prop
built, wrapped and linked; nothing runs, so the script ends). Prints one JSON line.
"""
import builtins
import json
import sys

seen = []   # [module name, settings loaded then], for link and props imports
plain = builtins.__import__


def built(mode, config, errors, guard):
    from link import startup
    from link.router import Link
    lines = []
    link = Link(lines.append, startup.identity(config, mode, errors))
    startup.build_prop(link, config, errors, guard)
    seen.append(["(built)", "settings" in sys.modules])
    print(json.dumps({"seen": seen, "prop": config["prop"], "lines": len(lines),
                      "loaded": [name for name in ("settings", "boardprofiles") if name in sys.modules]}))


def hook(name, *args):
    if name.split(".")[0] in ("link", "props") and name not in sys.modules:
        seen.append([name, "settings" in sys.modules])
    module = plain(name, *args)
    fromlist = args[2] if len(args) > 2 else None
    if name == "link" and fromlist and "startup" in fromlist:
        # main.py's `from link import startup`: loaded here, as it would be next, and its last
        # call (start) replaced: build the prop, then stop
        plain("link.startup", None, None, ("start",)).start = built
    return module


builtins.__import__ = hook
with open(sys.argv[1]) as f:
    source = f.read()
exec(source, {"__name__": "__main__"})
