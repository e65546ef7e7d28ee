"""Tiny assertion helpers for tests that run under pytest *and* MicroPython."""


def raises(exc_type, fn, *args, **kwargs):
    """Call fn and insist it raises exc_type; return the exception."""
    try:
        fn(*args, **kwargs)
    except exc_type as exc:
        return exc
    raise AssertionError("%s did not raise %s" % (fn, exc_type.__name__))
