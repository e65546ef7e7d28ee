"""The host link: JSON-lines protocol between a prop board and the desktop, shared by both.

    protocol   message format, error codes, PROTOCOL_VERSION, MAX_LINE
    framing    bytes -> lines with a hard length limit, fixed memory
    schema     argument schemas ("int", "str", "bool", "ints", "seed", "?" = optional) and checking
    router     Link: the board's end (hello/ping/help, routing, sequence numbers)
    stdio      the board's USB serial (stdin/stdout): ipoll, one preallocated byte, Ctrl-C as data
    board      main.py's entry: boot modes, the configured prop in runtime.Runtime, crash -> reset

A new prop plugs in without touching the link: props.<name>.build(settings,
on_event, store) returns an app with `tick(now_ms)`, `tick_ms`, `shutdown()`
and `commands()` (name -> (handler, schema)); handlers raise ValueError with
a player's message to refuse, and the app reports with `on_event(name,
fields)`. Add its name to props.NAMES. The desktop side is
host_tools/propctl/serial_link/linkclient.py.
"""
