"""The football box's words for the reference pages (propctl.reference): its title and what each of its
link commands does. The commands and their arguments come from the firmware's tables; only the
sentence for a person is here (tests/docs/test_reference_docs.py: one per command, none for a command
that does not exist)."""

TITLE = "The football box"

COMMANDS = {
    "roll": "roll the two dice (or the coin at the toss); `zone` and `lane`: the faces of "
            "real dice",
    "kick_start": "start the three-second field-goal count, as the KICK button",
    "report": "what the buttons cannot say: `action` (e.g. `in_field` with `yards`, "
              "`target` with `pick`)",
    "state": "the box and the game, with the game's settings (`propctl play fingerfootball "
             "--port` restores the game from it)",
    "new_game": "a new game; `seed`: the same coin and dice as that seed",
}
