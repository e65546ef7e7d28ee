"""Terminal game masters, one module per game.

Each provides register(subparsers) and is listed in propctl.play.GAME_MODULES.
"""
