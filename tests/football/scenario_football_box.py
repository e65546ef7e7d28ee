"""Finger Football box scenarios on the virtual board (MicroPython, through `vboard_process`).

Each function builds the real firmware (props.football.build) on a fresh
virtual board with a fake SSD1306, drives it with button presses and link
commands in virtual time, and returns JSON for the pytest side to judge.
"""
import gc

import micropython
from vprops.football.bench import FootballBench

from rules.fingerfootball_field import ZONE_FACES


def _to_own_field_goal_range(bench, spot=60):
    """Toss, kickoff choices and a kickoff that stops on the receiver's `spot` (past the 50)."""
    app = bench.app
    app.roll()                          # the coin
    app.report("kick")
    app.report("goal", pick="north")
    app.report("in_field", yards=spot)


def kick_count(seed, step_ms, report, report_at_ms, via):
    """One field goal: the kick button at 500 ms, then `report` ("good", "miss" or None)
    `report_at_ms` after the "go", by button or by link (`via`); the box ticks every step_ms.

    Returns the events, the piezo tones, the score and the screen before and after.
    """
    bench = FootballBench({"football": {"seed": seed}}, tick_ms=step_ms)
    app = bench.app
    _to_own_field_goal_range(bench)
    bench.run(200)
    before = {"score": list(app.game.state["score"]), "screen": bench.screen(),
              "offense": app.game.state["offense"]}
    start = bench.board.log()
    go_press = bench.press("kick", at_ms=bench.board.clock.elapsed + 50)
    bench.run(300)
    go = [e for e in bench.events if e["event"] == "kick_count" and e["step"] == "go"]
    during = bench.screen()
    refusals: list = []
    if report is not None and go:
        at = go[0]["t"] + report_at_ms
        if via == "button":
            bench.press("good" if report == "good" else "miss", at_ms=at - 30)  # + debounce
            bench.run(at + 200 - bench.board.clock.elapsed)
        else:
            # a link request comes between ticks, at `at` itself (on the next tick's time
            # it would report a 2,991 ms kick at 3,000 ms)
            def request():
                try:
                    app.report("good" if report == "good" else "no_good")
                except ValueError as exc:  # the count already ended and settled the kick
                    refusals.append(str(exc))

            bench.board.call_at(at, request)
    bench.run(5000)
    return {"events": bench.events, "tones": bench.tones(), "go_press": go_press,
            "before": before, "during": during, "after": bench.screen(),
            "score": app.game.state["score"], "phase": app.game.state["phase"],
            "offense": app.game.state["offense"], "box": app.state, "log_start": len(start),
            "refusals": refusals}


# --- no allocation while the count runs ----------------------------------------

_COUNTS = bytearray(4)


def _count_event(name, fields):
    _COUNTS[0] = (_COUNTS[0] + 1) & 0xFF  # no allocation: a preallocated counter


def heap_locked_count(seed, step_ms):
    """Idle passes, then the whole count from "go" to the final tone, with the heap locked: runtime
    passes in virtual time (tick, watchdog, wait) on a box ticking every step_ms."""
    bench = FootballBench({"football": {"seed": seed}}, tick_ms=step_ms)
    app = bench.app
    clock = bench.board.clock
    _to_own_field_goal_range(bench)
    bench.run(200)
    sink = app.on_event
    app.on_event = _count_event
    result = {"idle_ok": True, "count_ok": True, "where": ""}

    def counted():
        return app.state != "counting"

    # Idle: switch scans, chime and LED updates, nothing else.
    micropython.heap_lock()
    try:
        bench.run(2000)
    except MemoryError:
        result["idle_ok"] = False
    micropython.heap_unlock()
    app.kick_start()   # "ready": the referee and the display may allocate here
    before = _COUNTS[0]
    micropython.heap_lock()
    try:
        bench.run(10000 - clock.elapsed, counted)
    except MemoryError:
        result["count_ok"] = False
    micropython.heap_unlock()
    result["where"] = "%s at %d ms" % (app.state, clock.elapsed)
    result["events_in_lock"] = (_COUNTS[0] - before) & 0xFF
    app.on_event = sink
    bench.run(100)    # the kick is settled (allocating) on the next tick
    result["phase"] = app.game.state["phase"]
    result["results"] = [e for e in bench.events if e["event"] == "kick_result"]
    result["resets"] = bench.board.resets
    return result


