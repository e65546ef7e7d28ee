"""Pi mal Daumen: scale scoring, the guessing round, and the track with its special fields.

Numbers are exact. A value is an int or a decimal string ("3.5", "-273,15");
floats are refused, because a float read from a card or typed by a player
would compare differently on a single-precision board. Internally every number
is a pair (digits, decimals) meaning digits / 10**decimals, and two numbers
are compared after scaling both to the same number of decimals, so the
comparison is plain integer arithmetic on every interpreter.

The board is plain data (see `Board`), so any board file works, including the
stand-in the desktop tools ship because the printed board is not available.
"""

TOP = 6  # the highest point value on every scale; reaching it ends the round
COLOURS = ("yellow", "green", "salmon")
START_COLOUR = "salmon"  # from the start field the top (salmon) question is read
MIN_PLAYERS = 2
MAX_PLAYERS = 6  # the game has six pieces

MAX_DIGITS = 30  # keeps every comparison small on a board's heap
_DIGITS = "0123456789"
_ECHO_MAX = 40  # a longer answer is shown cut in a message
# Grouping marks a player may type inside a number: "1 050", "1_050", "1'050".
_GROUPING = (" ", "_", "'", "\u202f", "\u00a0")


def _said(value, sized: bool = True) -> str:
    """What a player typed, for a message: as typed, or (a pasted page) its start and its length."""
    text = repr(value)
    if len(text) <= _ECHO_MAX:
        return text
    if sized and isinstance(value, str):
        return "%s... (%d characters)" % (text[:20], len(value))
    return text[:20] + "..."


def _too_many_digits(value, count: int):
    return ValueError("%s has too many digits: %d, at most %d, please"
                      % (_said(value, False), count, MAX_DIGITS))


def exact(value) -> tuple:
    """Read an int or a decimal string into (digits, decimals), exactly.

    Both "." and "," are decimal marks ("3,5" == "3.5"); spaces, "_" and "'"
    may group digits. A comma followed by exactly three digits ("1,050") is
    refused as ambiguous: English writes one thousand and fifty so, German
    means 1.05. Raises ValueError with a message a player understands.
    """
    if isinstance(value, bool):
        raise ValueError("an answer must be a number, not %s" % _said(value))
    if isinstance(value, int):
        return (value, 0)
    if isinstance(value, float):
        raise ValueError("give %r as text (e.g. \"%s\"), so no rounding can creep in"
                         % (value, value))
    if not isinstance(value, str):
        raise ValueError("an answer must be a number, not %s" % _said(value))
    text = value.strip()
    for mark in _GROUPING:
        text = text.replace(mark, "")
    sign = 1
    if text[:1] in ("-", "+"):
        if text[0] == "-":
            sign = -1
        text = text[1:]
    if "," in text:
        head, _, tail = text.rpartition(",")
        if len(tail) == 3 and _all_digits(tail) and head.lstrip("0") != "":
            minus = "-" if sign < 0 else ""
            plain = text.replace(",", "")
            if len(plain) > MAX_DIGITS and _all_digits(plain):
                raise _too_many_digits(value, len(plain))
            if "," in head:
                raise ValueError("%s: type it without commas, e.g. %s%s" % (_said(value), minus, plain))
            raise ValueError("%s could be a thousands comma or a decimal comma: type %s%s or %s%s.%s"
                             % (_said(value), minus, head + tail, minus, head, tail))
    text = text.replace(",", ".")
    whole, dot, fraction = text.partition(".")
    if (not whole and not fraction) or "." in fraction or not _all_digits(whole + fraction):
        raise ValueError("%s is not a number: answer with digits, e.g. 175 or 3.5" % _said(value))
    fraction = fraction.rstrip("0")
    if len(whole) + len(fraction) > MAX_DIGITS:
        raise _too_many_digits(value, len(whole) + len(fraction))
    return (sign * int(whole + fraction or "0"), len(fraction))


