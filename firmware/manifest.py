# Freeze the firmware into a custom MicroPython image (modules in flash: less RAM, faster boot).
#   cd micropython/ports/rp2 && make BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/firmware/manifest.py
#   cd micropython/ports/esp32 && make BOARD=ESP32_GENERIC FROZEN_MANIFEST=/path/to/firmware/manifest.py
# main.py is not frozen: it stays on the flash as the boot script (deploy copies it), and
# config.json, the game state and card decks stay there too. Frozen modules come before /lib
# in sys.path, so a frozen image ignores older copies of these modules in /lib.
# The functions used here are provided by MicroPython's manifest tool (tools/manifestfile.py).
# ruff: noqa: F821
# mypy: ignore-errors

include("$(PORT_DIR)/boards/manifest.py")  # the port's own frozen modules (asyncio and the like)

metadata(description="Game-prop firmware: rules core, link, drivers, props", version="0.1.0")

package("rules", base_path="lib")
package("link", base_path="lib")
package("cardpack", base_path="lib")
package("drivers", base_path="lib")
package("props", base_path="lib")
module("boards.py", base_path="lib")
module("settings.py", base_path="lib")
module("store.py", base_path="lib")
module("safemode.py", base_path="lib")
module("version.py", base_path="lib")
module("runtime.py", base_path="lib")
package("selftest", base_path="lib")
