"""Board entry point: boot mode, settings, then the configured prop with the link.

Kept thin on purpose: the work is in safemode (crash loops, maintenance) and
link.startup (the prop and the serial link).

settings is read, then forgotten before the link and the prop are loaded: run from .mpy files
its code is on the heap, and gone first, their code fills its room (docs/heap.md). The football
box's build loads it again, above its code; link.startup forgets it once the prop is built.
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

from link import startup  # noqa: E402  (after settings is forgotten: see above)

startup.start(mode, config, config_errors, guard)