def decimal_text(value) -> str:
    """The canonical text of a number: "175", "-273.15", "0.5" (no grouping, "." as mark)."""
    digits, decimals = exact(value)
    if not decimals:
        return str(digits)
    sign = "-" if digits < 0 else ""
    text = str(abs(digits))
    while len(text) <= decimals:
        text = "0" + text
    return sign + text[:-decimals] + "." + text[-decimals:]


def _all_digits(text: str) -> bool:
    for char in text:
        if char not in _DIGITS:
            return False
    return True


def _common(numbers: list) -> list:
    """Exact numbers scaled to one common number of decimals, as plain ints."""
    decimals = 0
    for _, d in numbers:
        if d > decimals:
            decimals = d
    return [digits * 10 ** (decimals - d) for digits, d in numbers]


def check_scale(scale) -> list:
    """Validate a scale [v0, p0, v1, p1, ..., vk]; return its values as exact numbers.

    Values must increase strictly; points are whole numbers 1..6.
    """
    if not isinstance(scale, (list, tuple)) or len(scale) < 3 or len(scale) % 2 == 0:
        raise ValueError("a scale alternates values and points and starts and ends with a value, "
                         "e.g. [12, 3, 120, 6, 175]")
    values = []
    for i in range(0, len(scale), 2):
        values.append(exact(scale[i]))
    for i in range(1, len(scale), 2):
        points = scale[i]
        if isinstance(points, bool) or not isinstance(points, int) or points < 1 or points > TOP:
            raise ValueError("points on a scale are whole numbers 1..%d, not %r" % (TOP, points))
    scaled = _common(values)
    for i in range(1, len(scaled)):
        if scaled[i] <= scaled[i - 1]:
            raise ValueError("scale values must increase: %r comes after %r"
                             % (scale[2 * i], scale[2 * i - 2]))
    return values


def score(scale, answer) -> int:
    """Points an answer earns on a scale, before the beat-the-best rule.

    Inside [v_i, v_i+1] it earns p_i; exactly on a value between two ranges it
    earns the higher of the two; outside the scale ("außerhalb") it earns 0.
    """
    numbers = check_scale(scale)
    numbers.append(exact(answer))
    scaled = _common(numbers)
    guess = scaled.pop()
    best = 0
    for i in range(len(scaled) - 1):
        if scaled[i] <= guess <= scaled[i + 1] and scale[2 * i + 1] > best:
            best = scale[2 * i + 1]
    return best


def _check_players(players) -> None:
    if isinstance(players, bool) or not isinstance(players, int) \
            or players < MIN_PLAYERS or players > MAX_PLAYERS:
        raise ValueError("Pi mal Daumen is for %d to %d players, not %r"
                         % (MIN_PLAYERS, MAX_PLAYERS, players))


def _check_seat(seat, players: int, what: str) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0 or seat >= players:
        raise ValueError("%s must be a seat 0..%d, not %r" % (what, players - 1, seat))


class Round:
    """One question: the players to the questioner's left guess in turn, clockwise.

    A guess earns its points only if they beat the best so far. The round ends
    when someone reaches 6 or every other player has answered; if nobody
    reached 6, the questioner earns 6 minus the best result.
    """

    def __init__(self, scale, questioner: int, players: int) -> None:
        _check_players(players)
        _check_seat(questioner, players, "the questioner")
        check_scale(scale)
        self.scale = list(scale)
        self.questioner = questioner
        self.players = players
        self.best = 0
        # One (seat, answer as given, scale score, points earned) per guess.
        self.answers = []  # type: list

    @property
    def over(self) -> bool:
        """True once someone reached 6 or every other player has answered."""
        return self.best >= TOP or len(self.answers) >= self.players - 1

    @property
    def guesser(self):
        """The seat that answers next, or None when the round is over."""
        if self.over:
            return None
        return (self.questioner + 1 + len(self.answers)) % self.players

    def answer(self, value) -> int:
        """Take the next guesser's answer; return the points it earned."""
        seat = self.guesser
        if seat is None:
            raise ValueError("this question is finished: no more answers")
        result = score(self.scale, value)  # raises before anything changes
        points = result if result > self.best else 0
        if points:
            self.best = points
        self.answers.append((seat, value, result, points))
        return points

    @property
    def questioner_points(self):
        """6 minus the best result if nobody reached 6, else 0; None while the round runs."""
        if not self.over:
            return None
        return TOP - self.best if self.best < TOP else 0

    def state(self) -> dict:
        """The round as JSON-able data (see from_state)."""
        return {"scale": list(self.scale), "questioner": self.questioner,
                "players": self.players, "answers": [a[1] for a in self.answers]}

    @classmethod
    def from_state(cls, data: dict) -> "Round":
        """Rebuild a round by replaying its answers (so saved data is validated too)."""
        played = cls(data["scale"], data["questioner"], data["players"])
        for value in data["answers"]:
            played.answer(value)
        return played


