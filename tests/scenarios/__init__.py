"""Scenario functions run on both interpreters by the differential harness.

Each takes and returns JSON-able values only, and uses only the MicroPython
subset of the language.
"""
