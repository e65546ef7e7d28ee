"""`propctl sim`: the real prop firmware on a virtual board, one module per prop.

runner     the shared pieces (JSON lines, screen, settings, the run's clean-up); imports only leaves
           (propctl.launcher starts MicroPython)
outputs    the files a sim writes at its end (--wav, --picture), checked before it runs
clock      `propctl sim clock`: the ghost clock's face and event log
fusebox    `propctl sim fusebox`: the fuse box played from the keyboard or a script
football   `propctl sim football`: the Finger Football box played from the keyboard, or a demo game
command    the `propctl sim` parser, one sub-command per prop and `serve` (propctl.serial_link.serve)
"""
