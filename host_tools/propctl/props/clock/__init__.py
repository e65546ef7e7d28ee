"""The ghost clock on the desktop: sim.py and screen.py (`propctl sim clock`), describe.py (its
events as sentences), plan.py (`propctl plan`: a round's motion plan)."""
