"""What each link command does, in words: the one place the reference pages read them from.

The commands and their arguments come from the code (the command tables); only the sentence
for a person lives here. A setting's sentence is not here: it is the `#:` comment beside its
spec (firmware/lib/settings.py, firmware/lib/props/NAME/settings_schema.py), read by
generate.setting_descriptions. tests/test_reference_docs.py fails when a setting or command
has no sentence, or a sentence names one that does not exist.
"""

# group -> command -> what it does. Groups: "builtin" (the link's own), "run" (every running
# prop), "idle" (safe and maintenance mode), "selftest" (every prop, `propctl selftest`),
# then one per prop.
COMMANDS = {
    "builtin": {
        "hello": "identity: firmware and protocol version, prop, board, mode (run, safe, "
                 "maintenance), the commands it takes (`caps`) and any config errors",
        "ping": "answers `{\"pong\": true}`",
        "help": "the command table: every command and its argument schema",
    },
    "run": {
        "maintenance": "reboot with no prop and no watchdog, for `propctl deploy` or `propctl repl`",
        "mem": "the heap after a collection: `free` and `used` bytes",
    },
    "idle": {
        "why": "safe mode: the error of the last crash and any config problems",
        "leave": "clear safe or maintenance mode and reset: the prop runs again",
    },
    "selftest": {
        "selftest_begin": "stop the prop and list the wiring test's outputs and inputs",
        "selftest_output": "run one output step (motor, chime, LED, relay) through the prop's drivers",
        "selftest_inputs": "the inputs' changes seen since the last call",
        "selftest_end": "end the self-test: the board resets and the prop runs again",
    },
    "clock": {
        "start_round": "start a round, as the start button does; `seed` plays that seed's round",
        "stop": "emergency stop: braked at once, no chime",
        "state": "the hand and the saved game",
        "new_game": "a new game for `players` players",
        "report": "score the round: ghosts on the clock and unused, one count per player in "
                  "order; the reply names the winners as players 1-n",
    },
    "fusebox": {
        "select_card": "put the card with this id in the box",
        "next_card": "the next card of the pack, as the NEXT button",
        "prev_card": "the previous card, as the PREV button",
        "bolt": "manual mode: the bolt is in the window just opened, as the BOLT button",
        "new_game": "a new Finger weg! game for `players` players",
        "report_choices": "the players (1-n) who showed the bolt side for the oldest opened "
                          "window not yet reported; the reply is the rules core's score",
        "state": "the box (windows, card, lights) and the game",
    },
    "football": {
        "roll": "roll the two dice (or the coin at the toss); `zone` and `lane`: the faces of "
                "real dice",
        "kick_start": "start the three-second field-goal count, as the KICK button",
        "report": "what the buttons cannot say: `action` (e.g. `in_field` with `yards`, "
                  "`target` with `pick`)",
        "state": "the box and the game, with the game's settings (`propctl play fingerfootball "
                 "--port` restores the game from it)",
        "new_game": "a new game; `seed`: the same coin and dice as that seed",
    },
}
