"""Venue mode on the desktop: props on an MQTT broker (docs/venue.md).

    broker   mqtt://HOST:PORT addresses, the broker password from a file or the environment,
             a connected paho-mqtt client
    netprop  one prop's real firmware on the virtual board, connected to a broker
             (`propctl sim clock --broker ...`, the tests, the bench)
    view     `propctl venue`: the live table, --send, --json
"""
