"""Parameter schemas for link commands, and their checking.

A schema maps each argument name to a type spec:
    "int"   an integer (not a bool) within +-MAX_INT
    "str"   a string of at most MAX_STR characters
    "bool"  true or false
    "ints"  a list of at most MAX_ITEMS integers
    "seed"  an integer 0..MAX_SEED, as the settings' seed kind allows
A trailing "?" makes the argument optional (the handler's default applies).
Arguments not in the schema are refused, so a typo never passes silently.
"""

MAX_INT = 0x7FFFFFFF
MAX_STR = 64
MAX_ITEMS = 16
MAX_SEED = 0xFFFFFFFF  # a seed setting's top (the settings' "seed" kind), as a start event reports it
KINDS = ("int", "str", "bool", "ints", "seed")


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and -MAX_INT <= value <= MAX_INT


def _check_value(name: str, kind: str, value):
    """None if value fits kind, else a message."""
    if kind == "int":
        if not _is_int(value):
            return "%s must be an integer" % name
    elif kind == "str":
        if not isinstance(value, str) or len(value) > MAX_STR:
            return "%s must be text of at most %d characters" % (name, MAX_STR)
    elif kind == "bool":
        if not isinstance(value, bool):
            return "%s must be true or false" % name
    elif kind == "seed":
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SEED:
            return "%s must be a whole number 0..%d" % (name, MAX_SEED)
    elif kind == "ints":
        if not isinstance(value, list) or len(value) > MAX_ITEMS:
            return "%s must be a list of at most %d integers" % (name, MAX_ITEMS)
        for item in value:
            if not _is_int(item):
                return "%s must be a list of integers" % name
    return None


def check_schema(schema: dict) -> None:
    """Raise ValueError if a prop declares a schema this module cannot check."""
    for name in schema:
        spec = schema[name]
        kind = spec[:-1] if spec.endswith("?") else spec
        if kind not in KINDS:
            raise ValueError("argument %s has unknown type %s" % (name, spec))


def validate(schema: dict, args: dict):
    """None if args satisfy schema, else a message naming the first problem."""
    for name in args:
        if not isinstance(name, str) or len(name) > MAX_STR:
            return "unexpected argument"
    # sorted: the same first problem on every interpreter, whatever the dict order
    for name in sorted(args):
        if name not in schema:
            return "unexpected argument %s" % name
    for name in sorted(schema):
        spec = schema[name]
        optional = spec.endswith("?")
        kind = spec[:-1] if optional else spec
        if name not in args:
            if optional:
                continue
            return "missing argument %s" % name
        problem = _check_value(name, kind, args[name])
        if problem:
            return problem
    return None
