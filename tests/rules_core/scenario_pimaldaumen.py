"""The pimaldaumen scenarios of the differential tests: tools/testbed/play_pimaldaumen.py
(the bench plays its games too, and bench/ imports nothing from tests/)."""
from play_pimaldaumen import *  # noqa: F401,F403
