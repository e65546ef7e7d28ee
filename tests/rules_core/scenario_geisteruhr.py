"""The geisteruhr scenarios of the differential tests: tools/testbed/play_geisteruhr.py
(the bench plays its games too, and bench/ imports nothing from tests/)."""
from play_geisteruhr import *  # noqa: F401,F403
