"""The Finger Football game master's words: what a person types read as an action (entries, yards,
picks, teams, dice), the scoreboard and the hints as text (used by propctl.games.fingerfootball)."""
import re

from propctl.shared.rules import fingerfootball_field as field


def result_hint(name: str, game) -> str:
    phase = game.state["phase"]
    if name == "in_field":
        return "it stopped on the field: the receiver's yard line, e.g. in_field 35 or in_field opp 45"
    if name == "end_zone":
        return "it touched the goal line or went into or through the end zone: receiver's 20"
    if name == "out_of_bounds" and phase == "kickoff":
        return "it went out of bounds: penalty, receiver's 40"
    if name == "out_of_bounds":
        return "it crossed the sideline: the receiver's yard line there, e.g. out_of_bounds 30"
    return ""


def board_lines(game) -> list:
    """The scoreboard as a few lines of text."""
    snap = game.snapshot()
    settings = game.settings
    quarter = snap["quarter"]
    if quarter > settings["quarters"]:
        period = "OT%d" % (quarter - settings["quarters"])
    else:
        period = "Q%d" % quarter
    lines = ["", "==== %s  play %d/%d ====  %s %d : %d %s" % (
        period, snap["plays"], settings["plays_per_quarter"], game.name(0), snap["score"][0],
        snap["score"][1], game.name(1))]
    phase = snap["phase"]
    offense = game.name(snap["offense"])
    if phase == "over":
        lines.append("Game over: %s wins." % game.name(snap["winner"]))
        return lines
    if phase in ("scrimmage", "choose", "attempt", "penalty", "punt", "field_goal"):
        zone = snap["zone"]
        fg = "field goal allowed" if snap["reached50"] else "no field goal before the 50"
        lines.append("%s ball, %s down on the %s (%s Zone %s); %s." % (
            offense, ("1st", "2nd", "3rd", "4th")[snap["down"] - 1], snap["line"], zone[:3],
            zone[3], fg))
    if snap["dice"]:
        lines.append("Dice: %s / %s" % (snap["dice"][0], snap["dice"][1]))
    if snap["target"]:
        lines.append("Play: %s" % target_text(game, snap["target"]))
    if snap["ends"] and phase != "toss":
        lines.append("%s defends the %s goal, %s the %s goal." % (
            game.name(0), snap["ends"][0], game.name(1), snap["ends"][1]))
    return lines


def spoken(name: str) -> str:
    """An action as the table says it: in_field -> in field (typed either way)."""
    return name.replace("_", " ")


def chosen_by_number(text: str, actions):
    """The action a lone menu number chooses (its value still to come), else None."""
    words = text.split()
    if len(words) == 1 and words[0].isdigit() and words[0].isascii() and 1 <= int(words[0]) <= len(actions):
        return actions[int(words[0]) - 1]
    return None


def value_wanted(action) -> str:
    """What to type for an action's value, e.g. "the yard line 1..99 (own 1 to opp 1), e.g. 35"."""
    name, kind, options = action
    if kind == "yards":
        lo, hi = options
        return "the yard line %d..%d (%s to %s), e.g. %d or opp 45" % (
            lo, hi, field.yard_text(lo), field.yard_text(hi), max(lo, min(hi, 35)))
    if len(options) <= 8:
        return "one of %s" % ", ".join("%d) %s" % (i + 1, o) for i, o in enumerate(options))
    return "a play: %s" % plays_text(options)


def plays_text(options) -> str:
    """The plays that may be announced, grouped by zone: "opp1 run or pass, left, middle or right;
    opp2 run left, ...; touchdown"."""
    zones: dict = {}
    for option in options:
        parts = option.split(" ")
        if len(parts) > 1:
            zones.setdefault(parts[0], []).append(" ".join(parts[1:]))
    every = ["%s %s" % (kind, lane) for kind in ("run", "pass") for lane in ("left", "middle", "right")]
    groups = []
    for zone, plays in zones.items():
        if sorted(plays) == sorted(every):
            groups.append("%s run or pass, left, middle or right" % zone)
        else:
            groups.append(", ".join("%s %s" % (zone, play) for play in plays))
    if field.TOUCHDOWN in options:
        groups.append(field.TOUCHDOWN)
    return "; ".join(groups)


def target_text(game, target: str) -> str:
    """A target as words, with the yard line it leads to."""
    if target == field.TOUCHDOWN:
        return "touchdown (rest completely inside the end zone)"
    spot = field.row_yards(field.target_zone(target), game.settings["rows"])
    return "%s, to the %s" % (target, field.yard_text(spot))


MULTI_WORD = ("go_for_td", "out_of_bounds", "in_field", "end_zone", "no_good", "field_goal",
              "extra_point", "two_point")  # typed with spaces too: in field 35, no good


