"""The football box's buttons and reports in the players' words: what ROLL, KICK, GOOD and MISS
do now, and the reports the game takes (kick or receive, where a kickoff stopped, the announced
play...) as menu entries. One list for the terminal sim (propctl sim football) and the web page
(propctl web runs this module on MicroPython WebAssembly in the browser): plain Python that runs
on both interpreters, no imports.

An entry is (label, line, needs): line is the report as the link's "report ACTION [VALUE]" line
(a pick travels as one word, "opp2_run_left"), or None while a yard line or more words of a pick
are still to choose; report_args(line) turns a line into the report command's arguments.
"""

# Actions the buttons give (props.football.app: ROLL tosses and rolls, KICK announces the kick
# and starts the count, GOOD and MISS report made or missed); all others are link reports.
BUTTON_ACTIONS = ("toss", "roll", "field_goal", "extra_point", "made", "touchdown", "good", "missed",
                  "no_good")

REPORT_WORDS = {
    "kick": "kick off", "receive": "receive", "goal": "defend the %s goal",
    "end_zone": "into the end zone (touchback)", "onside": "onside kick", "punt": "punt",
    "go_for_td": "go for a touchdown", "touchback": "through the end zone (touchback)",
    "fumble": "red football: turnover at a yard line", "flag": "yellow flag: penalty",
    "accept": "accept the penalty", "refuse": "refuse the penalty", "two_point": "two-point try",
    "target": "announce %s",
}
# What "announce opp3 run left" means, in one line of a terminal
PLAY_NOTE = "announce = the circle aimed at: its zone (own3 .. opp3), run or pass, the lane"
YARDS_WORDS = {"in_field": "stopped on the field at a yard line",
               "out_of_bounds": "out of bounds at a yard line"}
NONE_WORDS = {"out_of_bounds": "out of bounds (the receiver's 40)"}


def button_roles(state: dict, hold: str = "hold (R)") -> dict:
    """button -> what pressing it does now, in words ("" when the box would refuse it); `hold`:
    how a long press of ROLL is made (the terminal's R key, the page's held button)."""
    names = [action[0] for action in state["actions"]]
    phase = state["phase"]
    counting = state["box"] == "counting"
    roles = {"roll": "", "kick": "", "good": "", "miss": ""}
    if "toss" in names:
        roles["roll"] = "toss the coin"
    elif "roll" in names:
        roles["roll"] = "roll the dice"
    elif phase == "over":
        roles["roll"] = hold + ": a new game"
    if counting:
        roles["good"] = "the kick is good (before the final tone)"
        roles["miss"] = "the kick is no good"
        return roles
    if "field_goal" in names:
        roles["kick"] = "field goal: ready, go (the count)"
    elif "extra_point" in names:
        roles["kick"] = "extra point: ready, go (the count)"
    elif phase in ("field_goal", "extra_point"):
        roles["kick"] = "ready, go (the count)"
    for name, words in (("touchdown", "touchdown"), ("made", "made it")):
        if name in names:
            roles["good"] = words
    if "missed" in names:
        roles["miss"] = "missed"
    if phase in ("onside", "two_point"):
        roles["good"] = "onside kick recovered" if phase == "onside" else "two-point try good"
        roles["miss"] = "no good"
    return roles


def reports(state: dict, prefix=()) -> list:
    """The link reports the game takes now, as menu entries (label, line, needs):
    line is the runner's "report ..." line, or None with needs = ("yards", lo, hi) for a yard
    line still to type, or ("pick", action, words) for a pick with more words to choose."""
    if state["box"] == "counting":
        return []  # the box takes only good or no good during the count
    out: list = []
    for name, kind, options in state["actions"]:
        if name in BUTTON_ACTIONS:
            continue
        if kind == "none":
            words = NONE_WORDS.get(name) or REPORT_WORDS.get(name, name.replace("_", " "))
            out.append((words, "report " + name, None))
        elif kind == "yards":
            words = YARDS_WORDS.get(name) or REPORT_WORDS.get(name, name.replace("_", " "))
            out.append(("%s (%d-%d)" % (words, options[0], options[1]), None, ("yards", name,
                                                                              options[0], options[1])))
        elif kind == "pick":
            out += pick_entries(name, options, prefix)
    return out


def play_note(state: dict) -> str:
    """PLAY_NOTE while a play is to be announced, else "" (the sim's panel and the page show it)."""
    if state.get("box") == "counting":
        return ""
    return PLAY_NOTE if any(action[0] == "target" for action in state["actions"]) else ""


def pick_entries(name: str, options: list, prefix=()) -> list:
    """Menu entries for a pick: the options themselves when up to 9 are left, else their next
    word (an announced play on CHOICE has up to 31: the zone first, then run or pass and lane)."""
    words = REPORT_WORDS.get(name, name + " %s")
    left = [o for o in options if o.split(" ")[:len(prefix)] == list(prefix)]
    if len(left) <= 9:
        return [(words % o, "report %s %s" % (name, o.replace(" ", "_")), None) for o in left]
    out: list = []
    for option in left:
        parts = option.split(" ")
        if len(parts) == len(prefix) + 1:  # nothing more to choose (e.g. "touchdown")
            entry: tuple = (words % option, "report %s %s" % (name, option.replace(" ", "_")), None)
        else:
            chosen = tuple(parts[:len(prefix) + 1])
            entry = (words % " ".join(chosen) + "...", None, ("pick", name, chosen))
        if entry not in out:
            out.append(entry)
    return out


def report_args(line: str) -> dict:
    """The report command's arguments of an entry's line: "report target opp2_run_left" ->
    {"action": "target", "pick": "opp2 run left"}; a number is the yards."""
    words = line.split(" ")
    args: dict = {"action": words[1]}
    if len(words) > 2:
        if words[2].isdigit():
            args["yards"] = int(words[2])
        else:
            args["pick"] = words[2].replace("_", " ")
    return args
