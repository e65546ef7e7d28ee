"""Finger weg! rules: the rulebook's worked examples and every rule, on both interpreters."""
from checks import raises

from rules.fingerweg import Game

# The table of Examples 1-3, clockwise: Bastian holds the start card.
BASTIAN, TINA, CLARA, OLIVER, STEFAN, NINA = 0, 1, 2, 3, 4, 5
# The card asks which national flags show a bird; windows 0-2 are opened
# before the examples begin. Ecuador and Albania have birds, Mauritius does not.
ECUADOR, ALBANIA, MAURITIUS = 3, 4, 5


def _three_windows_open():
    game = Game(6)
    game.start_round(MAURITIUS)
    for window in (0, 1, 2):  # Bastian, Tina, Clara choose; everyone leaves fingers on
        result = game.open_window(window, [])
        assert not result.bolt and not result.points and not result.round_over
    return game


def _example_1():
    game = _three_windows_open()
    assert game.chooser == OLIVER
    return game, game.open_window(ECUADOR, [STEFAN, NINA])


def test_example_1_away_players_get_the_open_window_count_and_drop_out():
    game, result = _example_1()
    assert not result.bolt and not result.round_over
    assert result.points == {STEFAN: 4, NINA: 4}
    assert len(result.opened) == 4
    assert game.in_round == (BASTIAN, TINA, CLARA, OLIVER)
    assert game.scores == [0, 0, 0, 0, 4, 4]
    # The fuse box passes left to the next player still in: past Stefan and Nina to Bastian.
    assert game.chooser == BASTIAN


def test_example_2_last_player_in_gets_ten():
    game, _ = _example_1()
    result = game.open_window(ALBANIA, [TINA, OLIVER, CLARA])
    assert not result.bolt and result.round_over
    assert result.points == {TINA: 5, CLARA: 5, OLIVER: 5, BASTIAN: 10}
    assert game.scores == [10, 5, 5, 5, 4, 4]


def test_example_3_bolt_pays_only_the_away_players():
    game, _ = _example_1()
    result = game.open_window(MAURITIUS, [CLARA])
    assert result.bolt and result.round_over
    assert result.points == {CLARA: 10}
    assert game.scores == [0, 0, 10, 0, 4, 4]
    assert not game.round_active and game.in_round == () and game.chooser is None


def test_example_3_had_all_three_laid_bolts_each_gets_ten():
    game, _ = _example_1()
    result = game.open_window(MAURITIUS, [TINA, OLIVER, CLARA])
    assert result.points == {TINA: 10, OLIVER: 10, CLARA: 10}


def test_chooser_hitting_the_bolt_with_nobody_away_scores_nothing():
    game = Game(3)
    game.start_round(2)
    result = game.open_window(2, [])
    assert result.bolt and result.round_over and result.points == {}
    assert game.scores == [0, 0, 0]


def test_only_the_bolt_window_left_closed_pays_everyone_still_in():
    game = Game(4)
    game.start_round(7)
    for window in range(6):
        assert not game.open_window(window, []).round_over
    # The seventh opening: seat 3 is away (gets 7, one per open window),
    # the three still in get 10 each.
    chooser = game.chooser
    away = [seat for seat in range(4) if seat != chooser][0]
    result = game.open_window(6, [away])
    assert result.round_over and not result.bolt
    assert len(result.opened) == 7
    expected = {away: 7}
    for seat in range(4):
        if seat != away:
            expected[seat] = 10
    assert result.points == expected


def test_last_player_in_on_the_last_window_gets_ten_once():
    game = Game(2)
    game.start_round(7)
    for window in range(6):
        game.open_window(window, [])
    chooser = game.chooser
    result = game.open_window(6, [1 - chooser])
    assert result.points == {1 - chooser: 7, chooser: 10}


def test_two_players_an_away_player_who_was_wrong_leaves_the_chooser_alone():
    game = Game(2)
    game.start_round(4)
    result = game.open_window(0, [1])
    assert result.points == {1: 1, 0: 10} and result.round_over


def test_fuse_box_passes_left_only_to_players_still_in():
    game = Game(5)
    game.start_round(7)
    assert game.chooser == 0
    game.open_window(0, [1, 2])
    assert game.chooser == 3
    game.open_window(1, [])
    assert game.chooser == 4
    game.open_window(2, [])
    assert game.chooser == 0


def test_start_card_passes_left_each_round_and_the_game_ends_after_everyone_started():
    game = Game(3)
    starters = []
    while not game.over:
        starters.append(game.starter)
        game.start_round(0)
        assert game.chooser == starters[-1]
        game.open_window(0, [])
    assert starters == [0, 1, 2]
    assert game.starter is None and game.rounds_played == 3
    raises(ValueError, game.start_round, 0)


