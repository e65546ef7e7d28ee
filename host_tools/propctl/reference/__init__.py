"""The reference pages under docs/reference/, generated from the code so docs and code cannot drift.

    python -m propctl.reference           (make docs) write docs/reference/*.md
    python -m propctl.reference --check   exit 1 naming each page that differs

settings.md from the firmware's settings.SCHEMA, link.md from the command
tables the firmware builds (run on the virtual board under MicroPython) and
the event describers of propctl.describe, pins.md from the boards module's profiles. The
sentences saying what a setting or command does are in texts.py.
"""
