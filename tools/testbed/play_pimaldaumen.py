"""Pi mal Daumen scenarios: whole seeded games, played identically on both interpreters."""
from rules.pimaldaumen import BONUS_GUESS, BONUS_QUESTION, GUESS, OVER, QUESTION, Board, Game
from rules.rng import Rng


def _decimal(rng, units, decimals):
    """A decimal string for units / 10**decimals, written as a player might."""
    if decimals == 0:
        return str(units)
    sign = "-" if units < 0 else ""
    digits = str(abs(units))
    while len(digits) <= decimals:
        digits = "0" + digits
    # a comma before exactly three decimals is refused as ambiguous ("1,050"), so use a dot there
    mark = "," if rng.chance(300) and decimals != 3 else "."
    return sign + digits[:-decimals] + mark + digits[-decimals:]


def random_scale(rng):
    """A valid scale with 2..7 ranges, decimals, negative values and at least one 6."""
    decimals = rng.below(4)
    value = rng.between(-2000, 5000)
    ranges = rng.between(2, 7)
    scale = [_decimal(rng, value, decimals)]
    top = rng.below(ranges)
    for i in range(ranges):
        scale.append(6 if i == top else rng.between(1, 6))
        value += rng.between(1, 3000)
        scale.append(_decimal(rng, value, decimals))
    return scale


def random_answer(rng, scale):
    """Mostly answers near the scale, some exactly on a value, some outside."""
    pick = rng.below(10)
    if pick < 3:
        return rng.choice(scale[0::2])
    if pick < 4:
        return str(rng.between(-100000, 100000))
    low = rng.choice(scale[0::2]).replace(",", ".")
    whole, _, fraction = low.partition(".")
    units = int(whole + fraction) + rng.between(-3000, 3000)
    return _decimal(rng, units, len(fraction))


def _round_trip(game, board):
    """Save and resume, as the game master does between sessions."""
    return Game.from_state(board, game.state())


def play_game(seed, players, board_data, max_actions=4000, save_every=7):
    """Play one whole game with random cards and answers; return every event.

    Every `save_every` actions (0: never) the game is saved and resumed.
    """
    rng = Rng(seed)
    board = Board(board_data)
    game = Game(board, players, rng.below(players))
    log = []
    actions = 0
    while game.phase != OVER and actions < max_actions:
        actions += 1
        phase = game.phase
        if phase == QUESTION:
            events = game.start_round(random_scale(rng))
        elif phase == BONUS_QUESTION:
            events = game.start_bonus(random_scale(rng))
        elif phase == GUESS or phase == BONUS_GUESS:
            scale = game.round.scale if phase == GUESS else game.bonus_scale
            if rng.chance(50):
                try:
                    game.answer("keine Ahnung")
                except ValueError:
                    pass
            events = game.answer(random_answer(rng, scale))
        else:
            options = game.pending["options"]
            events = game.choose(rng.choice(options) if rng.chance(500) else None)
        log.extend(events)
        if save_every and actions % save_every == 0:
            game = _round_trip(game, board)
    return {"winner": game.winner, "positions": game.positions, "actions": actions,
            "phase": game.phase, "events": log}


def play_games(first_seed, games, players, board_data):
    """Several seeded games; only winners, positions and event counts, to keep replies small."""
    out = []
    for seed in range(first_seed, first_seed + games):
        result = play_game(seed, players, board_data)
        out.append([result["winner"], result["positions"], result["actions"],
                     len(result["events"])])
    return out


def scores(scale, answers):
    """score() of each answer on one scale."""
    from rules.pimaldaumen import score
    return [score(scale, a) for a in answers]


def read_pack(hex_data, frame, colour):
    """Every card of a question pack, as the board reads it: one question each, then whole."""
    import binascii
    import io

    from cardpack import Pack
    from cardpack.question import check_version, decode, decode_question
    pack = Pack(io.BytesIO(binascii.unhexlify(hex_data)), kind="QUES")
    check_version(pack)
    pack.verify()
    out = []
    for k in range(len(pack)):
        record = pack.record(k)
        q = decode_question(record, frame, colour)
        card = decode(record)
        assert card.question(frame, colour) == q
        out.append([card.id, q.text, q.unit, q.scale, q.answer, q.source])
    return out
