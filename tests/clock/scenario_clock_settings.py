"""Settings scenarios: the config merge must behave the same on the board and the desktop."""
import settings


def merge(overrides):
    """(settings, errors) for a parsed config object, as lists for JSON."""
    result, errors = settings.merge(overrides)
    return [result, errors]


def parse_ok(text):
    """Only whether parsing gave errors (exception texts differ between interpreters)."""
    result, errors = settings.parse(text)
    return [result, len(errors)]
