"""The reference pages under docs/reference/, generated from the code so docs and code cannot drift.

    python -m propctl.reference           (make docs) write docs/reference/*.md
    python -m propctl.reference --check   exit 1 naming each page that differs

settings.md from the firmware's settings specs (settings.specs(): the board-wide keys and
each prop's section from its folder) and the `#:` comment beside each spec, link.md from
the command tables the firmware builds (run on the virtual board under MicroPython) and
the event describers of propctl.describe, pins.md from the board profiles. The sentences
saying what a link command does are in texts.py.
"""
