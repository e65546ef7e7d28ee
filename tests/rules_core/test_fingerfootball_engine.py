"""Finger Football engine properties (hypothesis) and CPython/MicroPython agreement."""
from hypothesis import given, settings
from hypothesis import strategies as st
from scenario_fingerfootball import random_game

from propctl.shared.rules.fingerfootball import POINTS_FG, POINTS_KICK, POINTS_TD, POINTS_TWO, FingerFootball

PER_TD_FG_KICK_TWO = (POINTS_TD, POINTS_FG, POINTS_KICK, POINTS_TWO)


def check_invariants(snap, plays_per_quarter=20, quarters=4):
    for team in (0, 1):
        stats = snap["stats"][team]
        assert snap["score"][team] == sum(n * p for n, p in zip(stats, PER_TD_FG_KICK_TWO))
        assert stats[2] + stats[3] <= stats[0]  # a conversion only after a touchdown
    assert 0 <= snap["plays"] <= plays_per_quarter
    assert snap["offense"] in (0, 1) and snap["defense"] == 1 - snap["offense"]
    assert 0 <= snap["ball"] <= 100
    assert 1 <= snap["down"] <= 4
    assert snap["quarter"] >= 1
    if snap["phase"] == "over":
        assert snap["quarter"] >= quarters and snap["score"][0] != snap["score"][1]
        assert snap["winner"] == (0 if snap["score"][0] > snap["score"][1] else 1)


@settings(max_examples=60)
@given(seed=st.integers(0, 2**31), data=st.data())
def test_random_legal_streams_keep_the_invariants(seed, data):
    game = FingerFootball(seed)
    for _ in range(400):
        actions = game.actions()
        if not actions:
            break
        name, kind, options = data.draw(st.sampled_from(actions))
        arg = None
        if kind == "pick":
            arg = data.draw(st.sampled_from(options))
        elif kind == "yards":
            arg = data.draw(st.integers(options[0], options[1]))
        before = game.snapshot()
        game.act(name, arg)
        snap = game.snapshot()
        check_invariants(snap)
        if snap["quarter"] == before["quarter"]:
            # the counter moves by at most one, and only on a roll, punt, field goal or TD try
            assert snap["plays"] - before["plays"] in (0, 1)
            if snap["plays"] != before["plays"]:
                assert name in ("roll", "punt", "field_goal", "go_for_td")
        # exactly one side has the ball and one of them must act (except at a toss)
        assert snap["actor"] in (0, 1) or snap["phase"] in ("toss", "over")


@settings(max_examples=40)
@given(seed=st.integers(0, 2**31), name=st.sampled_from(
    ["roll", "punt", "field_goal", "made", "good", "onside", "kick", "toss", "fumble", "accept"]),
    arg=st.one_of(st.none(), st.integers(-5, 120), st.text(max_size=3)))
def test_any_action_is_either_applied_or_refused_without_change(seed, name, arg):
    result = random_game(seed, seed + 1, seed % 150, 0)
    game = FingerFootball.restore(result["final"])
    before = game.snapshot()
    try:
        game.act(name, arg)
    except ValueError as exc:
        assert str(exc)
        assert game.snapshot() == before
    else:
        check_invariants(game.snapshot())


def test_random_games_finish_with_a_winner():
    finished = 0
    for seed in range(30):
        result = random_game(seed, seed + 100, 5000, 200)
        final = result["final"]
        check_invariants(final)
        finished += final["phase"] == "over"
        # every quarter played had exactly its 20 plays: 80 in regulation, 20 per overtime
        counted = sum(1 for row in result["log"] if row[0] in ("roll", "punt", "field_goal", "go_for_td"))
        if final["phase"] == "over":
            assert counted == 20 * final["quarter"]
    assert finished == 30


@settings(max_examples=12)
@given(game_seed=st.integers(0, 2**32 - 1), pick_seed=st.integers(0, 2**32 - 1),
       hand=st.sampled_from([0, 300, 1000]))
def test_whole_random_game_identical_on_both_interpreters(differential, game_seed, pick_seed, hand):
    result = differential.both("scenario_fingerfootball:random_game", game_seed, pick_seed, 3000, hand)
    check_invariants(result["final"])
    assert result["log"] and result["refusals"]


def test_short_games_with_other_settings_identical_on_both_interpreters(differential):
    custom = {"plays_per_quarter": 5, "quarters": 2, "rows": [15, 25, 45],
              "lane_die": ["td", "left", "middle", "right", "choice", "right"], "names": ["Red", "Blue"]}
    quarters_played = []
    for seed in range(5):
        result = differential.both("scenario_fingerfootball:random_game", seed, seed, 2000, 500, custom)
        check_invariants(result["final"], plays_per_quarter=5, quarters=2)
        quarters_played.append(result["final"]["quarter"])
    assert max(quarters_played) > 2  # overtime with its new coin toss is compared too


def test_many_seeded_games_identical_on_both_interpreters(differential):
    results = differential.both("scenario_fingerfootball:many_games", 1000, 20, 3000)
    assert len(results) == 20
    assert all(final["phase"] == "over" for _, final in results)


_JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 130) | st.text(max_size=8),
                     lambda inner: st.lists(inner, max_size=4), max_leaves=6)


@settings(max_examples=150)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 150), data=st.data())
def test_damaged_saves_are_refused_or_still_playable(seed, steps, data):
    snap = random_game(seed, seed, steps, 0)["final"]
    key = data.draw(st.sampled_from(sorted(snap)))
    snap[key] = data.draw(_JSON)
    try:
        game = FingerFootball.restore(snap)
    except ValueError:
        return
    # an accepted save is a consistent game: it saves back to itself and keeps every invariant
    rules = game.settings
    assert FingerFootball.restore(game.snapshot()).snapshot() == game.snapshot()
    check_invariants(game.snapshot(), rules["plays_per_quarter"], rules["quarters"])
    for _ in range(40):  # a restored game must play on without any other error
        actions = game.actions()
        if not actions:
            break
        name, kind, options = data.draw(st.sampled_from(actions))
        arg = None
        if kind == "pick":
            arg = data.draw(st.sampled_from(options))
        elif kind == "yards":
            arg = data.draw(st.integers(options[0], options[1]))
        game.act(name, arg)
        check_invariants(game.snapshot(), rules["plays_per_quarter"], rules["quarters"])


@settings(max_examples=150)
@given(key=st.sampled_from(["plays_per_quarter", "quarters", "rows", "lane_die", "names", "other"]),
       value=_JSON, whole=st.booleans())
def test_damaged_settings_are_refused_with_a_value_error(key, value, whole):
    snap = FingerFootball(1).snapshot()
    if whole:
        snap["settings"] = value
    else:
        snap["settings"][key] = value
    try:
        game = FingerFootball.restore(snap)
    except ValueError:
        return
    game.act("toss")
    assert game.snapshot()["settings"] == game.settings