class Board:
    """The track as data: {"fields": [start, field, ..., goal]}.

    The first field is {"kind": "start"}, the last {"kind": "goal"}; every other
    is {"colour": "yellow"|"green"|"salmon"} with optional "bonus": true and
    optional "minus": -N (the printed "-3" is "minus": -3).
    """

    def __init__(self, data) -> None:
        if not isinstance(data, dict) or not isinstance(data.get("fields"), list):
            raise ValueError("a board is {\"fields\": [...]}")
        fields = data["fields"]
        if len(fields) < 3:
            raise ValueError("a board needs a start, at least one field and a goal")
        self.colours = []  # type: list
        self.bonus = []  # type: list
        self.minus = []  # type: list
        last = len(fields) - 1
        for i in range(len(fields)):
            field = fields[i]
            if not isinstance(field, dict):
                raise ValueError("board field %d: expected an object, got %r" % (i, field))
            kind = field.get("kind", "field")
            want = "start" if i == 0 else ("goal" if i == last else "field")
            if kind != want:
                raise ValueError("board field %d: expected kind %r, got %r" % (i, want, kind))
            if want != "field":
                self.colours.append(None)
                self.bonus.append(False)
                self.minus.append(0)
                continue
            colour = field.get("colour")
            if colour not in COLOURS:
                raise ValueError("board field %d: colour must be one of %s, not %r"
                                 % (i, ", ".join(COLOURS), colour))
            bonus = field.get("bonus", False)
            if not isinstance(bonus, bool):
                raise ValueError("board field %d: bonus is true or false, not %r" % (i, bonus))
            minus = field.get("minus", 0)
            if isinstance(minus, bool) or not isinstance(minus, int) or minus > 0:
                raise ValueError("board field %d: minus is a negative whole number like -3, not %r"
                                 % (i, minus))
            self.colours.append(colour)
            self.bonus.append(bonus)
            self.minus.append(-minus)  # kept as the number of fields to subtract
        self.goal = last

    def question_colour(self, field: int) -> str:
        """The colour of question read by a questioner standing on `field`."""
        colour = self.colours[field]
        return colour if colour is not None else START_COLOUR


# Game phases.
QUESTION = "question"          # the questioner draws a card: call start_round(scale)
GUESS = "guess"                # `guesser` answers: call answer(value)
CHOOSE = "choose"              # a piece crosses a free bonus field: call choose(field or None)
BONUS_QUESTION = "bonus_question"  # the bonus reader draws a card: call start_bonus(scale)
BONUS_GUESS = "bonus_guess"    # the bonus player answers once: call answer(value)
OVER = "over"                  # someone reached the goal


