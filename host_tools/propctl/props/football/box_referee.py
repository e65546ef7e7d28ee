"""`propctl play fingerfootball --port PORT|auto`: the referee at the football box (the board
wing's side of the game master: propctl.play sends --port here; the football box's box_referee part,
in the serial_link layer: it talks to the box over propctl.serial_link.linkclient).

The box holds the game (its own save, its dice, its count): its four buttons roll, kick, and
say made or missed, and the referee here asks in words only for what the buttons cannot say:
kick or receive, which goal, where a kickoff or a punt stopped, the announced play, a fumble,
a flag, a penalty. Every answer goes to the box as its link's `report`; the box's reply and
its events (a button pressed, the dice, the count) are shown as they come, and a question the
box has moved past (someone pressed ROLL meanwhile) is asked anew.

The game is read from the box's `state` (the engine's snapshot with its settings, restored
here with rules.fingerfootball.FingerFootball.restore), so the menus are the engine's own.
"""
import json
import os
import queue
import signal
import threading
import time

from propctl.describe import describe_event
from propctl.games.fingerfootball_words import board_lines, parse_yards, yards_wanted
from propctl.props.football.reports import button_roles, report_args, reports
from propctl.serial_link.linkclient import LinkClient, LinkFailure
from propctl.shared.rules.fingerfootball import FingerFootball

BUTTON_LABELS = (("roll", "ROLL"), ("kick", "KICK"), ("good", "GOOD"), ("miss", "MISS"))
QUIET_EVENTS = ("button",)  # said by what follows it (the dice, the count, a refusal)
REQUEST_TIMEOUT_S = 5.0
SETTLE_S = 0.1

HELP = ("At the box: its buttons roll the coin and the dice (ROLL), start the field-goal count "
        "(KICK) and say made or missed (GOOD, MISS). Here: type the number of what happened "
        "(or its words, e.g. `in field 35`, `receive`, `target opp2 pass left`). Commands: "
        "help, board, quit (the box keeps the game; run this again to go on).")


class BoxMoved(Exception):
    """The box changed while a question was open: ask anew."""


class Refused(Exception):
    """The box refused a report; the message is its words."""


class BoxLink:
    """The link to the box, read by one thread: replies for requests, events to a queue."""

    def __init__(self, client: LinkClient, on_event=None) -> None:
        self.client = client
        self.events: queue.Queue = queue.Queue()
        self.on_event = on_event
        self.lost = ""
        self._replies: dict = {}
        self._cond = threading.Condition()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._read, name="box-link", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        while not self._stop.is_set():
            try:
                line = self.client.read_line(0.2)
            except Exception as exc:  # pyserial's errors on a pulled cable vary by platform
                self.lost = "the link to the box ended (%s)" % exc
                with self._cond:
                    self._cond.notify_all()
                self._tell()
                return
            if line is None or line.message is None:
                continue
            message = line.message
            if line.restarted:
                self.events.put(("reset", {}))
                self._tell()
            if "ev" in message:
                self.events.put((message["ev"], message.get("data")))
                if message["ev"] not in QUIET_EVENTS:
                    self._tell()
            elif "re" in message:
                with self._cond:
                    self._replies[message["re"]] = message
                    self._cond.notify_all()

    def _tell(self) -> None:
        if self.on_event is not None:
            self.on_event()

    def request(self, cmd: str, args=None, timeout: float = REQUEST_TIMEOUT_S):
        """The box's answer to `cmd`; Refused with its words, LinkFailure when it does not answer."""
        request_id = self.client.send(cmd, args)
        deadline = time.monotonic() + timeout
        with self._cond:
            while request_id not in self._replies:
                left = deadline - time.monotonic()
                if self.lost:
                    raise LinkFailure(self.lost)
                if left <= 0:
                    raise LinkFailure("the box did not answer %s within %g s" % (cmd, timeout))
                self._cond.wait(left)
            message = self._replies.pop(request_id)
        if "err" in message:
            raise Refused(str(message.get("msg") or message.get("err")))
        return message.get("ok")

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)


def run(args, ask, say) -> int:
    """`propctl play fingerfootball --port`: 0 at the final whistle or when stopped, 1 when the
    box cannot be reached or is no football box."""
    from propctl.serial_link.ports import open_failure
    port = args.port
    try:
        client = LinkClient.open(port, wait_s=2.0)
    except Exception as exc:  # serial.SerialException or OSError: the words of both
        say("propctl play fingerfootball: %s" % open_failure(port, exc))
        return 1
    try:
        try:
            info = client.hello(timeout=5.0)
        except LinkFailure as exc:
            say("propctl play fingerfootball: no football box answered on %s: %s" % (port, exc))
            return 1
        if info.get("prop") != "football":
            say("propctl play fingerfootball: the board on %s runs the %s prop, not the football box; "
                "put the football box on it with `propctl deploy --port %s --prop football --board %s`"
                % (port, info.get("prop"), port, info.get("board") or "pico"))
            return 1
        referee = BoxReferee(port, ask, say)
        referee.board = str(info.get("board") or "BOARD")
        referee.box = BoxLink(client, referee.interrupt)
        try:
            return referee.play()
        finally:
            referee.box.close()
    finally:
        client.close()


