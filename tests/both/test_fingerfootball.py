"""Finger Football rulebook passages, run under CPython (pytest) and MicroPython.

Spots are yards from the goal line of the team with the ball (own 20 = 20,
opp 30 = 70). Default field: symbol rows at the 20, 30 and 40 of each half.
"""
from checks import raises

from rules.fingerfootball import FingerFootball

HOME, AWAY = 0, 1


def kicked_off(kicker=HOME, seed=1):
    """A game just after the toss: `kicker` won it, chose to kick, the other picked north."""
    game = FingerFootball(seed)
    game.act("toss", kicker)
    game.act("kick")
    game.act("goal", "north")
    return game


def scrimmage(ball, offense=HOME, **changes):
    """`offense` has the ball on `ball` after a kickoff that stopped there."""
    game = kicked_off(1 - offense)
    game.act("in_field", ball)
    if changes:
        return place(game, **changes)
    return game


def place(game, **changes):
    """The same game restored from a snapshot with some fields changed (save/resume API)."""
    snap = game.snapshot()
    for key in changes:
        snap[key] = changes[key]
    return FingerFootball.restore(snap)


def unchanged_after(game, name, arg=None):
    """Insist the action is refused with a ValueError and the state is untouched."""
    before = game.snapshot()
    error = raises(ValueError, game.act, name, arg)
    assert game.snapshot() == before
    return str(error)


# ---------------------------------------------------------------- starting play

def test_toss_winner_chooses_kick_or_receive_and_loser_picks_goal():
    game = FingerFootball(1)
    assert game.action_names() == ["toss"]
    game.act("toss", AWAY)
    assert game.actor() == AWAY and game.action_names() == ["kick", "receive"]
    game.act("receive")
    assert game.actor() == HOME and game.action_names() == ["goal"]
    game.act("goal", "south")
    snap = game.snapshot()
    assert snap["ends"] == ["south", "north"]
    assert snap["phase"] == "kickoff" and snap["offense"] == HOME  # AWAY receives
    assert snap["plays"] == 0 and snap["quarter"] == 1


def test_engine_coin_is_seeded():
    winners = []
    for seed in range(20):
        game = FingerFootball(seed)
        game.act("toss")
        winners.append(game.snapshot()["toss_winner"])
        again = FingerFootball(seed)
        again.act("toss")
        assert again.snapshot()["toss_winner"] == winners[-1]
    assert 0 in winners and 1 in winners


# ---------------------------------------------------------------- kicking off

def test_kickoff_resting_on_the_field_starts_play_there():
    game = kicked_off(HOME)
    game.act("in_field", 27)
    snap = game.snapshot()
    assert snap["offense"] == AWAY and snap["ball"] == 27 and snap["down"] == 1
    assert snap["line"] == "own 27" and snap["plays"] == 0


def test_kickoff_touching_goal_line_or_end_zone_gives_receivers_20():
    game = kicked_off(HOME)
    game.act("end_zone")
    assert game.snapshot()["ball"] == 20 and game.snapshot()["offense"] == AWAY


def test_kickoff_out_of_bounds_gives_receivers_40():
    game = kicked_off(AWAY)
    game.act("out_of_bounds")
    assert game.snapshot()["ball"] == 40 and game.snapshot()["offense"] == HOME


def test_no_fumbles_on_kickoffs():
    game = kicked_off()
    assert "fumble" not in game.action_names()
    unchanged_after(game, "fumble", 30)


# ---------------------------------------------------------------- the play counter

def test_roll_punt_and_field_goal_each_advance_the_play_counter():
    game = scrimmage(20)
    game.act("roll", ["1-run", "left"])
    assert game.snapshot()["plays"] == 1
    game.act("missed")
    game.act("punt")
    assert game.snapshot()["plays"] == 2
    game.act("in_field", 30)
    game = place(game, ball=60, reached50=True)
    game.act("field_goal")
    assert game.snapshot()["plays"] == 3


def test_kickoffs_and_conversions_do_not_advance_the_play_counter():
    game = scrimmage(80)
    game.act("go_for_td")
    assert game.snapshot()["plays"] == 1
    game.act("touchdown")
    game.act("extra_point")
    game.act("good")
    game.act("end_zone")
    assert game.snapshot()["plays"] == 1


# ---------------------------------------------------------------- the dice

def test_roll_names_the_next_zone_of_that_number_ahead():
    game = scrimmage(30)  # own Zone 2
    game.act("roll", ["1-pass", "right"])
    snap = game.snapshot()
    assert snap["phase"] == "attempt" and snap["target"] == "own1 pass right"
    game.act("made")
    assert game.snapshot()["ball"] == 40 and game.snapshot()["down"] == 1
    game.act("roll", ["1-run", "middle"])  # cannot stay in own Zone 1: the opponent's Zone 1
    assert game.snapshot()["target"] == "opp1 run middle"
    game.act("made")
    assert game.snapshot()["line"] == "opp 40"


