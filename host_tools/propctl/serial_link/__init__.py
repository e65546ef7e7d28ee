"""The desktop's end of a board: everything that talks to one over its USB serial.

    linkclient     the JSON-lines link (requests, replies, events) and its protocol check
    ports          which serial port is a board (`propctl ports`, --port auto)
    files          the board's filesystem through the raw REPL (BoardFiles), deploy's record of it
    session        a board's modes: maintenance boot, hello, "does it run the prop", what it is
    cards          a card deck as the board will read it, and where it goes on the flash
    monitor repl selftest   the commands that talk to a running board
    serve vserial  `propctl sim serve`: a virtual board behind a pseudo-terminal
    announce       where a running `sim serve` says it is, for --port auto

What talks to one prop over this link lives in that prop's folder (propctl/props/<name>/, e.g.
the referee at a box that `propctl play GAME --port` runs). A game master (propctl.games,
propctl.play) needs none of this, and imports none of it (but `play ... --port` imports its
prop's referee, in its run()).
"""


class BoardError(Exception):
    """The board cannot do what was asked (or went away); the message says why and what to do."""
