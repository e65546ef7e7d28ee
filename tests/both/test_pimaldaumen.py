"""Pi mal Daumen rules: every rulebook example, on CPython and MicroPython."""
from checks import raises

from rules.pimaldaumen import (
    BONUS_GUESS,
    BONUS_QUESTION,
    CHOOSE,
    GUESS,
    OVER,
    QUESTION,
    Board,
    Game,
    Round,
    check_scale,
    decimal_text,
    exact,
    score,
)

# The rulebook's three example cards.
DINOSAURS = [12, 3, 120, 6, 175, 6, 240, 4, 330, 3, 520, 2, 600]
SUBWAY = [100, 3, 390, 6, 463, 6, 490, 4, 570, 3, 700, 2, 980]
BLADDER = [300, 3, 400, 6, 600, 6, 800, 4, 930, 3, 1050, 2, 1300]
# A scale where an answer of "1" scores 1, "2" scores 2, ... "6" scores 6,
# to make the points of a guess obvious in the track tests.
POINTS = [0, 1, "1.5", 2, "2.5", 3, "3.5", 4, "4.5", 5, "5.5", 6, 7]


def board(size, special=None):
    """A start, `size` yellow fields and a goal; `special` maps field -> extra keys."""
    fields = [{"kind": "start"}]
    for i in range(1, size + 1):
        field = {"colour": "yellow"}
        field.update((special or {}).get(i, {}))
        fields.append(field)
    fields.append({"kind": "goal"})
    return Board({"fields": fields})


def game_at(track, positions, questioner=0):
    """A game whose pieces already stand on `positions`, waiting for a question."""
    return Game.from_state(track, {
        "players": len(positions), "positions": positions, "questioner": questioner,
        "phase": QUESTION, "round": None, "bonus_seat": None, "bonus_scale": None,
        "pending": None, "winner": None})


def moves(events):
    return [(e["seat"], e["from"], e["to"]) for e in events if e["event"] == "move"]


# -- the scale ---------------------------------------------------------------

def test_example_round_scores_from_the_dinosaur_card():
    assert score(DINOSAURS, 10) == 0      # Wolfgang: outside
    assert score(DINOSAURS, 500) == 3     # Bärbel: between 330 and 520
    assert score(DINOSAURS, 350) == 3     # Gaby
    assert score(DINOSAURS, 240) == 6     # Annette: on 240, the higher of 6 and 4


def test_scale_ends_are_inside_and_beyond_is_outside():
    assert score(SUBWAY, 100) == 3
    assert score(SUBWAY, 980) == 2
    assert score(SUBWAY, 99) == 0
    assert score(SUBWAY, 981) == 0
    assert score(SUBWAY, "979.999") == 2
    assert score(SUBWAY, "980.001") == 0


def test_decimals_compare_exactly():
    assert score(BLADDER, "1050") == 3    # boundary between 3 and 2: the higher
    assert score(BLADDER, "1050.0000001") == 2
    assert score(BLADDER, "1 049,99") == 3
    assert score(["-273.15", 6, "-273.1", 2, 0], "-273,15") == 6
    assert score(["0.1", 6, "0.3", 1, 1], "0.30000000000000004") == 1


def test_numbers_are_read_exactly():
    assert exact(175) == (175, 0)
    assert exact("3,50") == (35, 1)
    assert exact("-0.25") == (-25, 2)
    assert exact(" 1'050 ") == (1050, 0)
    assert exact(".5") == (5, 1)


def test_numbers_have_one_canonical_text():
    assert decimal_text("1 050,0") == "1050"
    assert decimal_text("-273,15") == "-273.15"
    # A comma before exactly three digits could group thousands: refused, not guessed.
    assert "1050 or 1.050" in str(raises(ValueError, decimal_text, "1,050"))
    assert "-273150 or -273.150" in str(raises(ValueError, decimal_text, "-273,150"))
    assert decimal_text(".05") == "0.05"
    assert decimal_text("-0.5") == "-0.5"
    assert decimal_text("+12") == "12"
    assert decimal_text(-7) == "-7"


def test_non_numbers_are_refused_in_words_a_player_understands():
    for bad in ("", "abc", "1.2.3", "12a", "-", "1e5", "²", None, True, [1]):
        message = str(raises(ValueError, exact, bad))
        assert "number" in message
    assert "text" in str(raises(ValueError, exact, 1.5))
    assert "too many digits" in str(raises(ValueError, exact, "1" * 31))
    assert exact("0." + "0" * 28 + "1") == (1, 29)