def test_choice_overrides_the_zone_die():
    game = scrimmage(40)
    game.act("roll", ["1-run", "choice"])
    snap = game.snapshot()
    assert snap["phase"] == "choose"
    options = game.actions()[0][2]
    assert "opp3 pass left" in options and "touchdown" in options
    assert "own1 run left" not in options  # never within or behind the own zone
    game.act("target", "opp2 pass left")
    game.act("made")
    assert game.snapshot()["line"] == "opp 30"


def test_td_on_the_die_forces_a_touchdown_attempt():
    game = scrimmage(20)
    game.act("roll", ["3-run", "td"])
    assert game.snapshot()["target"] == "touchdown"
    assert "touchdown" in game.action_names() and "made" not in game.action_names()


def test_own_zone_3_may_use_either_zone_2():
    game = scrimmage(20)
    game.act("roll", ["2-pass", "middle"])
    assert game.actions()[0][2] == ["own2 pass middle", "opp2 pass middle"]
    game.act("target", "opp2 pass middle")
    game.act("made")
    assert game.snapshot()["ball"] == 70


def test_opponents_zone_2_gives_choice_unless_zone_3_is_rolled():
    for face in ("1-run", "2-pass"):
        game = scrimmage(70)
        game.act("roll", [face, "left"])
        assert game.snapshot()["phase"] == "choose"
        assert "touchdown" in game.actions()[0][2]
    game = scrimmage(70)
    game.act("roll", ["3-run", "left"])
    assert game.snapshot()["target"] == "opp3 run left"


def test_opponents_zone_3_has_no_roll_only_touchdown_or_field_goal():
    game = scrimmage(80)
    assert sorted(game.action_names()) == ["field_goal", "go_for_td"]
    assert "dice" in unchanged_after(game, "roll")
    game.act("go_for_td")
    game.act("missed")
    assert game.snapshot()["down"] == 2 and game.snapshot()["plays"] == 1
    game.act("field_goal")
    game.act("no_good")
    snap = game.snapshot()
    assert snap["offense"] == AWAY and snap["ball"] == 20  # previous line, seen from AWAY


def test_hand_entered_dice_are_checked():
    game = scrimmage(20)
    unchanged_after(game, "roll", ["4-run", "left"])
    unchanged_after(game, "roll", ["1-run", "sideways"])
    unchanged_after(game, "roll", "1-run")


# ---------------------------------------------------------------- downs

def test_four_downs_then_turnover_at_the_original_line():
    game = scrimmage(30)
    for down in (1, 2, 3):
        assert game.snapshot()["down"] == down
        game.act("roll", ["1-run", "left"])
        game.act("missed")
        assert game.snapshot()["ball"] == 30
    assert game.snapshot()["down"] == 4
    assert "punt" in game.action_names()
    game.act("roll", ["1-run", "left"])  # goes for it
    game.act("missed")
    snap = game.snapshot()
    assert snap["offense"] == AWAY and snap["ball"] == 70 and snap["down"] == 1


def test_fourth_down_punt_resting_on_the_field():
    game = scrimmage(30, down=4)
    game.act("punt")
    assert "fumble" not in game.action_names()
    game.act("in_field", 25)
    snap = game.snapshot()
    assert snap["offense"] == AWAY and snap["ball"] == 25 and snap["down"] == 1


def test_punt_into_the_end_zone_gives_receivers_20():
    game = scrimmage(45)
    game.act("punt")
    game.act("end_zone")
    assert game.snapshot()["ball"] == 20


def test_punt_out_of_bounds_is_spotted_where_it_crossed():
    game = scrimmage(45)
    game.act("punt")
    game.act("out_of_bounds", 33)
    assert game.snapshot()["ball"] == 33 and game.snapshot()["offense"] == AWAY


def test_punt_cannot_land_behind_the_line():
    game = scrimmage(45)
    game.act("punt")
    unchanged_after(game, "in_field", 56)  # 56 from the receiver's goal = behind the kicker's 45


def test_punt_must_be_announced():
    game = scrimmage(30)
    assert "announced" in unchanged_after(game, "in_field", 30)
    game.act("roll", ["1-run", "left"])
    assert "before the dice" in unchanged_after(game, "punt")


# ---------------------------------------------------------------- turnovers and scores

