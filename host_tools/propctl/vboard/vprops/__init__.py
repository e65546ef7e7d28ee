"""The props on the virtual board (MicroPython side), one folder per prop:

    vprops/<name>/bench.py   the prop's firmware on a fresh virtual board with its parts
                             modelled, for the tests, the bench and the web page
    vprops/<name>/run.py     the script `propctl sim <name>` starts: JSON lines out, keys in

A prop with no folder here is run by generic.py (`propctl sim` with the generic screen).
"""
