"""Finger weg! properties: random legal games keep the books straight, on both interpreters."""
from hypothesis import given, settings
from hypothesis import strategies as st

from propctl.shared.rules.fingerweg import BOLT_POINTS, WINDOWS, Game


def _play(data, players):
    """Drive a whole game with hypothesis choices; check every step as it happens."""
    game = Game(players)
    starters = []
    while not game.over:
        starters.append(game.starter)
        bolt = data.draw(st.integers(0, WINDOWS - 1))
        game.start_round(bolt)
        openings = 0
        while game.round_active:
            in_before = game.in_round
            chooser = game.chooser
            assert chooser in in_before
            closed = [w for w in range(WINDOWS) if w not in game.opened]
            window = data.draw(st.sampled_from(closed))
            voters = [s for s in in_before if s != chooser]
            away = data.draw(st.lists(st.sampled_from(voters), unique=True)) if voters else []
            before = game.scores
            result = game.open_window(window, away)
            openings += 1
            after = game.scores
            # No points lost or invented: the result accounts for every change.
            for seat in range(players):
                assert after[seat] - before[seat] == result.points.get(seat, 0)
            assert result.bolt == (window == bolt)
            assert result.away == tuple(sorted(away))
            for seat, points in result.points.items():
                if result.bolt:
                    assert seat in away and points == BOLT_POINTS
                elif seat in away:
                    assert points == len(result.opened)
                else:
                    assert result.round_over and points == BOLT_POINTS and seat in in_before
            if not result.round_over:
                assert set(game.in_round) == set(in_before) - set(away)
                assert game.chooser != chooser
        # Seven openings leave only the bolt closed, which always ends the round.
        assert openings <= WINDOWS - 1
    assert starters == list(range(players))
    return game


@settings(max_examples=150)
@given(data=st.data(), players=st.integers(2, 8))
def test_random_legal_games_keep_every_point_accounted_for(data, players):
    game = _play(data, players)
    assert game.over and game.starter is None
    best = max(game.scores)
    assert game.winners == [s for s in range(players) if game.scores[s] == best]


@settings(max_examples=100)
@given(data=st.data(), players=st.integers(2, 8), bolt=st.integers(0, 7))
def test_any_illegal_opening_changes_nothing(data, players, bolt):
    game = Game(players)
    game.start_round(bolt)
    for _ in range(data.draw(st.integers(0, 3))):
        closed = [w for w in range(WINDOWS) if w not in game.opened and w != bolt]
        game.open_window(data.draw(st.sampled_from(closed)), [])
    before = game.state()
    window = data.draw(st.one_of(st.integers(-3, 11), st.sampled_from(list(game.opened) or [0])))
    away = data.draw(st.lists(st.integers(-2, players + 1), max_size=players + 2))
    try:
        game.open_window(window, away)
    except ValueError as exc:
        assert str(exc)
        assert game.state() == before
    else:
        assert 0 <= window < WINDOWS and game.chooser not in away


def _check_log(log):
    players = log["players"]
    totals = [0] * players
    assert len(log["rounds"]) == players
    for number, game_round in enumerate(log["rounds"]):
        assert game_round["starter"] == number
        assert 1 <= len(game_round["steps"]) <= WINDOWS - 1
        assert game_round["steps"][-1]["round_over"]
        for step in game_round["steps"]:
            points = [step["points"].get(str(s), 0) for s in range(players)]
            assert step["gained"] == points
            totals = [t + p for t, p in zip(totals, points)]
        if len(game_round["steps"]) > 1:
            assert "already open" in game_round["refused"]
    assert totals == log["scores"]


def test_whole_games_agree_between_interpreters(differential):
    for first in range(0, 200, 50):
        for log in differential.both("scenario_fingerweg:play_games", first, 50):
            _check_log(log)


@settings(max_examples=30)
@given(seed=st.integers(-(2**40), 2**40))
def test_random_seeded_games_agree_between_interpreters(differential, seed):
    _check_log(differential.both("scenario_fingerweg:play_game", seed))