# --- the dice ----------------------------------------------------------------------


def _advance(app, log):
    """One step of a game that never scores: every play is missed. Logs coin and dice.

    log is a list of small strings: "t" + winning team, or zone face index + lane face
    (kept compact: thousands of small lists would fragment the MicroPython heap).
    """
    s = app.game.state
    phase = s["phase"]
    if phase == "toss":
        app.roll()
        log.append("t%d" % app.game.state["toss_winner"])
    elif phase in ("toss_choice", "half_choice"):
        app.report("kick")
    elif phase == "goal_choice":
        app.report("goal", pick="north")
    elif phase == "kickoff":
        app.report("end_zone")
    elif phase == "scrimmage" and "roll" not in app.game.action_names():
        app.report("go_for_td")         # the opponent's Zone 3: no dice
    elif phase == "scrimmage":
        app.roll()
        dice = app.game.state["dice"]
        log.append("%d%s" % (ZONE_FACES.index(dice[0]), dice[1]))
    elif phase == "choose":
        app.report("target", pick=s["options"][0])
    elif phase == "attempt":
        app.report("missed")
    else:
        raise ValueError("unexpected phase %s" % phase)


def dice_rolls(seeds, rolls_per_seed):
    """The coin and dice of the box's roll command over games that never end (all plays missed).

    The LED display keeps it quick. Returns {seed: "t1 3td 0left ..."}: coin winners
    and rolls (zone face index, lane face) in the order the box made them.
    """
    out = {}
    for seed in seeds:
        bench = FootballBench({"football": {"display": "leds"}}, capacity=1000, attach_oled=False)
        app = bench.app
        app.new_game(seed)
        log: list = []
        rolls = 0
        while rolls < rolls_per_seed:
            before = len(log)
            _advance(app, log)
            if len(log) > before and log[-1][0] != "t":
                rolls += 1
        out[str(seed)] = " ".join(log)
        gc.collect()
    return out


def roll_button(seed, presses):
    """Dice rolled with the roll button (debounced presses), as the box shows them."""
    bench = FootballBench({"football": {"seed": seed}})
    app = bench.app
    app.roll()
    app.report("receive")
    app.report("goal", pick="south")
    app.report("end_zone")
    shown = []
    while len(shown) < presses:
        if "roll" not in app.game.action_names():
            app.report("go_for_td")     # the opponent's Zone 3 after a turnover: no dice
            app.report("missed")
            continue
        bench.click("roll")
        dice = app.game.state["dice"]
        shown.append([dice[0], dice[1], bench.screen()])
        if app.game.state["phase"] == "choose":
            app.report("target", pick=app.game.state["options"][0])
        app.report("missed")
    return {"shown": shown, "rolls": [[e["zone"], e["lane"]] for e in bench.events
                                      if e["event"] == "roll"]}


# --- a whole game ---------------------------------------------------------------------


