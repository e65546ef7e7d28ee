# Freeze the firmware into a custom MicroPython image (modules in flash: less RAM, faster boot).
#   cd micropython/ports/rp2 && make BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/firmware/manifest.py
#   cd micropython/ports/esp32 && make BOARD=ESP32_GENERIC FROZEN_MANIFEST=/path/to/firmware/manifest.py
# main.py is not frozen: it stays on the flash as the boot script (deploy copies it), and
# config.json, the game state and card decks stay there too. Frozen modules come before /lib
# in sys.path, so a frozen image ignores older copies of these modules in /lib.
# The functions used here are provided by MicroPython's manifest tool (tools/manifestfile.py).
# ruff: noqa: F821
# mypy: ignore-errors
import ast
import os
import tempfile

include("$(PORT_DIR)/boards/manifest.py")  # the port's own frozen modules (asyncio and the like)

metadata(description="Game-prop firmware: rules core, link, drivers, props", version="0.1.0")

# Only what a prop runs: Pi mal Daumen (rules/pimaldaumen.py, its question cards in
# cardpack/question.py) is played with `propctl play` on the desktop, not on a board,
# so those stay out of the flash (about 13 KiB frozen).
# FIRMWARE_PROPS=NAME,... (comma-separated; default every prop of the registry, props.NAMES
# in lib/props/__init__.py) freezes only those props and the rules and card code they use
# (each prop's folder says which: lib/props/NAME/freeze.py): an image for one prop's board,
# less flash. (The manifest tool runs this file in its own folder.)
def _literal(path, name):
    """The literal assigned to `name` in the file at `path`, read, not imported."""
    for node in ast.parse(open(path).read()).body:
        if isinstance(node, ast.Assign) and [t.id for t in node.targets] == [name]:
            return ast.literal_eval(node.value)
    raise ValueError("no %s in %s" % (name, path))


REGISTRY = _literal("lib/props/__init__.py", "NAMES")
PROPS = [p for p in os.environ.get("FIRMWARE_PROPS", ",".join(REGISTRY)).split(",") if p]
rules = ["__init__.py"]
cardpack = []
for prop in PROPS:
    rules += [name for name in _literal("lib/props/%s/freeze.py" % prop, "RULES") if name not in rules]
    cardpack += [name for name in _literal("lib/props/%s/freeze.py" % prop, "CARDPACK")
                 if name not in cardpack]
package("rules", files=rules, base_path="lib")
package("link", base_path="lib")
if cardpack:
    package("cardpack", files=cardpack, base_path="lib")
package("drivers", base_path="lib")
props = [name for name in sorted(os.listdir("lib/props")) if name.endswith(".py")]
for prop in PROPS:
    props += [prop + "/" + name for name in sorted(os.listdir("lib/props/" + prop))
              if name.endswith(".py") and name != "freeze.py"]  # freeze.py: read above, not run
package("props", files=props, base_path="lib")
# The image says which props it holds: props.NAMES becomes PROPS (lib/props/__init__.py), so a
# config.json naming another prop is refused at boot (safe mode, the reason named), not a
# crash loop. Written to a folder of its own, never into this tree.
_named = tempfile.mkdtemp(prefix="frozen-props-")
with open(os.path.join(_named, "frozen_props.py"), "w") as _out:
    _out.write("# written by the game-props manifest.py: the props this image holds\nNAMES = %r\n"
               % (tuple(PROPS),))
module("frozen_props.py", base_path=_named)
package("net", base_path="lib")
module("boardprofiles.py", base_path="lib")
module("settings.py", base_path="lib")
module("store.py", base_path="lib")
module("safemode.py", base_path="lib")
module("version.py", base_path="lib")
module("runtime.py", base_path="lib")
package("selftest", base_path="lib")
