"""The fingerweg scenarios of the differential tests: tools/testbed/play_fingerweg.py
(the bench plays its games too, and bench/ imports nothing from tests/)."""
from play_fingerweg import *  # noqa: F401,F403
