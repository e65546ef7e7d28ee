"""The fuse box's sim in words: windows and players as people count them (from 1), the events as
log lines, the box drawn as text. Shared by the scripted log (propctl.props.fusebox.sim) and the
terminal screen (propctl.props.fusebox.terminal)."""
from propctl.describe import describe_event
from propctl.termsafe import escaped, printable

LOG_INDENT = len("%7.2f s  " % 0)  # a wrapped event goes on after the time column (describe)


# --- windows and players: the link counts them from 1, as people do -------------------

def player_text(link_player) -> str:
    return "player %d" % int(link_player)


def players_text(link_players) -> str:
    """"nobody", "player 2", "players 1 and 3", "players 1, 2 and 4"."""
    numbers = [str(int(s)) for s in sorted(link_players, key=int)]
    if not numbers:
        return "nobody"
    if len(numbers) == 1:
        return "player " + numbers[0]
    return "players %s and %s" % (", ".join(numbers[:-1]), numbers[-1])


def scores_text(scores) -> str:
    """The game's scores as "player 1: 0, player 2: 3 points" (the link lists them in player order)."""
    return ", ".join("player %d: %d" % (i + 1, points) for i, points in enumerate(scores)) + " points"


def to_link(command: str) -> str:
    """A typed command with its players (report 1,3) numbered for the link; ValueError if not players."""
    words = command.split()
    if not words or words[0] != "report" or len(words) < 2:
        return command
    players = []
    for word in words[1].split(","):
        if word in ("", "-", "0"):  # 0: nobody showed the bolt
            continue
        if not word.isdigit() or int(word) < 1:
            raise ValueError("report lists the players who showed the bolt, counted from 1, e.g. report 1,3;"
                             " not %r" % word)
        players.append(str(int(word)))
    return "report " + ",".join(players)


# --- drawing ----------------------------------------------------------------

@escaped
def describe(record: dict) -> str:
    """One runner line (event, reply, refusal) as a log line; windows counted 1-8 as on the box.
    Events read by propctl.describe, as `propctl monitor` prints them."""
    kind = record.get("type")
    t = record.get("t", 0) / 1000
    if kind == "refused":
        return "%7.2f s  refused: %s" % (t, record["error"])
    if kind == "reply":
        ok = record["ok"]
        if record["cmd"] == "report_choices":
            pts = ", ".join("%s +%d" % (player_text(s), p) for s, p in sorted(ok["points"].items(),
                                                                               key=lambda i: int(i[0])))
            text = "result  window %d %s: %s; scores %s%s" % (
                int(ok["window"]), "BOLT" if ok["bolt"] else "safe", pts or "no points",
                scores_text(ok["scores"]), "; the round is over" if ok["round_over"] else "")
        elif record["cmd"] == "new_game":
            text = "game    %d players, %s starts" % (ok["players"], player_text(ok["starter"]))
        elif record["cmd"] in ("select_card", "state"):
            return ""  # the card event says it; the screen shows the state
        else:
            text = "%s done" % record["cmd"].replace("_", " ")
        return "%7.2f s  %s" % (t, text)
    name = str(record.get("event", "?"))
    if name == "scored":
        return ""  # the reply line says it
    fields = {key: value for key, value in record.items() if key not in ("type", "event", "t")}
    return "%7.2f s  %-7s %s" % (t, name.replace("_", " "), describe_event("fusebox", name, fields))


def phase(status: dict) -> str:
    """Where the box and its game are, in one word: every line of the panel that says so reads
    it from here, so the panel cannot disagree with itself. The box's own state (idle, round,
    blown) unless its game says more: a decided round or a finished game."""
    game = status.get("game")
    if game:
        if game["over"]:
            return "game over"
        if not game.get("round_active", game["chooser"] is not None):
            return "round over" if status["state"] != "idle" else "idle"
    return str(status["state"])


def game_text(game: dict, now: str = "") -> str:
    """The game line under the box: scores, who chooses, who is still in the round."""
    parts = [scores_text(game["scores"])]
    if game["over"] or now == "game over":
        parts.append("GAME OVER, won by %s" % players_text(game.get("winners") or []))
    elif now in ("round over", "idle") or game["chooser"] is None:
        parts.append("round over: close the windows, put the next card in" if now == "round over"
                     else "no round going: put a card in")
    else:
        parts.append("%s chooses the next window" % player_text(game["chooser"]))
        parts.append("still in the round: %s" % players_text(game["in_round"]))
    return "; ".join(parts)


def draw_box(status: dict, whole_seconds: bool = False) -> list:
    """The fuse box as text lines: card, eight windows, lights, game.

    Every window shows its statement, as the printed card does through the closed slider; a
    window shows whether the bolt is behind it only once it is open.
    whole_seconds: the board time without its hundredths (at a terminal the screen then
    changes only when the box does, or once a second)."""
    lines = []
    if status["mode"] == "pack":
        head = "card %s" % status["card"] if status["card"] else "no card chosen (n/p or s)"
        if status.get("text"):
            head += " [%s]: %s" % (status.get("category", ""), status["text"])
        if status["pending"]:
            head += "  (waiting: close every window)"
    else:
        head = "manual mode: the box does not know the card (b = bolt in the window just opened)"
    lines.append(head)
    statements = status.get("statements") or [""] * 8
    for window in range(1, 9):  # as printed on the box
        if window in status["open"]:
            shown = "BOLT" if status.get("bolt_seen") == window else "open"
        else:
            shown = "closed"
        faulty = "  (sensor fault)" if window in status["faulty"] else ""
        lines.append("  %d %-6s %s%s" % (window, shown, statements[window - 1] or "", faulty))
    lamps = "red %s  green %s  buzzer %s  relay %s" % (
        "ON " if status["red"] else "off", "ON " if status["green"] else "off",
        "ON " if status["sound"] else "off", "ON " if status["relay"] else "off")
    clock_text = "%d s" % (status["t"] // 1000) if whole_seconds else "%.2f s" % (status["t"] / 1000)
    now = phase(status)
    lines.append("  %s   state %s   board time %s" % (lamps, now, clock_text))
    game = status.get("game")
    if game:
        lines.append("  game: " + game_text(game, now))
    if status["to_report"] and game and now in ("round", "blown"):
        waiting = ", ".join(str(w) for w in status["to_report"])
        lines.append("  waiting for the discs of window %s (r)" % waiting)
    return [printable(line, newlines=False) for line in lines]  # a pack may come from anywhere