def test_red_football_is_a_turnover_at_that_point():
    game = scrimmage(40)
    game.act("roll", ["1-run", "left"])
    game.act("fumble", 45)
    snap = game.snapshot()
    assert snap["offense"] == AWAY and snap["ball"] == 45 and snap["down"] == 1


def test_touchdown_six_then_extra_point_one():
    game = scrimmage(80)
    game.act("go_for_td")
    game.act("touchdown")
    assert game.snapshot()["score"] == [6, 0]
    assert game.action_names() == ["extra_point", "two_point"]
    game.act("extra_point")
    game.act("good")
    snap = game.snapshot()
    assert snap["score"] == [7, 0] and snap["phase"] == "kickoff" and snap["offense"] == HOME


def test_two_point_conversion_scores_two():
    game = scrimmage(20)
    game.act("roll", ["3-pass", "td"])
    game.act("touchdown")
    game.act("two_point")
    game.act("good")
    assert game.snapshot()["score"] == [8, 0]
    assert game.snapshot()["stats"][HOME] == [1, 0, 0, 1]


def test_missed_conversion_scores_nothing_more():
    game = scrimmage(80)
    game.act("go_for_td")
    game.act("touchdown")
    game.act("extra_point")
    game.act("no_good")
    assert game.snapshot()["score"] == [6, 0]


def test_touchdown_try_through_the_end_zone_is_a_touchback():
    game = scrimmage(40)
    game.act("roll", ["1-run", "td"])
    game.act("touchback")
    snap = game.snapshot()
    assert snap["offense"] == AWAY and snap["ball"] == 20 and snap["score"] == [0, 0]


def test_field_goal_only_after_touching_the_50():
    game = scrimmage(40)
    assert "50" in unchanged_after(game, "field_goal")
    game.act("roll", ["1-run", "left"])
    game.act("made")  # opp 40
    game = place(game, ball=45)  # pushed back later in the drive: still allowed
    game.act("field_goal")
    game.act("good")
    snap = game.snapshot()
    assert snap["score"] == [3, 0] and snap["phase"] == "kickoff" and snap["offense"] == HOME
    assert "onside" not in game.action_names()


def test_kickoff_starting_on_the_50_allows_a_field_goal():
    game = scrimmage(50)
    assert "field_goal" in game.action_names()


def test_missed_field_goal_gives_the_ball_at_the_previous_line():
    game = scrimmage(65)
    game.act("field_goal")
    game.act("no_good")
    snap = game.snapshot()
    assert snap["offense"] == AWAY and snap["ball"] == 35


def test_onside_kick_after_a_touchdown_made_at_the_opponents_30():
    game = scrimmage(80)
    game.act("go_for_td")
    game.act("touchdown")
    game.act("two_point")
    game.act("no_good")
    game.act("onside")
    game.act("good")
    snap = game.snapshot()
    assert snap["offense"] == HOME and snap["line"] == "opp 30"


def test_onside_kick_missed_gives_the_defence_its_own_40():
    game = scrimmage(80)
    game.act("go_for_td")
    game.act("touchdown")
    game.act("extra_point")
    game.act("good")
    game.act("onside")
    game.act("no_good")
    snap = game.snapshot()
    assert snap["offense"] == AWAY and snap["ball"] == 40


def test_no_onside_kick_at_the_opening_kickoff():
    game = kicked_off()
    assert "touchdown" in unchanged_after(game, "onside")


# ---------------------------------------------------------------- penalties

def test_penalty_accepted_moves_back_15_with_loss_of_down():
    game = scrimmage(60)
    game.act("roll", ["2-run", "left"])
    game.act("flag")
    assert game.actor() == AWAY
    game.act("accept")
    snap = game.snapshot()
    assert snap["ball"] == 45 and snap["down"] == 2


def test_penalty_near_the_own_goal_is_half_the_distance():
    game = scrimmage(20)
    game.act("roll", ["2-run", "left"])
    game.act("target", "own2 run left")
    game.act("flag")
    game.act("accept")
    assert game.snapshot()["ball"] == 10 and game.snapshot()["down"] == 2


def test_penalty_refused_is_a_normal_loss_of_down():
    game = scrimmage(60)
    game.act("roll", ["2-run", "left"])
    game.act("flag")
    game.act("refuse")
    assert game.snapshot()["ball"] == 60 and game.snapshot()["down"] == 2


def test_penalty_on_fourth_down_turns_the_ball_over_at_the_new_spot():
    game = scrimmage(60, down=4)
    game.act("roll", ["2-run", "left"])
    game.act("flag")
    game.act("accept")
    snap = game.snapshot()
    assert snap["offense"] == AWAY and snap["ball"] == 55


