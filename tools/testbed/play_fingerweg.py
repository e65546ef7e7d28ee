"""Finger weg! scenarios: whole random games from a seed, logged step by step."""
from rules.fingerweg import WINDOWS, Game
from rules.rng import Rng


def play_game(seed):
    """A whole legal game driven by Rng(seed); returns the full log.

    Each round also tries one illegal move (reopening a window) and logs the
    refusal, so both interpreters must agree on the messages too.
    """
    rng = Rng(seed)
    players = rng.between(2, 8)
    game = Game(players)
    rounds = []
    while not game.over:
        starter = game.starter
        bolt = rng.below(WINDOWS)
        game.start_round(bolt)
        steps = []
        refused = None
        while game.round_active:
            opened = game.opened
            if opened and refused is None:
                try:
                    game.open_window(opened[0], [])
                except ValueError as exc:
                    refused = str(exc)
            closed = [w for w in range(WINDOWS) if w not in opened]
            window = rng.choice(closed)
            # Each player has their own caution, so some rounds run long.
            voters = [seat for seat in game.in_round if seat != game.chooser]
            caution = rng.below(1000)
            away = [seat for seat in voters if rng.chance(caution)]
            before = game.scores
            step = game.open_window(window, away).as_dict()
            after = game.scores
            step["gained"] = [after[s] - before[s] for s in range(players)]
            steps.append(step)
        rounds.append({"starter": starter, "bolt": bolt, "steps": steps, "refused": refused})
    return {"players": players, "rounds": rounds, "scores": game.scores, "winners": game.winners}


def play_games(first_seed, count):
    """play_game for `count` consecutive seeds."""
    return [play_game(first_seed + i) for i in range(count)]