def test_a_pasted_page_is_cut_in_the_message():
    message = str(raises(ValueError, exact, "7" * 5000))
    assert message == "'7777777777777777777... has too many digits: 5000, at most 30, please"
    message = str(raises(ValueError, exact, "1" + "_" * 4000 + ",000"))
    assert message == ("'1__________________... (4005 characters) could be a thousands comma or "
                       "a decimal comma: type 1000 or 1.000")
    message = str(raises(ValueError, exact, "?" * 5000))
    assert message == ("'???????????????????... (5000 characters) is not a number: "
                       "answer with digits, e.g. 175 or 3.5")
    message = str(raises(ValueError, exact, [1] * 5000))
    assert message == "an answer must be a number, not [1, 1, 1, 1, 1, 1, 1..."
    # a short answer is shown whole
    message = str(raises(ValueError, exact, "12a"))
    assert message == "'12a' is not a number: answer with digits, e.g. 175 or 3.5"


def test_broken_scales_are_refused():
    raises(ValueError, check_scale, [1, 6])
    raises(ValueError, check_scale, [5, 6, 5])
    raises(ValueError, check_scale, [5, 6, 4])
    raises(ValueError, check_scale, [1, 7, 2])
    raises(ValueError, check_scale, [1, 0, 2])
    raises(ValueError, check_scale, [1, "6", 2])
    raises(ValueError, check_scale, "1 6 2")


# -- the round ------------------------------------------------------------------

def test_example_round_wolfgang_baerbel_gaby_annette_peter():
    # Clockwise: Peter (questioner), Wolfgang, Bärbel, Gaby, Annette.
    peter, wolfgang, baerbel, gaby, annette = 0, 1, 2, 3, 4
    played = Round(DINOSAURS, peter, 5)
    assert played.guesser == wolfgang
    assert played.answer("10") == 0
    assert played.guesser == baerbel
    assert played.answer("500") == 3
    assert played.guesser == gaby
    assert played.answer("350") == 0     # 3 again does not beat Bärbel's 3
    assert played.guesser == annette
    assert played.answer("240") == 6
    assert played.over and played.guesser is None
    assert played.questioner_points == 0
    raises(ValueError, played.answer, "175")


def test_questioner_gets_six_minus_the_best_result():
    # Rulebook: Wolfgang 0, Bärbel 2, Annette 3, Peter 4, so Gaby (questioner)
    # gets 6 - 4 = 2. Results must rise to be earned, so we seat them in the
    # order the rulebook lists them after Gaby.
    gaby = 0
    played = Round(POINTS, gaby, 5)
    assert played.questioner_points is None
    assert [played.answer(v) for v in ("-1", "2", "3", "4")] == [0, 2, 3, 4]
    assert played.over
    assert played.questioner_points == 2


def test_questioner_gets_six_when_everybody_is_outside():
    played = Round(POINTS, 2, 3)
    played.answer("100")
    played.answer("-100")
    assert played.questioner_points == 6


def test_bad_answer_leaves_the_round_unchanged():
    played = Round(DINOSAURS, 0, 3)
    raises(ValueError, played.answer, "viel")
    assert played.guesser == 1 and played.answers == []


def test_round_refuses_bad_tables():
    raises(ValueError, Round, DINOSAURS, 0, 1)
    raises(ValueError, Round, DINOSAURS, 0, 7)
    raises(ValueError, Round, DINOSAURS, 3, 3)


# -- the board -------------------------------------------------------------------

def test_question_colour_comes_from_the_questioners_field_salmon_from_start():
    # The rulebook's example says Wolfgang's field chose the question, but its
    # rules section (followed here) says the questioner's own field decides.
    track = board(4, {1: {"colour": "green"}, 2: {"colour": "salmon"}})
    game = game_at(track, [1, 0, 2], questioner=0)
    assert game.question_colour == "green"
    game = game_at(track, [1, 0, 2], questioner=1)
    assert game.question_colour == "salmon"
    game = game_at(track, [1, 0, 3], questioner=2)
    assert game.question_colour == "yellow"


def test_broken_boards_are_refused_with_the_field_number():
    assert "field 1" in str(raises(ValueError, Board, {"fields": [
        {"kind": "start"}, {"colour": "blue"}, {"kind": "goal"}]}))
    assert "field 2" in str(raises(ValueError, Board, {"fields": [
        {"kind": "start"}, {"colour": "green"}, {"colour": "green", "minus": 3},
        {"kind": "goal"}]}))
    raises(ValueError, Board, {"fields": [{"colour": "green"}, {"kind": "goal"}]})
    raises(ValueError, Board, [])


