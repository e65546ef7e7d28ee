"""The shared rules core: pure game logic for the boards and the desktop.

Nothing in this package touches hardware, time or files. It runs unchanged on
MicroPython and CPython; integers only for anything that decides an outcome.
"""
