"""Board entry point: boot mode, settings, then the configured prop with the link.

Kept thin on purpose: the work is in safemode (crash loops, maintenance) and
link.startup (the prop and the serial link).
"""
import safemode
import settings

from link import startup

guard = safemode.BootGuard()
mode = safemode.boot_mode(guard)
config, config_errors = settings.load(echo=None)
del settings  # boot only: link.startup forgets the module once the prop is built
startup.start(mode, config, config_errors, guard)