def scripted_game(seed, oled_height, extra=None, hold_roll_ms=0):
    """A whole game played with the buttons (results) and the link (yards, choices).

    The script keeps its own tally: 6 per touchdown it reports, 3 per field goal
    reported good in time, 1 per extra point in time, 2 per two-point try made;
    late "good" presses score nothing. After every point change the screen is read.
    extra: more box settings; hold_roll_ms: at the end, hold ROLL that long and read the screen.
    """
    section = {"seed": seed}
    for key in extra or {}:
        section[key] = extra[key]
    bench = FootballBench({"football": section}, oled_height=oled_height)
    app = bench.app
    tally = [0, 0]
    checks = []
    n = {"step": 0, "td": 0, "fg": 0, "conv": 0, "late": 0}

    def kick(points, late):
        team = app.game.state["offense"]
        bench.press("kick")
        bench.run(150)
        go = [e for e in bench.events if e["event"] == "kick_count" and e["step"] == "go"][-1]
        # press good 1.5 s after go (in time) or 3.3 s after (late: the count is over)
        at = go["t"] + (3300 if late else 1500)
        bench.press("good", at_ms=at)
        bench.run(at + 400 - bench.board.clock.elapsed)
        if late:
            n["late"] += 1
        else:
            tally[team] += points

    steps = 0
    while app.game.state["phase"] != "over" and steps < 3000:
        steps += 1
        s = app.game.state
        phase = s["phase"]
        before = list(tally)
        if phase == "toss":
            bench.click("roll")
        elif phase in ("toss_choice", "half_choice"):
            app.report("receive")
        elif phase == "goal_choice":
            app.report("goal", pick="north")
        elif phase == "kickoff":
            app.report("in_field", yards=25 + steps % 30)
        elif phase == "scrimmage":
            if s["reached50"] and steps % 3 == 0:
                n["fg"] += 1
                kick(3, n["fg"] % 4 == 0)
            elif "roll" in app.game.action_names():
                bench.click("roll")
            else:
                app.report("go_for_td")
        elif phase == "choose":
            app.report("target", pick="touchdown" if steps % 2 else s["options"][0])
        elif phase == "attempt":
            if s["target"] == "touchdown":
                n["td"] += 1
                if n["td"] % 2:
                    tally[s["offense"]] += 6
                    bench.click("good")
                else:
                    bench.click("miss")
            else:
                bench.click("miss" if steps % 5 == 0 else "good")
        elif phase == "conversion":
            n["conv"] += 1
            if n["conv"] % 2:
                kick(1, n["conv"] % 3 == 0)
            else:
                app.report("two_point")
                team = s["offense"]
                if n["conv"] % 4 == 0:
                    bench.click("miss")
                else:
                    tally[team] += 2
                    bench.click("good")
        elif phase == "onside":
            bench.click("miss")
        elif phase in ("penalty", "punt", "field_goal", "extra_point", "two_point"):
            raise ValueError("the script never gets to %s" % phase)
        if tally != before:
            checks.append({"tally": list(tally), "screen": bench.screen(), "t": bench.board.clock.elapsed})
    bench.run(200)
    final = bench.screen()
    phase = app.game.state["phase"]
    after_hold = None
    if hold_roll_ms:
        bench.press("roll", hold_ms=hold_roll_ms)
        bench.run(hold_roll_ms + 300)
        after_hold = {"screen": bench.screen(), "phase": app.game.state["phase"],
                      "score": app.game.state["score"], "seed": app.seed}
    return {"tally": tally, "checks": checks, "final": final, "steps": steps, "after_hold": after_hold,
            "phase": phase, "counts": n,
            "refused": [e for e in bench.events if e["event"] in ("refused", "fault")],
            "scores": [e for e in bench.events if e["event"] == "score"],
            "quarters": [e for e in bench.events if e["event"] == "quarter"],
            "overflow": bench.board.overflow}


# --- smaller behaviours ------------------------------------------------------------------


def refused_press(seed):
    """Roll and kick pressed when they are not allowed: refused with a tone, nothing changes."""
    bench = FootballBench({"football": {"seed": seed}})
    app = bench.app
    app.roll()
    app.report("receive")
    app.report("goal", pick="north")
    app.report("end_zone")          # own 20: no field goal yet
    bench.run(100)
    snap = app.snapshot()
    screen = bench.screen()
    bench.click("kick")
    bench.click("good")             # nothing to report before the roll
    after = app.snapshot()
    return {"same": snap == after, "screen_same": screen == bench.screen(),
            "refused": [e for e in bench.events if e["event"] == "refused"],
            "tones": bench.tones()}


def led_display(seed):
    """The LED fallback: possession, the downs bar and the kick LED."""
    bench = FootballBench({"football": {"seed": seed, "display": "leds"}}, attach_oled=False)
    app = bench.app
    seen = {"start": bench.leds()}
    app.roll()
    app.report("kick")
    app.report("goal", pick="north")
    app.report("in_field", yards=60)   # the receiver (team 1) at its 60
    seen["receiver"] = app.game.state["offense"]
    seen["first_down"] = bench.leds()
    app.roll()
    if app.game.state["phase"] == "choose":
        app.report("target", pick=app.game.state["options"][0])
    app.report("missed")
    seen["second_down"] = bench.leds()
    app.kick_start()
    seen["counting"] = bench.leds()
    app.report("good")
    seen["after_kick"] = bench.leds()
    seen["errors"] = app.config_errors
    return seen


