"""Terminal game masters, one module per game, and table.py, the plumbing they share.

Each game module provides register(subparsers) and is listed in propctl.play.GAME_MODULES.
"""
