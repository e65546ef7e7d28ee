"""The ghost clock's link commands: the game as the rules core keeps it, saved after each change."""
import json

from checks import raises
from props.clock.commands import ClockCommands

from link.router import Link


class FakeClock:
    """Stands in for props.clock.ClockApp: the commands the link calls."""

    def __init__(self):
        self.state = "idle"
        self.round = 0
        self.stops = 0

    def start_round(self, seed=None):
        if self.state != "idle":
            raise ValueError("the hand is already turning: wait for the chime")
        self.state = "running"
        self.round += 1

    def emergency_stop(self):
        self.stops += 1
        self.state = "idle"

    def snapshot(self):
        return {"state": self.state, "round": self.round}


class MemoryStore:
    """Stands in for store.Store: keeps the saved state as JSON text, as the file would."""

    def __init__(self, text=None):
        self.text = text
        self.saves = 0

    def load(self, default=None):
        return default if self.text is None else json.loads(self.text)

    def save(self, state):
        self.text = json.dumps(state)
        self.saves += 1

    def clear(self):
        self.text = None


def make(store=None):
    sent = []
    link = Link(sent.append, {"firmware": "t", "prop": "clock", "board": "pico"})
    app = FakeClock()
    commands = ClockCommands(app, store, link.event)
    link.add_commands(commands.commands())
    return link, app, commands, sent


def ask(link, sent, cmd, args=None):
    before = len(sent)
    message = {"id": 1, "cmd": cmd}
    if args is not None:
        message["args"] = args
    link.feed(json.dumps(message).encode() + b"\n")
    return [json.loads(line.decode()) for line in sent[before:]]


def test_a_round_is_started_and_stopped_over_the_link():
    link, app, _, sent = make()
    (reply,) = ask(link, sent, "start_round", {"seed": 4})
    assert reply["ok"] == {"state": "running", "round": 1}
    (reply,) = ask(link, sent, "start_round")
    assert reply["err"] == "refused" and "already turning" in reply["msg"]
    (reply,) = ask(link, sent, "stop")
    assert reply["ok"]["state"] == "idle" and app.stops == 1


def test_a_seed_outside_the_settings_range_is_refused_by_name_and_nothing_starts():
    link, app, _, sent = make()
    for seed in (-1, 4294967296, 1.5, "7", True):
        (reply,) = ask(link, sent, "start_round", {"seed": seed})
        assert reply["err"] == "bad_args", reply
        assert reply["msg"] == "seed must be a whole number 0..4294967295", reply
    assert app.round == 0 and app.state == "idle"
    # the top of clock.seed's range is a seed too: a round started with it can be replayed
    (reply,) = ask(link, sent, "start_round", {"seed": 4294967295})
    assert reply["ok"] == {"state": "running", "round": 1}


def test_reporting_a_round_scores_it_with_the_rules_and_saves_the_game():
    store = MemoryStore()
    link, _, _, sent = make(store)
    (reply,) = ask(link, sent, "report", {"on_clock": [1, 0], "unused": [0, 0]})
    assert reply["err"] == "refused" and "new_game" in reply["msg"]
    (reply,) = ask(link, sent, "new_game", {"players": 3})
    assert reply["ok"]["banked"] == [0, 0, 0]
    # rulebook: most ghosts on the clock wins; a draw goes to the most unused ghosts
    event, reply = ask(link, sent, "report", {"on_clock": [3, 3, 1], "unused": [2, 4, 0]})
    assert event["ev"] == "scored"
    # players 1-n on the link: the second player won
    assert event["data"]["round_winners"] == [2] and event["data"]["before"] == [0, 0, 0]
    assert reply["ok"]["banked"] == [0, 1, 0] and reply["ok"]["rounds"] == 1
    assert store.saves == 2
    # a fresh boot finds the same game
    _, _, commands, _ = make(MemoryStore(store.text))
    assert commands.game_state()["banked"] == [0, 1, 0]
    assert commands.game_state()["starter"] == 2


def test_a_count_the_rules_refuse_changes_nothing():
    store = MemoryStore()
    link, _, commands, sent = make(store)
    ask(link, sent, "new_game", {"players": 2})
    saved = store.text
    (reply,) = ask(link, sent, "report", {"on_clock": [6, 0], "unused": [3, 0]})
    assert reply["err"] == "refused" and "only 7 ghosts" in reply["msg"]
    (reply,) = ask(link, sent, "report", {"on_clock": [1], "unused": [0]})
    assert reply["err"] == "refused"
    assert store.text == saved and commands.game_state()["rounds"] == 0
    (reply,) = ask(link, sent, "new_game", {"players": 5})
    assert reply["err"] == "refused" and "2 to 4" in reply["msg"]


def test_no_report_while_the_hand_turns():
    link, _, _, sent = make(MemoryStore())
    ask(link, sent, "new_game", {"players": 2})
    ask(link, sent, "start_round")
    (reply,) = ask(link, sent, "report", {"on_clock": [1, 0], "unused": [0, 0]})
    assert reply["err"] == "refused" and "turns" in reply["msg"]


def test_the_game_ends_on_a_third_banked_ghost_and_state_says_so():
    link, _, _, sent = make(MemoryStore())
    ask(link, sent, "new_game", {"players": 2})
    for _ in range(3):
        replies = ask(link, sent, "report", {"on_clock": [2, 1], "unused": [0, 0]})
    assert replies[0]["data"]["over"] and replies[0]["data"]["winners"] == [1]
    (reply,) = ask(link, sent, "state")
    assert reply["ok"]["game"]["over"] and reply["ok"]["game"]["banked"] == [3, 0]
    (reply,) = ask(link, sent, "report", {"on_clock": [2, 1], "unused": [0, 0]})
    assert reply["err"] == "refused" and "over" in reply["msg"]


def test_a_saved_state_from_elsewhere_is_ignored_not_fatal():
    _, _, commands, _ = make(MemoryStore('{"players": 9, "rounds": []}'))
    assert commands.game_state() is None
    _, _, commands, _ = make(MemoryStore('{"something": "else"}'))
    assert commands.game_state() is None
    raises(ValueError, commands.report, [1, 0], [0, 0])
