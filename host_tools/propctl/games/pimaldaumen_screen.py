"""What the Pi mal Daumen table is told: the question to read, each answer's points, the
moves, the bonus and minus fields, the track and the winner. Only words: the game loop
(pimaldaumen_session) decides, and this says it, so the text can change without the rules."""
from propctl.games.pimaldaumen_pile import AUTO, Pile
from propctl.games.pimaldaumen_setup import stand_in
from propctl.shared.rules.pimaldaumen import TOP, Game

FRAME_TEXT = {AUTO: "Questions not heard before, white frame first, then violet.",
              "white": "White frame questions.", "violet": "Violet frame questions."}


class Narrator:
    """The game's words for the table; reads the game and the pile, changes neither."""

    def __init__(self, names, game: Game, pile: Pile, board_data: dict, say) -> None:
        self.names = names
        self.game = game
        self.pile = pile
        self.board_data = board_data
        self.say = say

    def welcome(self) -> None:
        """The players, the frames read, and a warning when the board is a stand-in."""
        self.say("Pi mal Daumen: %s. %s Type `help` at any prompt."
                 % (", ".join(self.names), FRAME_TEXT[self.pile.frame]))
        if stand_in(self.board_data):
            self.say("Note: the board is a STAND-IN (%s): the printed board's layout is not known, "
                     "so field colours, bonus and minus fields are our guess." % self.board_data.get(
                         "name", "no name"))

    def winner(self) -> None:
        self.show_track()
        winner = self.game.winner
        assert winner is not None  # the game is over
        self.say("%s wins the game!" % self.names[winner])

    def questioner(self) -> None:
        game = self.game
        self.say("")
        self.say("--- %s asks. %s stands on field %d, so the %s question is read."
                 % (self.names[game.questioner], self.names[game.questioner],
                    game.positions[game.questioner], game.question_colour))

    def read_out(self, reader: int, question) -> None:
        """Who reads which card, and the question with its unit."""
        unit = " (%s)" % question.unit if question.unit else ""
        self.say("%s reads card %s, %s frame, %s question:"
                 % (self.names[reader], self.pile.current, self.pile.current_frame, self.pile.colour))
        self.say("    %s%s" % (question.text, unit))

    def repeat_question(self) -> None:
        if self.pile.current is not None:
            self.say("The open question was:")
            self.read_out(self.game.reader, self.pile.question())

    def report(self, events, best=0) -> bool:
        """Tell the table what the rules did; True once the question in play is over (answer
        revealed)."""
        finished = False
        for event in events:
            kind = event["event"]
            if kind == "answer":
                self.say("  " + self.describe_answer(event, best))
            elif kind == "move":
                self.say("  " + self.describe_move(event))
            elif kind == "stop":
                self.say("  %s stops on the bonus field %d." % (self.names[event["seat"]], event["field"]))
            elif kind == "questioner":
                self.say("  Nobody reached %d: %s, the questioner, gets %d - %d = %d points."
                         % (TOP, self.names[event["seat"]], TOP, TOP - event["points"], event["points"]))
            elif kind == "bonus":
                finished = True
                self.reveal()
                self.say("*** Bonus question: %s is last on the track and stands on a bonus field. "
                         "%s reads a new card, %s question; %s has one answer, worth double points."
                         % (self.names[event["seat"]], self.names[event["reader"]], event["colour"],
                            self.names[event["seat"]]))
            elif kind == "turn":
                finished = True
                self.reveal()
                self.show_track()
            elif kind == "win":
                finished = True
                self.reveal()
                self.say("*** %s reaches the goal!" % self.names[event["seat"]])
        return finished


    def reveal(self) -> None:
        if self.pile.current is None:
            return
        question = self.pile.question()
        unit = " %s" % question.unit if question.unit else ""
        self.say("  The exact answer: %s%s (source: %s)" % (question.answer, unit, question.source))

    def describe_answer(self, event, best) -> str:
        name = self.names[event["seat"]]
        said = "%s says %s" % (name, event["value"])
        if not event["score"]:
            return "%s: outside the scale, 0 points." % said
        if event["bonus"]:
            return "%s: %d points, doubled to %d fields." % (said, event["score"], 2 * event["score"])
        if not event["points"]:
            return "%s: that would be %d points, but it must beat %d: 0 points." % (
                said, event["score"], best)
        return "%s: %d points%s" % (said, event["points"], "!" if event["points"] == TOP else ".")

    def describe_move(self, event) -> str:
        name = self.names[event["seat"]]
        start, end = event["from"], event["to"]
        text = []
        if event["minus"]:
            text.append("%s leads on a minus field (-%d): %d - %d = %d."
                        % (name, event["minus"], event["points"], event["minus"],
                           event["points"] - event["minus"]))
        if end == start:
            text.append("%s stays on field %d." % (name, start))
        else:
            text.append("%s moves %s from field %d to field %d%s."
                        % (name, "forward" if end > start else "back", start, end,
                           self.field_note(end)))
        return " ".join(text)

    def field_note(self, field: int) -> str:
        board = self.game.board
        if field == board.goal:
            return " (the goal)"
        if field == 0:
            return " (the start)"
        notes = [board.colours[field]]
        if board.bonus[field]:
            notes.append("bonus field")
        if board.minus[field]:
            notes.append("minus field -%d" % board.minus[field])
        return " (%s)" % ", ".join(notes)

    def show_track(self) -> None:
        """The track as one character per field, the pieces under it, and a table."""
        game, board = self.game, self.game.board
        self.say("Track (> start, y/g/s field colour, * bonus, 1-9 minus field, ^ goal):")
        symbols = []
        for i in range(board.goal + 1):
            if i == 0:
                symbols.append(">")
            elif i == board.goal:
                symbols.append("^")
            elif board.minus[i]:
                symbols.append(str(min(board.minus[i], 9)))
            elif board.bonus[i]:
                symbols.append("*")
            else:
                symbols.append(board.colours[i][0])
        self.say("    " + "".join(symbols))
        marks = [" "] * (board.goal + 1)
        for seat, pos in enumerate(game.positions):
            marks[pos] = str(seat + 1) if marks[pos] == " " else "+"
        self.say("    " + "".join(marks).rstrip())
        for seat, name in enumerate(self.names):
            pos = game.positions[seat]
            self.say("  %d %-12s field %2d of %d%s" % (seat + 1, name, pos, board.goal, self.field_note(pos)))