class Game:
    """A whole game on a board: questions, moves, bonus and minus fields, the winner.

    Every action returns a list of events (plain dicts) for a game master to
    show. Bad actions raise ValueError and leave the game unchanged.
    """

    def __init__(self, board: Board, players: int, first_questioner: int = 0) -> None:
        _check_players(players)
        _check_seat(first_questioner, players, "the first questioner")
        self.board = board
        self.players = players
        self.positions = [0] * players
        self.questioner = first_questioner
        self.phase = QUESTION
        self.round = None  # type: Round | None
        self.bonus_seat = None  # type: int | None
        self.bonus_scale = None  # type: list | None
        self.pending = None  # type: dict | None
        self.winner = None  # type: int | None

    # -- what the table needs to know ------------------------------------

    @property
    def question_colour(self) -> str:
        """Colour of the question to read now (normal round or bonus question)."""
        if self.phase in (BONUS_QUESTION, BONUS_GUESS):
            return self.board.question_colour(self.positions[self._bonus()])
        return self.board.question_colour(self.positions[self.questioner])

    @property
    def reader(self) -> int:
        """Who reads the current question: the questioner, or left of the bonus player."""
        if self.phase in (BONUS_QUESTION, BONUS_GUESS):
            return (self._bonus() + 1) % self.players
        return self.questioner

    @property
    def guesser(self):
        """The seat that answers next, or None if no answer is expected."""
        if self.phase == GUESS and self.round is not None:
            return self.round.guesser
        if self.phase == BONUS_GUESS:
            return self.bonus_seat
        return None

    def first(self, seat: int) -> bool:
        """True if no other piece is further along the track."""
        pos = self.positions[seat]
        for other in range(self.players):
            if other != seat and self.positions[other] > pos:
                return False
        return True

    def last(self, seat: int) -> bool:
        """True if no other piece is further behind on the track."""
        pos = self.positions[seat]
        for other in range(self.players):
            if other != seat and self.positions[other] < pos:
                return False
        return True

    # -- actions ----------------------------------------------------------

    def start_round(self, scale) -> list:
        """The questioner has drawn a card: start guessing on this question's scale."""
        self._expect(QUESTION, "a new question")
        self.round = Round(scale, self.questioner, self.players)
        self.phase = GUESS
        return [{"event": "question", "reader": self.questioner, "colour": self.question_colour,
                 "guesser": self.round.guesser}]

    def start_bonus(self, scale) -> list:
        """The bonus reader has drawn a card: the bonus player may answer once."""
        self._expect(BONUS_QUESTION, "a bonus question")
        check_scale(scale)
        self.bonus_scale = list(scale)
        self.phase = BONUS_GUESS
        return [{"event": "question", "reader": self.reader, "colour": self.question_colour,
                 "guesser": self.bonus_seat}]

    def answer(self, value) -> list:
        """The current guesser answers; returns what happened."""
        events = []  # type: list
        if self.phase == BONUS_GUESS:
            seat = self._bonus()
            result = score(self.bonus_scale, value)
            events.append({"event": "answer", "seat": seat, "value": value, "score": result,
                           "points": result, "bonus": True})
            self.bonus_scale = None
            # Double the points; a player last on the track is never first, so no minus.
            self._move(seat, 2 * result, False, "bonus", events)
            return events
        self._expect(GUESS, "an answer")
        played = self._open_round()
        seat = played.guesser
        points = played.answer(value)
        result = played.answers[-1][2]
        events.append({"event": "answer", "seat": seat, "value": value, "score": result,
                       "points": points, "bonus": False})
        self._move(seat, points, True, "guess", events)
        return events

    def choose(self, field) -> list:
        """A piece that crosses a free bonus field stops there (field) or moves on (None)."""
        self._expect(CHOOSE, "a choice of bonus field")
        pending = self.pending or {}
        if field is not None and field not in pending["options"]:
            raise ValueError("the piece can stop on field %s, or move on to %d"
                             % (" or ".join([str(f) for f in pending["options"]]), pending["to"]))
        events = []  # type: list
        self.pending = None
        target = pending["to"] if field is None else field
        if field is not None:
            events.append({"event": "stop", "seat": pending["seat"], "field": field})
        self._place(pending["seat"], target, pending["points"], pending["minus"],
                    pending["reason"], events)
        return events

    # -- internals ----------------------------------------------------------

    def _open_round(self) -> Round:
        played = self.round
        if played is None:
            raise ValueError("no question is open")
        return played

    def _bonus(self) -> int:
        seat = self.bonus_seat
        if seat is None:
            raise ValueError("nobody is on a bonus question")
        return seat

    def _expect(self, phase: str, what: str) -> None:
        if self.phase == phase:
            return
        if self.phase == OVER:
            raise ValueError("the game is over: seat %s has won" % self.winner)
        raise ValueError("not the time for %s: the game waits for %s" % (what, _WAITING[self.phase]))

    def _target(self, seat: int, delta: int) -> int:
        """Where a move of `delta` fields ends, skipping occupied fields."""
        pos = self.positions[seat]
        goal = self.board.goal
        if delta > 0:
            target = pos + delta
            if target > goal:
                target = goal  # overshooting still reaches the goal
            while target < goal and self._occupied(target, seat):
                target += 1
        elif delta < 0:
            target = pos + delta
            if target < 0:
                target = 0
            while target > 0 and self._occupied(target, seat):
                target -= 1
        else:
            target = pos
        return target

    def _occupied(self, field: int, seat: int) -> bool:
        if field == 0:
            return False  # every piece can share the start
        for other in range(self.players):
            if other != seat and self.positions[other] == field:
                return True
        return False

    def _move(self, seat: int, points: int, minus_rule: bool, reason: str, events: list) -> None:
        pos = self.positions[seat]
        minus = 0
        if minus_rule and self.board.minus[pos] and self.first(seat):
            minus = self.board.minus[pos]
        delta = points - minus
        target = self._target(seat, delta)
        options = []
        if delta > 0 and target != self.board.goal:
            # The rulebook lets a piece stay on (or stop on) a free bonus field
            # it crosses, letting the rest of its points lapse.
            for field in range(pos, target):
                if self.board.bonus[field] and (field == pos or not self._occupied(field, seat)):
                    options.append(field)
        if options:
            self.pending = {"seat": seat, "to": target, "options": options, "points": points,
                            "minus": minus, "reason": reason}
            self.phase = CHOOSE
            events.append({"event": "choose", "seat": seat, "to": target, "options": options})
            return
        self._place(seat, target, points, minus, reason, events)

    def _place(self, seat: int, target: int, points: int, minus: int, reason: str,
               events: list) -> None:
        pos = self.positions[seat]
        if target != pos or minus:
            events.append({"event": "move", "seat": seat, "from": pos, "to": target,
                           "points": points, "minus": minus, "reason": reason})
        self.positions[seat] = target
        if target == self.board.goal:
            self.winner = seat
            self.phase = OVER
            self.round = None
            events.append({"event": "win", "seat": seat})
            return
        if reason == "guess":
            if self._open_round().over:
                self._award_questioner(events)
            else:
                self.phase = GUESS
        elif reason == "questioner":
            self._end_round(events)
        else:
            self._next_questioner(events)

    def _award_questioner(self, events: list) -> None:
        points = self._open_round().questioner_points
        if points:
            events.append({"event": "questioner", "seat": self.questioner, "points": points})
            self._move(self.questioner, points, True, "questioner", events)
        else:
            self._end_round(events)

    def _end_round(self, events: list) -> None:
        self.round = None
        for seat in range(self.players):
            pos = self.positions[seat]
            if pos and self.board.bonus[pos] and self.last(seat):
                self.bonus_seat = seat
                self.phase = BONUS_QUESTION
                events.append({"event": "bonus", "seat": seat, "reader": self.reader,
                               "colour": self.question_colour})
                return
        self._next_questioner(events)

    def _next_questioner(self, events: list) -> None:
        self.bonus_seat = None
        self.questioner = (self.questioner + 1) % self.players
        self.phase = QUESTION
        events.append({"event": "turn", "questioner": self.questioner,
                       "colour": self.question_colour})

    # -- saving -------------------------------------------------------------

    def state(self) -> dict:
        """The whole game state as JSON-able data (the board is saved separately)."""
        return {"players": self.players, "positions": list(self.positions),
                "questioner": self.questioner, "phase": self.phase,
                "round": self.round.state() if self.round is not None else None,
                "bonus_seat": self.bonus_seat, "bonus_scale": self.bonus_scale,
                "pending": self.pending, "winner": self.winner}

    @classmethod
    def from_state(cls, board: Board, data: dict) -> "Game":
        """Resume a game saved by state(); raises ValueError on inconsistent data."""
        try:
            game = cls(board, data["players"], data["questioner"])
            positions = data["positions"]
            if not isinstance(positions, list) or len(positions) != game.players:
                raise ValueError("one position per player expected")
            for pos in positions:
                if isinstance(pos, bool) or not isinstance(pos, int) or pos < 0 or pos > board.goal:
                    raise ValueError("position %r is not on this board" % (pos,))
            game.positions = list(positions)
            game.phase = data["phase"]
            if game.phase not in _WAITING:
                raise ValueError("unknown phase %r" % (game.phase,))
            if data["round"] is not None:
                game.round = Round.from_state(data["round"])
            game.bonus_seat = data["bonus_seat"]
            game.bonus_scale = data["bonus_scale"]
            game.pending = data["pending"]
            game.winner = data["winner"]
        except (KeyError, TypeError, IndexError) as exc:
            raise ValueError("not a saved Pi mal Daumen game (%r)" % (exc,)) from None
        game._check_saved()
        return game

    def _check_saved(self) -> None:
        """Refuse saved states that play could never reach (every part a later action reads)."""
        taken = [pos for pos in self.positions if pos]
        if len(taken) != len(set(taken)):
            raise ValueError("saved game has two pieces on one field")
        played = self.round
        if played is not None and (played.players != self.players or played.questioner != self.questioner):
            raise ValueError("saved question belongs to another questioner")
        if self.phase == GUESS and (played is None or played.over):
            raise ValueError("saved game is mid-question but has no open question")
        if self.bonus_seat is not None or self.phase in (BONUS_QUESTION, BONUS_GUESS):
            _check_seat(self.bonus_seat, self.players, "the bonus player")
        if self.phase == BONUS_GUESS:
            check_scale(self.bonus_scale)
        elif self.bonus_scale is not None:
            raise ValueError("saved game has a bonus question but does not wait for its answer")
        if self.phase == CHOOSE:
            self._check_pending()
        elif self.pending is not None:
            raise ValueError("saved game has a choice pending but does not wait for it")
        if self.phase == OVER:
            _check_seat(self.winner, self.players, "the winner")
        elif self.winner is not None:
            raise ValueError("saved game has a winner but is not over")

    def _check_pending(self) -> None:
        pending = self.pending
        if not isinstance(pending, dict) or pending.get("reason") not in ("guess", "questioner", "bonus"):
            raise ValueError("saved game waits for a choice but has none pending")
        _check_seat(pending.get("seat"), self.players, "the moving player")
        reason = pending["reason"]
        if reason == "guess" and self.round is None:
            raise ValueError("saved game has a guess to finish but no open question")
        if reason == "questioner" and pending["seat"] != self.questioner:
            raise ValueError("saved choice moves the questioner, but names another player")
        options = pending.get("options")
        if not isinstance(options, list) or not options:
            raise ValueError("saved choice has no bonus field to stop on")
        for field in options + [pending.get("to")]:
            if isinstance(field, bool) or not isinstance(field, int) or field < 0 or field > self.board.goal:
                raise ValueError("saved choice names field %r, not on this board" % (field,))
        for key in ("points", "minus"):
            value = pending.get(key)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0 or value > 2 * TOP:
                raise ValueError("saved choice has %s %r" % (key, value))


_WAITING = {
    QUESTION: "the questioner to draw a card",
    GUESS: "an answer",
    CHOOSE: "the choice whether to stop on the bonus field",
    BONUS_QUESTION: "the bonus question to be drawn",
    BONUS_GUESS: "the bonus answer",
    OVER: "nothing: the game is over",
}
