"""What each link command does, in words: the one place the reference pages read them from.

The commands and their arguments come from the code (the command tables); only the sentence
for a person lives here. A setting's sentence is not here: it is the `#:` comment beside its
spec (firmware/lib/settings.py, firmware/lib/props/NAME/settings_schema.py), read by
generate.setting_descriptions. tests/docs/test_reference_docs.py fails when a setting or command
has no sentence, or a sentence names one that does not exist.
"""

# group -> command -> what it does. Groups: "builtin" (the link's own), "run" (every running
# prop), "idle" (safe and maintenance mode), "selftest" (every prop, `propctl selftest`). Each
# prop's own commands are in its folder: propctl/props/<name>/reference.py (COMMANDS, TITLE).
COMMANDS = {
    "builtin": {
        "hello": "identity: firmware and protocol version, prop, board, mode (run, safe, "
                 "maintenance), the commands it takes (`caps`) and any config errors",
        "ping": "answers `{\"pong\": true}`",
        "help": "the command table: every command and its argument schema",
    },
    "run": {
        "maintenance": "reboot with no prop and no watchdog, for `propctl deploy` or `propctl repl`",
        "mem": "the heap after a collection: `free` and `used` bytes",
    },
    "idle": {
        "why": "safe mode: the error of the last crash and any config problems",
        "leave": "clear safe or maintenance mode and reset: the prop runs again",
    },
    "selftest": {
        "selftest_begin": "stop the prop and list the wiring test's outputs and inputs",
        "selftest_output": "run one output step (motor, chime, LED, relay) through the prop's drivers",
        "selftest_inputs": "the inputs' changes seen since the last call",
        "selftest_end": "end the self-test: the board resets and the prop runs again",
    },
}


def prop_words(prop: str):
    """The prop's reference part (propctl/props/<prop>/reference.py: TITLE, COMMANDS), or None."""
    from propctl import props
    return props.part(prop, "reference")


def title(prop: str) -> str:
    """A prop's heading: its TITLE and its name, "The ghost clock (`clock`)"; the name alone for a
    prop with no reference part yet (a new prop: docs/development.md, Adding a prop)."""
    words = prop_words(prop)
    return "%s (`%s`)" % (words.TITLE, prop) if words is not None else "`%s`" % prop


def all_commands() -> dict:
    """group -> command -> sentence: the common groups above, then every prop's (by the registry)."""
    from propctl import props
    out = dict(COMMANDS)
    for prop in props.names():
        words = prop_words(prop)
        out[prop] = dict(words.COMMANDS) if words is not None else {}
    return out