def missing_oled(seed):
    """Display "oled" but nothing on the bus: the box runs on its LEDs and says why."""
    bench = FootballBench({"football": {"seed": seed}}, attach_oled=False)
    bench.click("roll")
    return {"errors": bench.app.config_errors, "events": bench.names(),
            "display": type(bench.app._display).__name__}


def saved_game(seed, path):
    """Play a little with a store, then a fresh board with the same store resumes the game."""
    from store import Store
    first = FootballBench({"football": {"seed": seed}})
    first.app.attach_store(Store(path))
    first.app.new_game(seed)
    _to_own_field_goal_range(first)
    first.app.kick_start()
    first.app.report("good")
    before = {"snap": first.app.snapshot(), "screen": first.screen()}
    second = FootballBench({"football": {"seed": seed + 1}})
    second.app.attach_store(Store(path))
    second.run(100)
    after = {"snap": second.app.snapshot(), "screen": second.screen()}
    del before["snap"]["lines"]
    del after["snap"]["lines"]
    return {"before": before, "after": after, "errors": second.app.config_errors}


def oled_protocol(height):
    """What the firmware sent to the SSD1306: init state and the first frame."""
    bench = FootballBench({"football": {"seed": 1}}, oled_height=height)
    oled = bench.oled
    # The model takes the same commands again with the heap locked: like the real chip it
    # allocates nothing for them, so the bench does not charge the firmware for it.
    again = bytes(oled.commands[:min(oled.command_count, len(oled.commands))])
    micropython.heap_lock()
    try:
        oled.writeto_mem(0x00, again)
        allocates = False
    except MemoryError:
        allocates = True
    micropython.heap_unlock()
    return {"on": oled.on, "charge_pump": oled.charge_pump, "mux": oled.mux, "mode": oled.mode,
            "frames": oled.frames, "errors": oled.errors, "screen": bench.screen(),
            "first": oled.commands[0], "commands": len(again), "allocates": allocates}


def link_session(state_prefix, requests):
    """The box behind the real link, wired as link.startup wires it: requests in, reply and event
    lines out."""
    import json

    from props import football
    from store import Store

    from link.router import Link
    lines = []
    bench = FootballBench({"football": {"seed": 11}})
    link = Link(lines.append, {"firmware": "test", "prop": "football", "board": "pico"})
    bench.app.on_event = link.event
    # as link.startup wires every prop: the store on the module's STATE_FILE, the app's own table
    bench.app.attach_store(Store(state_prefix + football.STATE_FILE))  # in the test's folder
    link.add_commands(bench.app.commands())
    for request in requests:
        link.handle_line(json.dumps(request).encode())
        bench.run(50)
    return [json.loads(line.decode()) for line in lines]


def fault_in_count(seed):
    """An exception inside the count (injected into the next pin write): quiet box, fault event."""
    bench = FootballBench({"football": {"seed": seed}})
    app = bench.app
    _to_own_field_goal_range(bench)
    bench.run(100)
    app.kick_start()
    bench.run(1500)
    bench.board.tripped = RuntimeError("injected fault")
    error = None
    try:
        bench.run(1500)
    except RuntimeError as exc:
        error = str(exc)
    pin = str(bench.pins["piezo"]) + ".duty"
    duties = [entry[2] for entry in bench.board.log() if entry[1] == pin]
    return {"error": error, "state": app.state, "last_duty": duties[-1],
            "fault": [e for e in bench.events if e["event"] == "fault"]}


def bad_settings(section):
    """A football config section with mistakes: the box still starts, with defaults and messages."""
    bench = FootballBench({"football": section})
    bench.click("roll")
    return {"errors": bench.app.config_errors, "cfg": bench.app.cfg, "screen": bench.screen(),
            "display": type(bench.app._display).__name__}