# ---------------------------------------------------------------- game length

def test_twenty_plays_end_the_quarter_and_change_ends():
    game = scrimmage(30, plays=19)
    game.act("roll", ["1-run", "left"])
    game.act("made")
    snap = game.snapshot()
    assert snap["quarter"] == 2 and snap["plays"] == 0
    assert snap["ends"] == ["south", "north"]
    assert snap["offense"] == HOME and snap["ball"] == 40  # the drive goes on


def test_half_time_the_toss_loser_picks_for_the_second_half():
    game = scrimmage(30, plays=19, quarter=2)  # AWAY won the toss and kicked
    game.act("punt")
    game.act("in_field", 40)
    snap = game.snapshot()
    assert snap["phase"] == "half_choice" and snap["quarter"] == 3
    assert game.actor() == HOME
    game.act("kick")
    assert game.snapshot()["phase"] == "kickoff" and game.snapshot()["offense"] == HOME


def test_conversion_after_the_last_play_is_still_kicked():
    game = scrimmage(80, plays=19, quarter=4)
    game.act("go_for_td")
    game.act("touchdown")
    assert game.snapshot()["phase"] == "conversion"
    game.act("extra_point")
    game.act("good")
    snap = game.snapshot()
    assert snap["phase"] == "over" and snap["winner"] == HOME and snap["score"] == [7, 0]
    assert game.actions() == []
    assert "over" in unchanged_after(game, "roll")


def test_tie_after_four_quarters_goes_to_overtime_with_a_new_toss():
    game = scrimmage(30, plays=19, quarter=4)
    game.act("punt")
    game.act("end_zone")
    snap = game.snapshot()
    assert snap["phase"] == "toss" and snap["quarter"] == 5
    game.act("toss", AWAY)
    game.act("receive")  # no goal choice again
    assert game.snapshot()["phase"] == "kickoff" and game.snapshot()["offense"] == HOME


def test_overtime_ends_when_a_quarter_ends_with_a_leader():
    game = scrimmage(65, plays=19, quarter=5)
    game.act("field_goal")
    game.act("good")
    snap = game.snapshot()
    assert snap["phase"] == "over" and snap["winner"] == HOME


# ---------------------------------------------------------------- settings, saving, bad input

def test_sixth_face_of_the_second_die_is_a_setting():
    assert FingerFootball(1).settings["lane_die"].count("choice") == 2
    game = FingerFootball(1, {"lane_die": ["left", "middle", "right", "choice", "td", "td"]})
    assert game.settings["lane_die"].count("td") == 2
    raises(ValueError, FingerFootball, 1, {"lane_die": ["left", "middle", "right", "choice", "td"]})
    raises(ValueError, FingerFootball, 1, {"lane_die": ["left"] * 5 + ["td"]})
    raises(ValueError, FingerFootball, 1, {"plays_per_quarter": 0})
    raises(ValueError, FingerFootball, 1, {"quarters": 3})
    raises(ValueError, FingerFootball, 1, {"rows": [20, 30, 60]})
    raises(ValueError, FingerFootball, 1, {"colour": "red"})


def test_engine_dice_follow_the_configured_faces():
    faces = ["left", "middle", "right", "choice", "td", "td"]
    start = scrimmage(30).snapshot()
    seen = set()
    tds = 0
    for seed in range(60):
        game = place(scrimmage(30), settings={"lane_die": faces}, rng=start["rng"] + seed)
        game.act("roll")
        face = game.snapshot()["dice"][1]
        seen.add(face)
        tds += face == "td"
    assert seen == {"left", "middle", "right", "choice", "td"}
    assert tds >= 12  # two faces of six: about 20 of 60


def test_saved_game_resumes_with_the_same_dice():
    game = scrimmage(30)
    resumed = FingerFootball.restore(game.snapshot())
    game.act("roll")
    resumed.act("roll")
    assert game.snapshot() == resumed.snapshot()


def test_restore_refuses_what_is_not_a_saved_game():
    raises(ValueError, FingerFootball.restore, {"version": 99})
    raises(ValueError, FingerFootball.restore, [])
    snap = FingerFootball(1).snapshot()
    del snap["score"]
    raises(ValueError, FingerFootball.restore, snap)
    snap = FingerFootball(1).snapshot()
    snap["phase"] = "lunch"
    raises(ValueError, FingerFootball.restore, snap)


def test_bad_arguments_leave_the_state_unchanged():
    game = kicked_off()
    unchanged_after(game, "in_field", 0)
    unchanged_after(game, "in_field", 100)
    unchanged_after(game, "in_field", "30")
    unchanged_after(game, "end_zone", 5)
    unchanged_after(game, "dance")
    game = FingerFootball(1)
    unchanged_after(game, "toss", 2)
    assert "toss" in unchanged_after(game, "kick")


