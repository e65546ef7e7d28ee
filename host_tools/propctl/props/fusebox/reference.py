"""The fuse box's words for the reference pages (propctl.reference): its title and what each of its
link commands does. The commands and their arguments come from the firmware's tables; only the
sentence for a person is here (tests/docs/test_reference_docs.py: one per command, none for a command
that does not exist)."""

TITLE = "The fuse box"

COMMANDS = {
    "select_card": "put the card with this id in the box",
    "next_card": "the next card of the pack, as the NEXT button",
    "prev_card": "the previous card, as the PREV button",
    "bolt": "manual mode: the bolt is in the window just opened, as the BOLT button",
    "new_game": "a new Finger weg! game for `players` players",
    "report_choices": "the players (1-n) who showed the bolt side for the oldest opened "
                      "window not yet reported; the reply is the rules core's score",
    "state": "the box (windows, card, lights) and the game",
}
