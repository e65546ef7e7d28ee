"""The fingerfootball scenarios of the differential tests: tools/testbed/play_fingerfootball.py
(the bench plays its games too, and bench/ imports nothing from tests/)."""
from play_fingerfootball import *  # noqa: F401,F403
