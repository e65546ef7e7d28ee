"""`propctl play GAME`: terminal game masters for the table games."""
from propctl.games import fingerfootball, pimaldaumen
from propctl.games.table import shown
from propctl.termtext import ask_wrapped, say_wrapped

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
    games.choices["fingerfootball"].set_defaults(func=_fingerfootball)
    parser.set_defaults(func=lambda args: _no_game(parser))


def _fingerfootball(args, ask=ask_wrapped, say=say_wrapped) -> int:
    """The game kept here, or with --port the referee at the football box (the box's part on the
    serial link's side, propctl.props.football.box_referee: `play` sits above both, so neither
    imports the other)."""
    if getattr(args, "port", None) is None:
        return fingerfootball.run(args, ask, say)
    from propctl.props.football import box_referee
    return box_referee.run(args, *shown(ask, say))


def _no_game(parser) -> int:
    parser.print_help()
    return 2