class BoxReferee:
    """The questions the box cannot answer, asked at the terminal while the box plays."""

    def __init__(self, port: str, ask, say) -> None:
        self.port = port
        self.board = "BOARD"  # the board the box's hello named
        self.ask = ask
        self.say = say
        self.box: BoxLink
        self.at_prompt = False
        self.moved = threading.Event()
        self.prefix: tuple = ()  # the words of an announced play chosen so far
        self.cut_short = False  # a question was on the screen when the box moved

    # -- the box moving while a question is open ---------------------------------------

    def interrupt(self) -> None:
        """Called by the link's thread when the box changed: end an open question (SIGUSR1
        interrupts input(), readline's too, in the main thread)."""
        self.moved.set()
        if self.at_prompt and hasattr(signal, "SIGUSR1"):
            os.kill(os.getpid(), signal.SIGUSR1)

    def _on_signal(self, signum, frame) -> None:
        if self.at_prompt:
            self.at_prompt = False
            self.cut_short = True
            raise BoxMoved()

    def question(self, prompt: str) -> str:
        """One typed line, or BoxMoved when the box changed first."""
        if self.moved.is_set():
            raise BoxMoved()
        self.at_prompt = True
        try:
            if self.moved.is_set():
                raise BoxMoved()
            return self.ask(prompt).strip()
        except SystemError as exc:
            # GNU readline's input() may hand the signal handler's BoxMoved back wrapped in a
            # SystemError ("returned a result with an exception set"): it is still the box moving
            if isinstance(exc.__cause__, BoxMoved) or isinstance(exc.__context__, BoxMoved):
                raise BoxMoved() from None
            raise
        finally:
            self.at_prompt = False

    # -- the game -----------------------------------------------------------------

    def fetch(self):
        """(state, game): the box's state and the game restored from it."""
        state = self.box.request("state")
        if not isinstance(state, dict) or not isinstance(state.get("settings"), dict):
            raise LinkFailure("the box's firmware does not tell its game's settings (it is older "
                              "than this propctl): deploy it again, `propctl deploy --port %s "
                              "--prop football --board %s`" % (self.port, self.board))
        try:
            return state, FingerFootball.restore(state)
        except ValueError as exc:
            raise LinkFailure("the box's game could not be read: %s" % exc) from None

    def settle(self) -> None:
        """Wait until the box has said all it says about a move (its events come one by one,
        for at most a second), so the board and the question are shown once, after them."""
        for _ in range(int(1 / SETTLE_S)):
            self.moved.clear()
            time.sleep(SETTLE_S)
            if not self.moved.is_set():
                return

    def tell_events(self) -> None:
        """Say what the box did since last asked, in the words of `propctl monitor`."""
        self.moved.clear()
        while True:
            try:
                name, data = self.box.events.get_nowait()
            except queue.Empty:
                return
            if name in QUIET_EVENTS:
                continue
            if name == "reset":
                self.say("  the box was reset; it goes on with its saved game")
                continue
            if name == "play":
                continue  # the board's message says it, below
            self.say("  box: %s" % describe_event("football", name, data))

    def play(self) -> int:
        previous = None
        if hasattr(signal, "SIGUSR1"):
            previous = signal.signal(signal.SIGUSR1, self._on_signal)
        try:
            return self._play()
        except (KeyboardInterrupt, EOFError):
            self.say("")
            self.say("Stopped. The box keeps the game; run this again to go on.")
            return 0
        except LinkFailure as exc:
            self.say("propctl play fingerfootball: %s" % exc)
            return 1
        finally:
            if previous is not None:
                signal.signal(signal.SIGUSR1, previous)

    def _play(self) -> int:
        state, game = self.fetch()
        self.say("Finger Football referee at the box on %s: %s v %s. The box's buttons roll, "
                 "kick and count; here you say what they cannot. Type `help` at any prompt."
                 % (self.port, game.name(0), game.name(1)))
        shown = None
        while True:
            self.tell_events()
            state, game = self.fetch()
            key = json.dumps(game.snapshot(), sort_keys=True)
            if key != shown:
                if shown is not None:
                    self.prefix = ()
                for line in board_lines(game):
                    self.say(line)
                self.say(game.state["message"])
                shown = key
            if state["phase"] == "over":
                self.say("Final whistle. Hold ROLL on the box for a new game.")
                return 0
            try:
                self.turn(state, game)
            except BoxMoved:
                if self.cut_short:  # end the question's line
                    self.say("")
                self.cut_short = False
                self.settle()

    def turn(self, state: dict, game) -> None:
        """One question: the reports the game takes now, numbered, beside the buttons' roles."""
        view = dict(state)
        view["actions"] = game.actions()
        roles = button_roles(view, "hold")
        on_box = ", ".join("%s %s" % (label, roles[key]) for key, label in BUTTON_LABELS if roles[key])
        entries = reports(view, self.prefix)
        actor = game.actor()
        who = game.name(actor) if actor is not None else "Referee"
        if on_box:
            self.say("On the box: %s." % on_box)
        if not entries:
            if state["box"] == "counting":
                self.say("(the count runs: GOOD or MISS on the box)")
            answer = self.question("%s, at the box (Enter: look again)> " % who)
            self.table_word(answer, view, entries)
            return
        self.say("%s%s: %s" % (who, ", or here" if on_box else "", " | ".join(
            "%d) %s" % (i + 1, label) for i, (label, _line, _needs) in enumerate(entries))))
        answer = self.question("%s> " % who)
        if not answer or self.table_word(answer, view, entries):
            return
        entry = self.chosen(answer, entries, view, game)
        if entry is None:
            return
        label, line, needs = entry
        if needs is not None and needs[0] == "pick":
            self.prefix = needs[2]
            return
        if needs is not None:  # a yard line still to say
            _kind, name, lo, hi = needs
            text = self.question("%s: the yard line %d..%d, from the receiver's goal line "
                                 "(own 1 .. 50 .. opp 1), e.g. 35 or opp 45 (Enter: back)> "
                                 % (label.split(" (")[0], lo, hi))
            if not text:
                return
            try:
                yards = parse_yards(text.split(), name, (lo, hi))
            except ValueError as exc:
                self.say("  %s" % exc)
                return
            line = "report %s %d" % (name, yards)
        self.send(line)

    def chosen(self, answer: str, entries: list, view: dict, game):
        """The entry a typed number or words choose; None (said why) when none."""
        if answer.isdigit() and answer.isascii():
            number = int(answer)
            if 1 <= number <= len(entries):
                return entries[number - 1]
            self.say("  type a number from 1 to %d, or the words of one" % len(entries)
                     if len(entries) > 1 else "  type 1, or its words")
            return None
        words = answer.lower().replace("-", "_").split()
        for name, kind, options in view["actions"]:
            size = name.count("_") + 1
            if "_".join(words[:size]) != name and not (len(words) >= 1 and words[0] == name):
                continue
            rest = words[size:] if "_".join(words[:size]) == name else words[1:]
            if kind == "none" and not rest:
                return (name, "report " + name, None)
            if kind == "yards":
                try:
                    yards = parse_yards(rest, name, tuple(options))
                except ValueError:
                    self.say("  " + yards_wanted(name, options))
                    return None
                return (name, "report %s %d" % (name, yards), None)
            if kind == "pick":
                text = " ".join(rest).replace("opp ", "opp").replace("own ", "own")
                if text in options:
                    return (name, "report %s %s" % (name, text.replace(" ", "_")), None)
                self.say("  '%s' is none of: %s" % (text, ", ".join(options) if len(options) <= 9
                                                  else "the plays in the list"))
                return None
        button = [label for key, label in BUTTON_LABELS if view["actions"] and key in words[:1]]
        if button or words[:1] in (["roll"], ["toss"], ["made"], ["missed"], ["good"], ["no_good"]):
            self.say("  that is for the box's buttons (ROLL, KICK, GOOD, MISS): press it there")
        else:
            self.say("  '%s' is not one of these; type its number (1 to %d) or `help`"
                     % (answer, len(entries)))
        return None

    def table_word(self, answer: str, view: dict, entries: list) -> bool:
        """help, board, quit; True when the answer was one of them (or said nothing)."""
        word = answer.lower()
        if word in ("help", "?"):
            self.say(HELP)
            return True
        if word == "board":
            for line in board_lines(self.fetch()[1]):
                self.say(line)
            return True
        if word in ("quit", "exit", "q"):
            raise KeyboardInterrupt()
        if answer and not entries:
            self.say("  nothing to type now: the box's buttons say what happens (`help`)")
            return True
        return not answer

    def send(self, line: str) -> None:
        """A report to the box; its refusal said in its words."""
        try:
            self.box.request("report", report_args(line))
        except Refused as exc:
            self.say("  the box says: %s" % exc)
            return
        self.settle()
