"""propctl: desktop tools for the game-prop firmware (cards, deploy, monitor, sim, play)."""

__version__ = "0.1.0"