def test_example_round_on_the_track():
    peter, wolfgang, baerbel, gaby, annette = 0, 1, 2, 3, 4
    game = Game(board(20), 5, first_questioner=peter)
    game.start_round(DINOSAURS)
    assert game.guesser == wolfgang
    assert moves(game.answer("10")) == []
    assert moves(game.answer("500")) == [(baerbel, 0, 3)]
    assert moves(game.answer("350")) == []
    events = game.answer("240")
    # Annette lands on 6 fields; nobody is there.
    assert moves(events) == [(annette, 0, 6)]
    # Wolfgang asks next; his piece is still on the start: salmon question.
    assert events[-1] == {"event": "turn", "questioner": wolfgang, "colour": "salmon"}
    assert game.positions == [0, 0, 3, 0, 6]
    assert game.phase == QUESTION and game.questioner == wolfgang
    assert game.positions[gaby] == 0


def test_moving_onto_occupied_fields_goes_to_the_next_free_one():
    game = game_at(board(20), [0, 3, 4, 6])
    game.start_round(POINTS)
    assert moves(game.answer("3")) == [(1, 3, 7)]      # 6 is taken, 7 is free
    assert moves(game.answer("4")) == [(2, 4, 8)]      # 8 is free
    assert moves(game.answer("6")) == [(3, 6, 12)]


def test_questioner_moves_six_minus_best():
    game = game_at(board(20), [0, 0, 0])
    game.start_round(POINTS)
    game.answer("2")
    events = game.answer("4")
    assert {"event": "questioner", "seat": 0, "points": 2} in events
    assert moves(events) == [(2, 0, 4), (0, 0, 3)]     # field 2 is taken


def _minus_example(points, minus):
    # Seat 1 stands first on a minus field at 10 and guesses for `points`.
    game = game_at(board(20, {10: {"minus": minus}}), [0, 10, 5])
    game.start_round(POINTS)
    events = game.answer(str(points) if points else "-5")
    return game.positions[1], events


def test_minus_example_1_four_points_minus_one_moves_three():
    assert _minus_example(4, -1)[0] == 13


def test_minus_example_2_two_points_minus_two_stays():
    position, events = _minus_example(2, -2)
    assert position == 10
    assert [e for e in events if e["event"] == "move"][0]["minus"] == 2


def test_minus_example_3_three_points_minus_four_moves_one_back():
    assert _minus_example(3, -4)[0] == 9


def test_minus_example_4_zero_points_minus_four_moves_four_back():
    assert _minus_example(0, -4)[0] == 6


def test_minus_field_only_brakes_the_leader():
    game = game_at(board(20, {10: {"minus": -4}}), [0, 10, 11])
    game.start_round(POINTS)
    game.answer("3")
    assert game.positions[1] == 13


def test_moving_back_onto_occupied_fields_goes_to_the_next_free_one_behind():
    game = game_at(board(20, {10: {"minus": -4}}), [0, 10, 6, 5])
    game.start_round(POINTS)
    game.answer("-99")        # 0 points, 4 back: 6 and 5 are taken
    assert game.positions[1] == 4


def test_moving_back_stops_at_the_start_which_everyone_may_share():
    game = game_at(board(6, {2: {"minus": -4}}), [0, 2, 1])
    game.start_round(POINTS)
    game.answer("-99")
    assert game.positions[1] == 0


def test_questioner_also_brakes_on_a_minus_field():
    game = game_at(board(20, {10: {"minus": -1}}), [10, 0, 0])
    game.start_round(POINTS)
    game.answer("1")
    events = game.answer("3")
    assert {"event": "questioner", "seat": 0, "points": 3} in events
    assert game.positions[0] == 12     # 3 points minus 1


def test_reaching_the_goal_ends_the_game_at_once():
    game = game_at(board(10), [0, 6, 2])
    game.start_round(POINTS)
    events = game.answer("5")       # 6 + 5 overshoots the goal at 11: still the goal
    assert events[-1] == {"event": "win", "seat": 1}
    assert game.phase == OVER and game.winner == 1 and game.positions[1] == 11
    assert game.guesser is None
    assert "over" in str(raises(ValueError, game.answer, "6"))
    raises(ValueError, game.start_round, POINTS)


