"""`propctl sim`: the real prop firmware on a virtual board; each prop's screen is in its folder.

runner     the shared pieces (JSON lines, screen, settings, the run's clean-up); imports only leaves
           (propctl.launcher starts MicroPython)
outputs    the files a sim writes at its end (--wav, --picture), checked before it runs
command    the `propctl sim` parser: one sub-command per prop of the firmware, its screen
           propctl/props/<name>/sim.py (found through the registry, propctl.props), and `serve`
           (propctl.serial_link.serve)
generic    the screen of a prop with none of its own: its events, replies and state as lines
"""
