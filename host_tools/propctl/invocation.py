"""How to run propctl again from the user's shell, for hints that must work as printed."""
import os
import shlex
import shutil
import sys


def propctl_command() -> str:
    """`propctl` if that name runs this propctl here, else the path (or `python -m`) that does."""
    argv0 = sys.argv[0] if sys.argv else ""
    if os.path.basename(argv0) == "propctl":
        found = shutil.which("propctl")
        if found and os.path.realpath(found) == os.path.realpath(argv0):
            return "propctl"
        return shlex.quote(argv0 if os.sep in argv0 else os.path.abspath(argv0))
    return "%s -m propctl.cli" % shlex.quote(sys.executable)