def test_last_player_on_a_bonus_field_gets_one_bonus_question_for_double():
    track = board(30, {5: {"bonus": True, "colour": "green"}})
    game = game_at(track, [5, 8, 9])
    game.start_round(POINTS)
    game.answer("1")
    events = game.answer("6")
    assert {"event": "bonus", "seat": 0, "reader": 1, "colour": "green"} in events
    assert game.phase == BONUS_QUESTION and game.reader == 1
    assert game.question_colour == "green"
    game.start_bonus(POINTS)
    assert game.guesser == 0
    events = game.answer("3")
    # Standing on a bonus field, he may stay there; he moves on instead.
    assert events[-1] == {"event": "choose", "seat": 0, "to": 11, "options": [5]}
    assert moves(game.choose(None)) == [(0, 5, 11)]
    # After the bonus, the player left of the old questioner asks next.
    assert game.phase == QUESTION and game.questioner == 1


def test_bonus_answer_outside_moves_nothing():
    game = game_at(board(30, {5: {"bonus": True}}), [5, 8, 9])
    game.start_round(POINTS)
    game.answer("6")
    game.start_bonus(POINTS)
    assert moves(game.answer("100")) == []
    assert game.phase == QUESTION


def test_no_bonus_when_not_last():
    game = game_at(board(30, {5: {"bonus": True}}), [0, 3, 5])
    game.start_round(POINTS)
    game.answer("2")       # 3 -> 5 is taken -> 6
    game.answer("1")       # does not beat 2: stays on the bonus field 5
    assert game.positions == [4, 6, 5]     # questioner 6 - 2 = 4
    assert game.phase == QUESTION and game.bonus_seat is None


def test_crossing_a_free_bonus_field_may_stop_there():
    game = game_at(board(30, {5: {"bonus": True}}), [0, 3, 20])
    game.start_round(POINTS)
    events = game.answer("4")      # 3 -> 7 crosses the bonus field 5
    assert events[-1] == {"event": "choose", "seat": 1, "to": 7, "options": [5]}
    assert game.phase == CHOOSE
    assert "stop on field 5" in str(raises(ValueError, game.choose, 6))
    assert game.phase == CHOOSE and game.positions[1] == 3
    events = game.choose(5)
    assert moves(events) == [(1, 3, 5)]
    assert game.phase == GUESS and game.guesser == 2


def test_crossing_a_bonus_field_may_also_move_on():
    game = game_at(board(30, {5: {"bonus": True}}), [0, 3, 20])
    game.start_round(POINTS)
    game.answer("4")
    game.choose(None)
    assert game.positions[1] == 7


def test_occupied_bonus_field_is_no_option():
    game = game_at(board(30, {5: {"bonus": True}}), [0, 3, 5])
    game.start_round(POINTS)
    assert moves(game.answer("4")) == [(1, 3, 7)]


def test_bad_actions_leave_the_game_unchanged():
    game = game_at(board(20), [0, 0, 0])
    raises(ValueError, game.answer, "5")
    raises(ValueError, game.choose, None)
    raises(ValueError, game.start_bonus, POINTS)
    raises(ValueError, game.start_round, [1, 2])
    game.start_round(POINTS)
    before = game.state()
    raises(ValueError, game.answer, "fünf")
    raises(ValueError, game.start_round, POINTS)
    assert game.state() == before


def test_a_saved_game_resumes_where_it_stopped():
    game = game_at(board(30, {5: {"bonus": True}}), [0, 3, 20])
    game.start_round(POINTS)
    game.answer("4")
    saved = game.state()
    resumed = Game.from_state(game.board, saved)
    assert resumed.state() == saved
    assert moves(resumed.choose(5)) == moves(game.choose(5))
    assert resumed.state() == game.state()


def test_broken_saves_are_refused():
    track = board(10)
    raises(ValueError, Game.from_state, track, {})
    saved = game_at(track, [0, 0]).state()
    saved["positions"] = [0, 99]
    raises(ValueError, Game.from_state, track, saved)
    saved["positions"] = [0, 0]
    saved["phase"] = GUESS
    raises(ValueError, Game.from_state, track, saved)
    saved["phase"] = BONUS_GUESS
    raises(ValueError, Game.from_state, track, saved)
    saved["bonus_seat"] = 1
    raises(ValueError, Game.from_state, track, saved)     # no bonus scale
    saved["phase"] = OVER
    raises(ValueError, Game.from_state, track, saved)     # no winner
    saved["phase"] = CHOOSE
    saved["pending"] = {"seat": 0, "to": 40, "options": [2], "points": 3, "minus": 0,
                        "reason": "questioner"}
    raises(ValueError, Game.from_state, track, saved)     # field 40 is off the board
    saved["phase"] = QUESTION
    saved["positions"] = [4, 4]
    assert "two pieces" in str(raises(ValueError, Game.from_state, track, saved))