def parse_entry(text: str, actions, game):
    """(action name, engine argument) from a typed line; ValueError explains a mistake."""
    words = text.split()
    for name in MULTI_WORD:
        size = name.count("_") + 1
        if len(words) > size - 1 and "_".join(words[:size]).lower() == name:
            words = [name] + words[size:]
            break
    head = words[0].lower()
    rest = words[1:]
    if head.isdigit():
        number = int(head)
        if not 1 <= number <= len(actions):
            if len(actions) == 1:
                raise ValueError("there is one choice now: type 1 (or %s)" % spoken(actions[0][0]))
            raise ValueError("choose 1 to %d" % len(actions))
        action = actions[number - 1]
    else:
        head = head.replace("-", "_")
        head = {"td": "go_for_td", "fg": "field_goal"}.get(head, head)
        matches = [a for a in actions if a[0] == head]
        if not matches:
            matches = [a for a in actions if a[0].startswith(head)]
        if len(matches) > 1:
            raise ValueError("'%s' could be: %s" % (head, ", ".join(a[0] for a in matches)))
        if not matches:
            # Not possible now: the engine says why (e.g. a field goal before the 50).
            return head, None
        action = matches[0]
    name, kind, options = action
    if kind == "none":
        if rest:
            raise ValueError("'%s' takes no value" % name)
        return name, None
    if kind == "yards":
        if not rest:
            raise ValueError(yards_wanted(name, options))
        return name, parse_yards(rest, name, options)
    if kind == "pick":
        return name, parse_pick(rest, options, name)
    if kind == "team":
        return name, parse_team(rest, game) if rest else None
    return name, parse_dice(rest) if rest else None


def yards_wanted(name: str, limits) -> str:
    """What `name` takes: its range of yard lines, as numbers and as players say them, and examples."""
    lo, hi = limits
    near, far = max(lo, min(hi, 35)), max(lo, min(hi, 55))
    return "'%s' needs a yard line %d..%d (%s to %s), e.g. %s %d or %s %s" % (
        name, lo, hi, field.yard_text(lo), field.yard_text(hi), name, near, name, field.yard_text(far))


def parse_yards(words, name: str = "in_field", limits=(1, 99)) -> int:
    """'35' -> 35, 'own 35' -> 35, 'opp 35' -> 65, '50' -> 50 (from the receiving team's goal);
    ValueError naming the range of `name` for anything else or a line outside `limits`."""
    text = " ".join(words).lower()
    found = re.fullmatch(r"(own|opp)?\s*(\d{1,3})", text)
    if not found:
        raise ValueError(yards_wanted(name, limits))
    yards = int(found.group(2))
    if found.group(1) == "opp":
        yards = 100 - yards
    if not limits[0] <= yards <= limits[1]:
        raise ValueError(yards_wanted(name, limits))
    return yards


def parse_pick(words, options, name) -> str:
    """One of `options`: by number, in full, or 'opp 2 run left' spaced differently."""
    text = " ".join(words).lower()
    if text.isdigit() and 1 <= int(text) <= len(options):
        return options[int(text) - 1]
    if text in ("td", "touchdown"):
        text = field.TOUCHDOWN
    text = re.sub(r"\b(own|opp)\s+([123])\b", r"\1\2", text)
    if text in options:
        return text
    matches = [o for o in options if o.startswith(text)] if text else []
    if len(matches) == 1:
        return matches[0]
    if len(options) <= 6:
        raise ValueError("'%s' needs one of: %s" % (spoken(name), ", ".join(options)))
    raise ValueError("%s is not a play that can be announced now; the plays: %s"
                     % (repr(text) if text else "nothing", plays_text(options)))


def parse_team(words, game) -> int:
    """A team by name (or an unambiguous start of it)."""
    text = " ".join(words).lower()
    names = [game.name(0).lower(), game.name(1).lower()]
    if text in names:
        return names.index(text)
    matches = [i for i in (0, 1) if names[i].startswith(text)]
    if len(matches) == 1:
        return matches[0]
    raise ValueError("'%s' is not a team here: type toss %s or toss %s (the winner of a real coin), "
                     "or toss alone" % (" ".join(words), game.name(0), game.name(1)))


def parse_dice(words) -> list:
    """Real dice as typed: '2-run left', '2run left', '2 run left', 'z2 pass td'."""
    text = " ".join(words).lower()
    found = re.fullmatch(r"z?([123])\s*-?\s*(run|pass)\s+(\w+)", text)
    if not found:
        raise ValueError("dice are typed like: roll 2-run left (zone 1-3, run or pass, then "
                         "left, middle, right, choice or td)")
    return ["%s-%s" % (found.group(1), found.group(2)), found.group(3)]
