"""Geisteruhr (ghost clock): who wins a round, the whole game, and the hand's motion plan.

Rules from the Geisteruhr rulebook. Pure: integers in, integers out.
"""
from .rng import Rng

GHOSTS_PER_PLAYER = 7
WINS_TO_END = 3  # the third ghost on a ghost space ends the game
MIN_PLAYERS = 2
MAX_PLAYERS = 4

# No plan may run longer than this, whatever the limits say; the firmware has
# its own hard cap on top of it.
MAX_ROUND_MS = 120000

# Why these defaults: a player places ghosts one at a time and must let go as
# soon as one touches the clock, so a careful placement takes about 2-3 s.
# 20-45 s lets a quick player get most of the seven ghosts down but rarely all,
# so nobody can wait out the hand. Segments of 1.5-6 s are long enough to read
# the hand's direction and short enough to surprise; a reversal always stands
# still for 0.4 s first (the gear train and the players both need it), and
# about one new segment in six starts after a short pause, which invites a
# risky placement right before the hand sets off again.
DEFAULT_LIMITS = {
    "round_min_ms": 20000,
    "round_max_ms": 45000,
    "speed_min": 350,           # per mille of top speed; slower stalls a geared DC motor
    "speed_max": 1000,
    "segment_min_ms": 1500,
    "segment_max_ms": 6000,
    "reverse_pause_ms": 400,
    "reverse_permille": 400,    # chance that a new moving segment turns the other way
    "pause_permille": 150,      # chance of a standing pause before a moving segment
    "pause_min_ms": 500,
    "pause_max_ms": 2000,
}


def _check_counts(name, counts):
    if not isinstance(counts, (list, tuple)):
        raise ValueError("%s must be a list with one count per player" % name)
    for count in counts:
        if type(count) is not int or count < 0:
            raise ValueError("%s must be whole numbers of ghosts, 0 or more; got %r" % (name, count))


def round_winners(on_clock, unused) -> list:
    """Seats that win a round, sorted.

    Most ghosts on the clock wins; a draw goes to the most ghosts not yet
    used; if that is equal too, all of them win. No ghost on the clock at all:
    no winner (an empty list).
    """
    _check_counts("ghosts on the clock", on_clock)
    _check_counts("unused ghosts", unused)
    players = len(on_clock)
    if players < MIN_PLAYERS or players > MAX_PLAYERS:
        raise ValueError("Geisteruhr is for 2 to 4 players, not %d" % players)
    if len(unused) != players:
        raise ValueError("need an unused-ghost count for each of the %d players" % players)
    best = max(on_clock)
    if best == 0:
        return []
    tied = [seat for seat in range(players) if on_clock[seat] == best]
    if len(tied) > 1:
        most_unused = max(unused[seat] for seat in tied)
        tied = [seat for seat in tied if unused[seat] == most_unused]
    return tied


class Game:
    """A whole game: rounds until someone banks a third ghost on a ghost space."""

    def __init__(self, players: int) -> None:
        if type(players) is not int or players < MIN_PLAYERS or players > MAX_PLAYERS:
            raise ValueError("Geisteruhr is for 2 to 4 players, not %r" % (players,))
        self.players = players
        self._banked = [0] * players
        self._starter = 0  # the youngest player starts the first round
        self.rounds: list = []  # winners of every finished round, in order

    def store(self, seat: int) -> int:
        """Ghosts this player plays with: seven minus those banked on ghost spaces."""
        if type(seat) is not int or seat < 0 or seat >= self.players:
            raise ValueError("there is no seat %r" % (seat,))
        return GHOSTS_PER_PLAYER - self._banked[seat]

    @property
    def banked(self) -> list:
        """Ghosts each player has on their ghost spaces."""
        return list(self._banked)

    @property
    def starter(self) -> int:
        """Who presses the button next: seat 0 first, then a winner of the last round.

        When several won, the lowest seat is named; any of them may press.
        """
        return self._starter

    @property
    def over(self) -> bool:
        return max(self._banked) >= WINS_TO_END

    @property
    def winners(self) -> list:
        """Everyone who has banked a third ghost (joint winners possible)."""
        return [seat for seat in range(self.players) if self._banked[seat] >= WINS_TO_END]

    def finish_round(self, on_clock, unused) -> list:
        """Record a round's counts; returns the round's winners.

        Checks everything before changing anything, so a bad count leaves the
        game as it was.
        """
        if self.over:
            raise ValueError("the game is over: won by player %s"
                             % " and ".join(str(seat + 1) for seat in self.winners))
        winners = round_winners(on_clock, unused)
        if len(on_clock) != self.players:
            raise ValueError("need counts for exactly %d players" % self.players)
        for seat in range(self.players):
            if on_clock[seat] + unused[seat] > self.store(seat):
                raise ValueError(  # for the players: they count themselves from 1
                    "player %d has only %d ghosts, but %d on the clock and %d unused were counted"
                    % (seat + 1, self.store(seat), on_clock[seat], unused[seat]))
        for seat in winners:
            self._banked[seat] += 1
        if winners:
            self._starter = winners[0]
        self.rounds.append(winners)
        return winners

    def state(self) -> dict:
        """The whole game as JSON-able values, to save and later `from_state`."""
        return {"players": self.players, "banked": list(self._banked), "starter": self._starter,
                "rounds": [list(winners) for winners in self.rounds]}

    @classmethod
    def from_state(cls, state: dict) -> "Game":
        """A game resumed from `state()`; ValueError if the state cannot be a game."""
        try:
            game = cls(state["players"])
            banked, starter, rounds = state["banked"], state["starter"], state["rounds"]
        except (KeyError, TypeError):
            raise ValueError("not a saved Geisteruhr game") from None
        n = game.players
        ok = (isinstance(rounds, list) and isinstance(banked, list) and len(banked) == n
              and type(starter) is int and 0 <= starter < n)
        wins = [0] * n
        expected_starter = 0
        for winners in rounds if ok else ():
            # a round is a sorted list of distinct seats, played while nobody had won yet
            if (not isinstance(winners, list) or winners != sorted(set(winners)) or max(wins) >= WINS_TO_END
                    or not all(type(seat) is int and 0 <= seat < n for seat in winners)):
                ok = False
                break
            for seat in winners:
                wins[seat] += 1
            if winners:
                expected_starter = winners[0]
        # every banked ghost is a round won; the starter is the first winner of the last won round
        ok = ok and banked == wins and starter == expected_starter
        if not ok:
            raise ValueError("not a saved Geisteruhr game")
        game._banked = list(banked)
        game._starter = starter
        game.rounds = [list(winners) for winners in rounds]
        return game


