"""Finger Football scenarios: whole seeded random games through the engine's legal actions."""
from rules.fingerfootball import FingerFootball
from rules.rng import Rng

# Names tried now and then although not legal: the refusal must be identical too.
_ANY_NAMES = ("toss", "kick", "receive", "goal", "in_field", "end_zone", "out_of_bounds", "onside",
              "good", "no_good", "roll", "punt", "field_goal", "go_for_td", "target", "made",
              "missed", "touchdown", "touchback", "fumble", "flag", "accept", "refuse",
              "extra_point", "two_point")


def _pick_arg(rng, kind, options, hand_permille):
    if kind == "pick":
        return rng.choice(options)
    if kind == "yards":
        return rng.between(options[0], options[1])
    if kind == "team" and rng.chance(hand_permille):
        return rng.below(2)
    if kind == "dice" and rng.chance(hand_permille):
        return [rng.choice(options[0]), rng.choice(options[1])]
    return None


def random_game(game_seed, pick_seed, max_steps, hand_permille, settings=None):
    """Play random legal actions until the game ends or `max_steps` pass.

    Returns {"log": one row per step, "final": the last snapshot, "refusals": [...]}.
    A log row is [action, argument, message, score, quarter, plays, offense, ball, down].
    Every 7th step an illegal action is tried first; it must raise ValueError
    and leave the snapshot unchanged (else the scenario raises).
    """
    game = FingerFootball(game_seed, settings)
    rng = Rng(pick_seed)
    log = []
    refusals = []
    step = 0
    while step < max_steps and game.state["phase"] != "over":
        actions = game.actions()
        if step % 7 == 3:
            refusals.append(_try_illegal(game, rng, actions))
        name, kind, options = rng.choice(actions)
        arg = _pick_arg(rng, kind, options, hand_permille)
        events = game.act(name, arg)
        message = events[0]["message"]
        snap = game.snapshot()
        log.append([name, arg, message, snap["score"], snap["quarter"], snap["plays"],
                    snap["offense"], snap["ball"], snap["down"]])
        step += 1
    return {"log": log, "final": game.snapshot(), "refusals": refusals}


def _try_illegal(game, rng, actions):
    legal = [a[0] for a in actions]
    illegal = [n for n in _ANY_NAMES if n not in legal]
    name = rng.choice(illegal)
    before = game.snapshot()
    message = None
    try:
        game.act(name, None)
    except ValueError as exc:
        message = str(exc)
    if message is None:
        raise AssertionError("illegal action %r was accepted in phase %s" % (name, before["phase"]))
    if game.snapshot() != before:
        raise AssertionError("refused %r changed the state" % name)
    return [name, message]


def many_games(first_seed, games, max_steps):
    """Final snapshots of `games` random games (seeds from `first_seed`)."""
    out = []
    for seed in range(first_seed, first_seed + games):
        result = random_game(seed, seed * 31 + 1, max_steps, 300)
        out.append([len(result["log"]), result["final"]])
    return out
