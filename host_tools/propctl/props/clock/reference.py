"""The ghost clock's words for the reference pages (propctl.reference): its title and what each of its
link commands does. The commands and their arguments come from the firmware's tables; only the
sentence for a person is here (tests/docs/test_reference_docs.py: one per command, none for a command
that does not exist)."""

TITLE = "The ghost clock"

COMMANDS = {
    "start_round": "start a round, as the start button does; `seed` plays that seed's round",
    "stop": "emergency stop: braked at once, no chime",
    "state": "the hand and the saved game",
    "new_game": "a new game for `players` players",
    "report": "score the round: ghosts on the clock and unused, one count per player in "
              "order; the reply names the winners as players 1-n",
}
