"""Geisteruhr rulebook cases; run under pytest and under MicroPython."""
from checks import raises

from rules.geisteruhr import (
    DEFAULT_LIMITS,
    GHOSTS_PER_PLAYER,
    Game,
    plan_length_ms,
    plan_motion,
    round_winners,
    validate_limits,
)


# "The player with the most ghosts on the clock wins the round."
def test_most_ghosts_on_the_clock_wins():
    assert round_winners([3, 5, 1], [4, 2, 6]) == [1]


# "If there is a draw, the player with the most ghosts not yet used wins the round."
def test_draw_goes_to_most_ghosts_not_yet_used():
    assert round_winners([4, 4, 2, 0], [1, 3, 5, 7]) == [1]


# "If two or more players have the same number of ghosts not yet used, they all win the round."
def test_draw_on_both_counts_means_all_of_them_win():
    assert round_winners([4, 4, 4, 1], [2, 2, 1, 6]) == [0, 1]
    assert round_winners([2, 2], [5, 5]) == [0, 1]


# "If there are no more ghosts on the clock at the end of a round then there is no winner."
def test_no_ghosts_on_the_clock_no_winner():
    assert round_winners([0, 0, 0], [7, 7, 7]) == []


def test_round_winners_refuses_nonsense():
    raises(ValueError, round_winners, [1], [1])
    raises(ValueError, round_winners, [1, 2, 3, 4, 5], [0, 0, 0, 0, 0])
    raises(ValueError, round_winners, [1, -1], [0, 0])
    raises(ValueError, round_winners, [1, 2], [0])


def test_every_player_starts_with_seven_ghosts_and_the_youngest_starts():
    game = Game(3)
    assert [game.store(seat) for seat in range(3)] == [GHOSTS_PER_PLAYER] * 3
    assert game.starter == 0
    assert game.banked == [0, 0, 0]
    assert not game.over and game.winners == []


# "The winner places one of their own ghosts onto one of the ghost spaces ...
# players who have already won one or two rounds continue play with fewer ghosts."
def test_a_round_winner_banks_a_ghost_and_plays_on_with_fewer():
    game = Game(2)
    assert game.finish_round([3, 1], [4, 6]) == [0]
    assert game.banked == [1, 0]
    assert game.store(0) == 6 and game.store(1) == 7


# "The player or one of the players who won the last round presses the button."
def test_the_last_winner_starts_the_next_round():
    game = Game(3)
    game.finish_round([1, 2, 0], [6, 5, 7])
    assert game.starter == 1
    game.finish_round([0, 0, 0], [7, 6, 7])  # no winner: the starter stays
    assert game.starter == 1
    game.finish_round([2, 2, 1], [5, 4, 6])
    assert game.starter == 0


def test_counts_above_a_players_store_are_refused_and_change_nothing():
    game = Game(2)
    game.finish_round([2, 0], [5, 7])      # seat 0 now has 6 ghosts
    error = raises(ValueError, game.finish_round, [3, 1], [4, 6])
    assert "player 1 has only 6" in str(error)  # players count from 1
    assert game.banked == [1, 0] and game.rounds == [[0]]
    raises(ValueError, game.finish_round, [1, 1, 1], [0, 0, 0])
    raises(ValueError, Game, 1)
    raises(ValueError, Game, 5)


# "The game ends as soon as one player has managed to place his third ghost on a ghost space."
def test_third_banked_ghost_ends_the_game():
    game = Game(2)
    for _ in range(3):
        game.finish_round([2, 1], [3, 3])
    assert game.over and game.winners == [0]
    raises(ValueError, game.finish_round, [1, 0], [0, 0])


# "If several players get their third ghost in at the same time, they are joint winners."
def test_joint_winners_when_third_ghosts_come_together():
    game = Game(4)
    for _ in range(2):
        game.finish_round([3, 3, 0, 0], [1, 1, 7, 7])
    assert not game.over
    game.finish_round([2, 2, 1, 0], [1, 1, 3, 7])
    assert game.over and game.winners == [0, 1]


def test_a_saved_game_resumes_identically():
    game = Game(3)
    game.finish_round([1, 2, 0], [6, 5, 7])
    game.finish_round([0, 0, 0], [7, 6, 7])
    game.finish_round([2, 2, 1], [5, 4, 6])
    again = Game.from_state(game.state())
    assert again.state() == game.state()
    assert again.banked == [1, 1, 0] and again.starter == 0 and again.rounds == [[1], [], [0]]
    # the resumed game plays on exactly like the original
    assert again.finish_round([3, 0, 0], [2, 6, 7]) == game.finish_round([3, 0, 0], [2, 6, 7])
    assert again.state() == game.state()


def test_states_that_cannot_be_a_game_are_refused():
    good = {"players": 2, "banked": [1, 0], "starter": 0, "rounds": [[0], []]}
    assert Game.from_state(good).banked == [1, 0]
    for bad in ({"players": 2, "rounds": [[0]]},                                  # an older save
                {"players": 5, "banked": [0] * 5, "starter": 0, "rounds": []},
                {"players": 2, "banked": [2, 0], "starter": 0, "rounds": [[0], []]},  # banked != won
                {"players": 2, "banked": [1, 1], "starter": 0, "rounds": [[1, 0]]},   # not sorted
                {"players": 2, "banked": [1, 0], "starter": 1, "rounds": [[0]]},      # wrong starter
                {"players": 2, "banked": [0, 1], "starter": 1, "rounds": [[2]]},      # no seat 2
                {"players": 2, "banked": [4, 0], "starter": 0, "rounds": [[0]] * 4},  # after the end
                {"players": 2, "banked": "x", "starter": 0, "rounds": []},
                "not a dict", None):
        raises(ValueError, Game.from_state, bad)


def test_plan_is_deterministic_and_within_the_default_bounds():
    plan = plan_motion(1234)
    assert plan == plan_motion(1234)
    assert plan != plan_motion(1235)
    total = plan_length_ms(plan)
    assert DEFAULT_LIMITS["round_min_ms"] <= total <= DEFAULT_LIMITS["round_max_ms"]
    assert plan[0][1] != 0 and plan[-1][1] != 0  # starts moving at once, ends moving


def test_invalid_limits_are_rejected():
    raises(ValueError, validate_limits, {"speed_max": 1001})
    raises(ValueError, validate_limits, {"speed_min": 900, "speed_max": 800})
    raises(ValueError, validate_limits, {"round_max_ms": 10 ** 9})
    raises(ValueError, validate_limits, {"reverse_pause_ms": 0})
    raises(ValueError, validate_limits, {"warp": 1})
    raises(ValueError, validate_limits, {"round_min_ms": 30000, "round_max_ms": 30000})
    raises(ValueError, plan_motion, 1, {"segment_min_ms": "fast"})