def test_winners_may_be_joint():
    game = Game(3)
    game.start_round(5)
    game.open_window(5, [1, 2])  # seat 0 hit the bolt; 1 and 2 get 10 each
    assert game.winners == [1, 2]


def test_bad_actions_are_refused_and_change_nothing():
    game, _ = _example_1()
    before = game.state()
    message = str(raises(ValueError, game.open_window, 1, []))
    assert "already open" in message
    assert "always leaves fingers on" in str(raises(ValueError, game.open_window, 6, [BASTIAN]))
    assert "out of this round" in str(raises(ValueError, game.open_window, 6, [STEFAN]))
    assert "no seat" in str(raises(ValueError, game.open_window, 6, [6]))
    assert "twice" in str(raises(ValueError, game.open_window, 6, [TINA, TINA]))
    raises(ValueError, game.open_window, 8, [])
    raises(ValueError, game.open_window, -1, [])
    raises(ValueError, game.open_window, True, [])
    raises(ValueError, game.open_window, 6, [TINA, STEFAN])  # one good seat, one bad: no half move
    raises(ValueError, game.open_window, 6, "1")
    assert "still running" in str(raises(ValueError, game.start_round, 3))
    assert game.state() == before


def test_no_round_no_opening():
    game = Game(2)
    assert "start a round" in str(raises(ValueError, game.open_window, 0, []))
    raises(ValueError, game.start_round, 8)
    raises(ValueError, game.start_round, -1)
    raises(ValueError, game.start_round, "3")
    assert game.state() == Game(2).state()


def test_two_to_eight_players():
    raises(ValueError, Game, 1)
    raises(ValueError, Game, 9)
    raises(ValueError, Game, 2.0)
    assert Game(8).players == 8


def test_saved_game_resumes_identically():
    game, _ = _example_1()
    resumed = Game.from_state(game.state())
    assert resumed.state() == game.state()
    assert resumed.open_window(ALBANIA, [TINA]).points == game.open_window(ALBANIA, [TINA]).points
    assert resumed.state() == game.state()


def test_broken_saved_games_are_refused():
    good = _three_windows_open().state()
    for field, value in (("scores", [0]), ("chooser", 9), ("bolt", 0), ("opened", [0, 0]),
                         ("in", [3]), ("rounds", 7), ("players", 1)):
        broken = dict(good)
        broken[field] = value
        raises(ValueError, Game.from_state, broken)
    raises(ValueError, Game.from_state, {})


def test_result_as_plain_values():
    _, result = _example_1()
    assert result.as_dict() == {"window": ECUADOR, "chooser": OLIVER, "bolt": False,
                                "opened": [0, 1, 2, 3], "points": {"4": 4, "5": 4},
                                "away": [STEFAN, NINA], "round_over": False}


def test_a_new_card_mid_round_ends_it_without_points_and_passes_the_start_card():
    # Rulebook, "New Round": with every new card the start card passes clockwise.
    game, _ = _example_1()  # Stefan and Nina scored 4 each; the round runs on
    scores = game.scores
    game.abandon_round()
    assert not game.round_active and game.in_round == () and game.opened == ()
    assert game.scores == scores  # an unfinished round gives nobody anything
    assert game.rounds_played == 1 and game.starter == TINA
    game.start_round(ALBANIA)
    assert game.chooser == TINA and game.in_round == (0, 1, 2, 3, 4, 5)


def test_abandoned_rounds_count_towards_the_end_of_the_game():
    game = Game(2)
    for _ in range(2):
        game.start_round(0)
        game.abandon_round()
    assert game.over and game.starter is None and game.scores == [0, 0]
    raises(ValueError, game.start_round, 0)


def test_no_round_nothing_to_abandon():
    game = Game(3)
    error = raises(ValueError, game.abandon_round)
    assert "no round" in str(error)
    assert game.rounds_played == 0 and game.starter == 0


def test_the_bolt_can_be_set_late_but_never_behind_an_open_window():
    game = Game(3)
    game.start_round(0)  # a stand-in: the box does not know the bolt yet
    game.open_window(1, [])
    game.set_bolt(5)
    assert game.bolt == 5
    error = raises(ValueError, game.set_bolt, 1)
    assert "open already" in str(error) and game.bolt == 5
    raises(ValueError, game.set_bolt, 8)
    result = game.open_window(5, [2])
    assert result.bolt and result.round_over and result.points == {2: 10}
    assert game.bolt is None
    raises(ValueError, game.set_bolt, 3)  # between rounds there is no card
