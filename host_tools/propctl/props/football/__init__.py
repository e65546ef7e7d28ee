"""The Finger Football box on the desktop: sim.py and screen.py (`propctl sim football`),
describe.py (its events as sentences), reports.py (its buttons and the referee's reports in the
players' words: the sim, the web page and the referee at the box)."""
