"""The fuse box on the desktop: sim.py, terminal.py and text.py (`propctl sim fusebox`),
describe.py (its events as sentences), deck.py (its task cards as the board reads them: the sim
and the web page)."""
