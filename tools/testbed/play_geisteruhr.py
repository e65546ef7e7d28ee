"""Geisteruhr scenarios for the differential tests."""
from rules.geisteruhr import Game, plan_motion
from rules.rng import Rng


def plan(seed, limits):
    return plan_motion(seed, limits)


def random_game(seed, players):
    """A whole game with random legal counts; returns every round's record."""
    rng = Rng(seed)
    game = Game(players)
    log = []
    while not game.over and len(log) < 200:
        on_clock = []
        unused = []
        for seat in range(players):
            store = game.store(seat)
            placed = rng.between(0, store)
            on_clock.append(rng.between(0, placed))
            unused.append(store - placed)
        winners = game.finish_round(on_clock, unused)
        log.append([on_clock, unused, winners, game.banked, game.starter])
    return {"log": log, "winners": game.winners, "over": game.over}