def test_every_symbol_row_lies_in_its_own_zone_and_the_field_is_mirrored():
    from rules import fingerfootball_field as field
    rows = field.DEFAULT_ROWS
    assert [field.row_yards(z, rows) for z in range(6)] == [20, 30, 40, 60, 70, 80]
    for zone in range(6):
        assert field.zone_of(field.row_yards(zone, rows), rows) == zone
    for yards in range(0, 101):
        if yards != 50:
            assert field.zone_of(100 - yards, rows) == 5 - field.zone_of(yards, rows)
    assert field.zone_of(50, rows) == 2  # midfield still counts as the own Zone 1


def test_restore_refuses_damaged_fields():
    good = scrimmage(30).snapshot()
    damage = [("score", ["x", 0]), ("score", [1]), ("down", 5), ("down", True), ("ball", 101),
              ("offense", 2), ("ends", ["east", "west"]), ("target", "moon"), ("dice", ["7-run", "left"]),
              ("stats", [[0, 0, 0], [0, 0, 0, 0]]), ("plays", 21), ("rng", 0), ("toss_winner", None),
              ("winner", 0), ("reached50", "yes"), ("phase", "attempt"), ("phase", "choose")]
    for key, value in damage:
        snap = good.copy()
        snap[key] = value
        raises(ValueError, FingerFootball.restore, snap)
    assert FingerFootball.restore(good).snapshot() == good


def test_zone_1_rolled_in_the_opponents_zone_1_gives_choice():
    game = scrimmage(60)
    game.act("roll", ["1-run", "middle"])
    assert game.snapshot()["phase"] == "choose"
    options = game.actions()[0][2]
    assert "opp2 run left" in options and "touchdown" in options
    assert not [o for o in options if o.startswith("opp1")]


def test_zone_3_rolled_in_the_own_zone_3_means_the_opponents_zone_3():
    game = scrimmage(20)
    game.act("roll", ["3-pass", "right"])
    assert game.snapshot()["target"] == "opp3 pass right"
    game.act("made")
    assert game.snapshot()["line"] == "opp 20"


def test_a_penalty_behind_the_50_keeps_the_field_goal():
    game = scrimmage(40)
    game.act("roll", ["1-run", "left"])
    game.act("made")  # opp 40: the 50 is crossed
    game.act("roll", ["2-run", "left"])
    game.act("flag")
    game.act("accept")
    assert game.snapshot()["line"] == "own 45"
    assert "field_goal" in game.action_names()


# ---------------------------------------------------------------- events and phases

def test_act_returns_the_events_it_caused_in_order():
    game = scrimmage(80)
    events = game.act("go_for_td")
    assert events == [{"event": "play", "action": "go_for_td", "message": game.snapshot()["message"]}]
    events = game.act("touchdown")
    assert [e["event"] for e in events] == ["play", "score"]
    assert events[1] == {"event": "score", "score": [6, 0], "team": HOME, "points": 6}
    assert events[0]["message"] == game.snapshot()["message"] and "6-0" in events[0]["message"]
    game.act("extra_point")
    events = game.act("good")
    assert events[1] == {"event": "score", "score": [7, 0], "team": HOME, "points": 1}
    events = game.act("in_field", 30)  # the kickoff: AWAY gets the ball on its own 30
    assert events[1:] == [{"event": "possession", "team": AWAY, "down": 1, "line": "own 30"}]


def test_the_last_play_of_the_game_reports_the_final_quarter_and_the_winner():
    game = scrimmage(80, plays=19, quarter=4)
    game.act("go_for_td")
    events = game.act("touchdown")
    assert [e["event"] for e in events] == ["play", "score"]  # a conversion is no play
    game.act("extra_point")
    events = game.act("good")
    assert events[1:3] == [{"event": "score", "score": [7, 0], "team": HOME, "points": 1},
                          {"event": "quarter", "quarter": 4, "over": True, "winner": HOME}]


def test_every_phase_has_one_row_with_a_hint_and_a_status():
    from rules.fingerfootball import PHASES, phase_hint, phase_status
    names = [row[0] for row in PHASES]
    assert len(names) == len(set(names)) == 16
    for name, hint, status in PHASES:
        assert phase_hint(name) == hint and phase_status(name) == status
        assert hint and status and status == status.upper()
    raises(ValueError, phase_hint, "halftime_show")
    # a refusal quotes the hint of the phase the game is in
    game = kicked_off()
    assert phase_hint("kickoff") in unchanged_after(game, "roll")
