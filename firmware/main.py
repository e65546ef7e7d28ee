"""Board entry point: boot mode, settings, then the configured prop with the link.

Kept thin on purpose: the work is in safemode (crash loops, maintenance) and
link.board (the prop and the serial link).

settings (config.json's checks and defaults) is read first and forgotten before the link and
the prop are loaded: run from .mpy files its code and tables are on the heap, and gone before
the prop's code is loaded, the prop's code fills their room instead of landing above it (on a
32-bit build the clock's smallest heap from .mpy files fell by 16 KB: docs/heap.md). A prop
whose build reads settings (the football box's section) imports it again, above its own code,
and link.board forgets it once more when the prop is built.
"""
import gc
import sys

import safemode
import settings

guard = safemode.BootGuard()
mode = safemode.boot_mode(guard)
config, config_errors = settings.load(echo=None)
del settings
del sys.modules["settings"]
gc.collect()

from link import board  # noqa: E402  (after settings is forgotten: see above)

board.start(mode, config, config_errors, guard)
