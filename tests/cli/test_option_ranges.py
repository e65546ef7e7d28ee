"""Every number option has a range, checked by argparse (propctl.argtypes): outside it, exit 2
before anything runs, the option named.

Before: `sim clock --frame-ms 0` said 'the virtual board failed: ZeroDivisionError' (exit 1),
`--frame-ms -5` and `--rounds -1` were taken, `--seed -1` and `--seed 4294967296` printed
'(seed -1 ...)', a config error, then played a random seed with exit 0 (`plan --seed -1`
exits 2); `web --port 99999` was an OverflowError traceback.
"""
import argparse

import pytest

from propctl.argtypes import SEED, Seconds, Size, Whole
from propctl.cli import main

BAD = [
    (["sim", "clock", "--frame-ms", "0"], "--frame-ms: 0 is outside 10..1000"),
    (["sim", "clock", "--frame-ms", "-5"], "--frame-ms: -5 is outside 10..1000"),
    (["sim", "clock", "--rounds", "-1"], "--rounds: -1 is outside 1..1000"),
    (["sim", "clock", "--seed", "-1"], "--seed: -1 is outside 0..4294967295"),
    (["sim", "clock", "--seed", "4294967296"], "--seed: 4294967296 is outside 0..4294967295"),
    (["sim", "football", "--seed", "-1"], "--seed: -1 is outside 0..4294967295"),
    (["sim", "clock", "--speed", "1001"], "--speed: 1001 is outside 0..1000"),
    (["play", "pimaldaumen", "--players", "A,B", "--seed", "-1"], "--seed: -1 is outside"),
    (["play", "fingerfootball", "--plays", "0"], "--plays: 0 is outside 1..1000"),
    (["play", "fingerfootball", "--quarters", "1000"], "--quarters: 1000 is outside 2..100"),
    (["web", "--port", "99999"], "--port: 99999 is outside 0..65535"),
    (["web", "--port", "-1"], "--port: -1 is outside 0..65535"),
    (["web", "--port", "65536"], "--port: 65536 is outside 0..65535"),
    (["monitor", "--port", "x", "--timeout", "nan"], "--timeout: nan is outside"),
    (["monitor", "--port", "x", "--timeout", "-1"], "--timeout: -1 is outside"),
    (["repl", "--port", "x", "--timeout", "inf"], "--timeout: inf is outside"),
    (["selftest", "--port", "x", "--timeout", "1e9"], "--timeout: 1e9 is outside"),
    (["sim", "serve", "--heap", "abc"], "--heap: 'abc' is not a size"),
    (["sim", "serve", "--heap", "0"], "--heap: 0 is outside 64K..64M"),
    (["sim", "serve", "--heap", "100"], "--heap: 100 is outside 64K..64M"),
]


@pytest.mark.parametrize("argv, words", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_a_number_outside_its_range_is_a_command_line_error(argv, words, capsys):
    with pytest.raises(SystemExit) as exit:
        main(argv)
    assert exit.value.code == 2
    err = capsys.readouterr().err
    assert "argument " + words in " ".join(err.split()), err  # the message wraps at 80


def test_the_ends_of_a_range_are_taken_and_one_beyond_is_not():
    for kind, ends, beyond in ((Whole(1, 1000), ("1", "1000"), ("0", "1001")),
                               (SEED, ("0", "4294967295"), ("-1", "4294967296")),
                               (Seconds(0, 3600), ("0", "3600", "0.5"), ("-0.001", "3600.5", "nan", "-inf")),
                               (Size(64 * 1024, 64 * 1024 * 1024), ("64K", "64m", "65536", "64M"),
                                ("63K", "65M", "1G", "-1K", "K", ""))):
        for text in ends:
            kind(text)
        for text in beyond:
            with pytest.raises(argparse.ArgumentTypeError):
                kind(text)


def test_a_long_or_strange_value_is_shown_short_and_escaped():
    with pytest.raises(argparse.ArgumentTypeError) as error:
        SEED("9" * 5000)
    assert len(str(error.value)) < 80
    with pytest.raises(argparse.ArgumentTypeError) as error:
        SEED("\x1b]0;pwn\x07")
    assert "\x1b" not in str(error.value) and "\\u001b]0;pwn\\u0007" in str(error.value)
