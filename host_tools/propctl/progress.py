"""One line of progress, redrawn in place on a terminal; nothing in a log, where it would be noise."""
import sys

TTY = sys.stdout.isatty()


def progress_line(verb: str):
    """show(i, n, name): "  compiling 3/40 lib/a.py" on one redrawn line."""
    def show(i, n, name):
        if TTY:
            print("\r  %s %d/%d %-44s" % (verb, i, n, name), end="", flush=True)
    return show


def end_progress() -> None:
    """Clear the progress line (before a line of its own is printed)."""
    if TTY:
        print("\r" + " " * 78 + "\r", end="", flush=True)
