"""Pi mal Daumen rules: scale properties (hypothesis) and whole games on both interpreters."""
import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from propctl.shared.rules.pimaldaumen import TOP, Board, Round, score

BOARD_FILE = Path(__file__).resolve().parents[2] / "host_tools/propctl/data/pimaldaumen_board.json"
DEFAULT_BOARD = json.loads(BOARD_FILE.read_text())


def as_text(value: Fraction) -> str:
    """A Fraction with a power-of-ten denominator as a decimal string."""
    sign = "-" if value < 0 else ""
    value = abs(value)
    decimals = 0
    while value.denominator != 1:
        value *= 10
        decimals += 1
    digits = str(value.numerator).rjust(decimals + 1, "0")
    if not decimals:
        return sign + digits
    return sign + digits[:-decimals] + "." + digits[-decimals:]


decimals = st.builds(lambda units, places: Fraction(units, 10 ** places),
                     st.integers(-10**9, 10**9), st.integers(0, 4))


@st.composite
def scales(draw):
    values = sorted(set(draw(st.lists(decimals, min_size=2, max_size=8))))
    if len(values) < 2:
        values.append(values[0] + 1)
    points = [draw(st.integers(1, TOP)) for _ in values[1:]]
    scale = [as_text(values[0])]
    for p, v in zip(points, values[1:]):
        scale += [p, as_text(v)]
    return scale, values, points


@given(scales(), st.data())
def test_inside_a_range_every_answer_scores_that_range(drawn, data):
    scale, values, points = drawn
    i = data.draw(st.integers(0, len(points) - 1))
    low, high = values[i], values[i + 1]
    inside = low + (high - low) * data.draw(st.fractions(0, 1, max_denominator=1000))
    inside = Fraction(round(inside * 10**7), 10**7)  # keep it a finite decimal
    if low < inside < high:
        assert score(scale, as_text(inside)) == points[i]


@given(scales(), st.integers(0, 7))
def test_a_value_between_two_ranges_scores_the_higher(drawn, k):
    scale, values, points = drawn
    k = k % len(values)
    neighbours = points[max(k - 1, 0):k + 1]
    assert score(scale, as_text(values[k])) == max(neighbours)


@given(scales(), decimals)
def test_outside_the_scale_scores_zero(drawn, offset):
    scale, values, _ = drawn
    step = abs(offset) + Fraction(1, 10**5)
    assert score(scale, as_text(values[0] - step)) == 0
    assert score(scale, as_text(values[-1] + step)) == 0


@given(scales(), decimals)
def test_score_agrees_with_exact_fractions(drawn, answer):
    scale, values, points = drawn
    expected = max([p for p, lo, hi in zip(points, values, values[1:]) if lo <= answer <= hi],
                   default=0)
    assert score(scale, as_text(answer)) == expected


@given(scales(), st.integers(0, 5), st.integers(2, 6), st.lists(decimals, min_size=5, max_size=5))
def test_a_round_only_pays_for_beating_the_best(drawn, questioner, players, answers):
    scale = drawn[0]
    questioner %= players
    played = Round(scale, questioner, players)
    earned = []
    for answer in answers:
        if played.over:
            break
        earned.append(played.answer(as_text(answer)))
    paid = [p for p in earned if p]
    assert paid == sorted(set(paid))
    if played.over:
        best = max(earned, default=0)
        assert played.questioner_points == (0 if best == TOP else TOP - best)
        assert len(earned) == players - 1 or earned[-1] == TOP


def test_default_board_is_valid_and_marked_as_stand_in():
    board = Board(DEFAULT_BOARD)
    assert "STAND-IN" in DEFAULT_BOARD["note"]
    assert any(board.bonus) and any(board.minus)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_seeded_games_finish_identically_on_both_interpreters(differential, players):
    results = differential.both("scenario_pimaldaumen:play_games", 100 * players, 10, players,
                                DEFAULT_BOARD)
    goal = len(DEFAULT_BOARD["fields"]) - 1
    for winner, positions, _, _ in results:
        assert winner is not None and positions[winner] == goal


@st.composite
def boards(draw):
    size = draw(st.integers(1, 40))
    fields = [{"kind": "start"}]
    for _ in range(size):
        field = {"colour": draw(st.sampled_from(["yellow", "green", "salmon"]))}
        if draw(st.integers(0, 4)) == 0:
            field["bonus"] = True
        if draw(st.integers(0, 3)) == 0:
            field["minus"] = -draw(st.integers(1, 6))
        fields.append(field)
    fields.append({"kind": "goal"})
    return {"fields": fields}


@settings(max_examples=50)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6), board=boards())
def test_whole_games_on_any_board_match_between_interpreters(differential, seed, players, board):
    result = differential.both("scenario_pimaldaumen:play_game", seed, players, board, 3000)
    wins = [e for e in result["events"] if e["event"] == "win"]
    if result["phase"] == "over":
        assert wins == [{"event": "win", "seat": result["winner"]}]
        assert result["positions"][result["winner"]] == len(board["fields"]) - 1
    # Pieces never share a field except the start.
    taken = [p for p in result["positions"] if p]
    assert len(taken) == len(set(taken))


def test_saving_and_resuming_does_not_change_a_game():
    from scenario_pimaldaumen import play_game
    for seed in range(5):
        straight = play_game(seed, 5, DEFAULT_BOARD, 4000, 0)
        assert straight["phase"] == "over"
        for every in (1, 3):
            assert play_game(seed, 5, DEFAULT_BOARD, 4000, every) == straight