def validate_limits(limits) -> dict:
    """DEFAULT_LIMITS overlaid with `limits`, checked; raises ValueError if unusable."""
    merged = dict(DEFAULT_LIMITS)
    if limits:
        for key in limits:
            if key not in DEFAULT_LIMITS:
                raise ValueError("unknown motion limit %r (known: %s)"
                                 % (key, ", ".join(sorted(DEFAULT_LIMITS))))
            merged[key] = limits[key]
    for key in merged:
        if type(merged[key]) is not int:
            raise ValueError("motion limit %s must be a whole number, got %r" % (key, merged[key]))

    def need(ok, why):
        if not ok:
            raise ValueError("bad motion limits: " + why)

    need(1 <= merged["speed_min"] <= merged["speed_max"] <= 1000,
         "need 1 <= speed_min <= speed_max <= 1000 (per mille of top speed)")
    need(1 <= merged["segment_min_ms"] <= merged["segment_max_ms"],
         "need 1 <= segment_min_ms <= segment_max_ms")
    need(merged["segment_min_ms"] <= merged["round_min_ms"] <= merged["round_max_ms"] <= MAX_ROUND_MS,
         "need segment_min_ms <= round_min_ms <= round_max_ms <= %d" % MAX_ROUND_MS)
    need(merged["round_max_ms"] - merged["round_min_ms"] >= merged["segment_min_ms"],
         "round_max_ms - round_min_ms must be at least segment_min_ms, so a round can end moving")
    need(merged["reverse_pause_ms"] >= 1, "reverse_pause_ms must be at least 1 ms")
    need(1 <= merged["pause_min_ms"] <= merged["pause_max_ms"], "need 1 <= pause_min_ms <= pause_max_ms")
    need(0 <= merged["pause_permille"] <= 1000, "pause_permille must be 0..1000")
    need(0 <= merged["reverse_permille"] <= 1000, "reverse_permille must be 0..1000")
    return merged


def plan_motion(seed: int, limits=None) -> list:
    """The hand's whole round as a list of (duration_ms, speed) segments.

    speed is per mille of top speed, its sign the direction, 0 standing. The
    plan starts moving at once, ends on a moving segment, and stands still for
    at least reverse_pause_ms before any change of direction. Same seed and
    limits, same plan, on every interpreter.
    """
    lim = validate_limits(limits)
    rng = Rng(seed)
    seg_min = lim["segment_min_ms"]
    round_max = lim["round_max_ms"]
    target = rng.between(lim["round_min_ms"], round_max)
    direction = 1 if rng.below(2) else -1
    plan: list = []
    elapsed = 0
    # Stop once past the target, or when no full moving segment fits any more
    # (validate_limits guarantees that only happens after round_min_ms).
    while elapsed < target and round_max - elapsed >= seg_min:
        room = round_max - elapsed
        standing = 0
        if plan and room >= lim["pause_min_ms"] + seg_min and rng.chance(lim["pause_permille"]):
            standing = rng.between(lim["pause_min_ms"], min(lim["pause_max_ms"], room - seg_min))
        if plan and rng.chance(lim["reverse_permille"]):
            with_dwell = standing if standing > lim["reverse_pause_ms"] else lim["reverse_pause_ms"]
            if room >= with_dwell + seg_min:
                standing = with_dwell
                direction = -direction
        if standing:
            plan.append((standing, 0))
            elapsed += standing
            room -= standing
        moving = rng.between(seg_min, min(lim["segment_max_ms"], room))
        speed = rng.between(lim["speed_min"], lim["speed_max"])
        plan.append((moving, direction * speed))
        elapsed += moving
    return plan


def plan_length_ms(plan) -> int:
    """Total duration of a motion plan."""
    total = 0
    for duration, _ in plan:
        total += duration
    return total
