"""`propctl play GAME`: terminal game masters for the table games."""
from propctl.games import fingerfootball, pimaldaumen

# Each game module provides register(subparsers) for `propctl play NAME`.
GAME_MODULES = [pimaldaumen, fingerfootball]


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "play", help="run a terminal game master for a table game",
        description="Run a game master in the terminal: it says whose turn it is, takes the "
                    "players' answers, keeps the score and can save and resume a game.")
    games = parser.add_subparsers(title="games", metavar="GAME")
    for module in GAME_MODULES:
        module.register(games)
    parser.set_defaults(func=lambda args: _no_game(parser))


def _no_game(parser) -> int:
    parser.print_help()
    return 2
