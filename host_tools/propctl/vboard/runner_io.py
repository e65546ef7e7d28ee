"""What the three prop runners (vprops/<name>/run.py) share on the
MicroPython side: their options, and their event and piezo lines to the host (vboard.emit).

Kept out of vboard.py, which every bench and test loads: only a runner needs these.
"""
from vboard import emit, read_overrides


def emit_event(record) -> None:
    """A prop's event (a bench's echo) as {"type": "event", ...its fields} on stdout."""
    line = {"type": "event"}
    for key in record:
        line[key] = record[key]
    emit(line)


def report_piezo(board, piezo: str) -> None:
    """From now on every change of the piezo's PWM (pin name `piezo`) goes out as a line
    {"type": "pwm", "t", "pin", "what": "freq" or "duty", "value"}: the host plays it."""
    def on_change(sig, value, t):
        name, _, what = board.names[sig].partition(".")
        if name == piezo and what:
            emit({"type": "pwm", "t": t, "pin": piezo, "what": what, "value": value})
    board.watch(on_change)


def runner_options(argv, defaults: dict, runner: str) -> dict:
    """A runner's `--name value` options over `defaults` (--frame-ms sets "frame_ms"): whole
    numbers, but --overrides FILE, whose JSON settings are read (read_overrides)."""
    opts = dict(defaults)
    i = 0
    while i < len(argv):
        arg = argv[i]
        key = arg[2:].replace("-", "_")
        if not arg.startswith("--") or key not in defaults:
            raise SystemExit("%s: unknown option %s" % (runner, arg))
        if i + 1 >= len(argv):
            raise SystemExit("%s: %s needs a value" % (runner, arg))
        value = argv[i + 1]
        opts[key] = read_overrides(value) if key == "overrides" else int(value)
        i += 2
    return opts
