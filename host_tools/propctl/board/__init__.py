"""The desktop's end of a board: everything that talks to one over its USB serial.

    linkclient     the JSON-lines link (requests, replies, events) and its protocol check
    ports          which serial port is a board (`propctl ports`, --port auto)
    monitor repl selftest   the commands that talk to a running board
    settings_check the firmware's own settings schema, read on the desktop
    serve vserial  `propctl sim serve`: a virtual board behind a pseudo-terminal

A game master (propctl.games, propctl.play) needs none of this, and imports none of it.
"""
