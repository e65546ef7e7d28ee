"""Every setting has a type and a range in settings.specs(); no accepted value crashes a prop.

The property: hypothesis draws a value for every key of a prop's section
(valid ones, and wrong types, huge, negative, zero, nested, text). settings
either accepts a value (then it is in the merged settings and no error names
the key) or refuses it (the default is kept and one error names the key).
Then the real prop is built from those raw overrides on the virtual board
under MicroPython and plays a round: nothing may raise, and the clock's
safety figures hold (no forbidden bridge state, no reversal without the
dwell, the motor released once the hand stands).
"""
import sys

import pytest
from hypothesis import example, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from micropython_harness import FIRMWARE_LIB

sys.path.insert(0, str(FIRMWARE_LIB))

import settings  # noqa: E402

from propctl.shared.rules.geisteruhr import DEFAULT_LIMITS  # noqa: E402

S = "scenario_settings_props:"
FRESH_PACK_MV = 4500   # a fresh 3 x AA pack

# Values no setting accepts, or only at the edges: wrong types, huge, negative, zero.
# Text stays below U+D800: the harness's JSON transport keeps astral characters apart.
_text = st.text(st.characters(max_codepoint=0xD7FF), max_size=8)
WILD = st.one_of(
    st.none(), st.booleans(), st.integers(), st.sampled_from([0, -1, 1, 2**29, 2**30, 2**31, 2**62, 10**20]),
    st.integers(-10**25, 10**25), st.floats(allow_nan=False, allow_infinity=False), _text,
    st.lists(st.integers(), max_size=3), st.dictionaries(_text, st.integers(), max_size=2))


def _valid(spec):
    s = settings  # the spec's fields by name (settings.KIND, LO, ...)
    kind = spec[s.KIND]
    if kind == "int":
        values = st.integers(spec[s.LO], spec[s.HI])
        return values if spec[s.OFF] is None else st.one_of(values, st.just(spec[s.OFF]))
    if kind == "choice":
        return st.sampled_from(spec[s.CHOICES])
    if kind == "bool":
        return st.booleans()
    if kind == "seed":
        return st.one_of(st.none(), st.integers(spec[s.LO], spec[s.HI]))
    if kind in ("path", "names"):
        longest = spec[s.NAME_LEN] if kind == "names" else spec[s.MAX_LEN]
        printable = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), min_size=1,
                            max_size=longest)
        if kind == "path":
            return st.one_of(st.none(), st.just(""), printable)
        return st.lists(printable, min_size=spec[s.COUNT], max_size=spec[s.COUNT], unique=True)
    # clock.limits: the rules core checks it; draw its own keys with any ints
    return st.dictionaries(st.sampled_from(sorted(DEFAULT_LIMITS)), st.integers(-10, 200000), max_size=4)


def section(name):
    schema = settings.specs()[name]
    return st.fixed_dictionaries({}, optional={key: st.one_of(_valid(spec), WILD)
                                               for key, spec in schema.items()})


def check_merge(name, given_values):
    """Each key accepted as given or refused by name with its default kept; returns the merged section."""
    result, errors = settings.merge({name: given_values})
    for key, value in given_values.items():
        full = name + "." + key
        named = [e for e in errors if e.startswith(full + ":")]
        default = settings.defaults()[name][key]
        got = result[name][key]
        if named:
            assert len(named) == 1 and got == default, (full, value, named)
        else:
            assert got == value and type(got) is type(value), (full, value, got)
    assert all(any(e.startswith(name + "." + k + ":") for k in given_values) for e in errors), errors
    return result[name], errors


def check_clock_round(trace, merged):
    assert trace["error"] is None, trace["error"]
    assert trace["forbidden"] == 0 and trace["quick_reversals"] == 0
    assert not trace["energised"], "the motor stays energised after the round"
    if merged["battery_min_mv"] > FRESH_PACK_MV:
        assert "battery_low" in trace["names"] and "start" not in trace["names"]
    else:
        assert trace["completed"] == 1 and trace["state"] == "idle", trace["names"]
        assert trace["stop"][0]["at_ms"] <= trace["max_run_ms"] + 10


@hsettings(max_examples=30)
@given(values=section("clock"))
@example(values={"ramp_ms": 0, "motor_max_permille": 0, "dwell_ms": 99999999999999999999})
@example(values={"motor_max_permille": 5000, "max_run_ms": 0, "watchdog_ms": 1, "debounce_ms": 10**9})
@example(values={"motor": "stepper", "dwell_ms": 600000})
@example(values={"debounce_ms": 50})   # the longest debounce still takes a 100 ms press
@example(values={"motor": "stepper", "dwell_ms": 2000, "ramp_ms": 5000, "long_press_ms": 300})
@example(values={"motor": "stepper", "stepper_steps_per_s": 2})  # a 500 ms step: the scan stays 10 ms
def test_any_clock_setting_is_accepted_and_runs_or_is_refused_by_name(vboard_process, values):
    merged, errors = check_merge("clock", values)
    mp_result, mp_errors = vboard_process.call(S + "merge", {"clock": values})
    assert mp_result["clock"] == merged and mp_errors == errors  # the board judges the same
    trace = vboard_process.call(S + "clock_round", {"clock": values}, FRESH_PACK_MV)
    check_clock_round(trace, merged)


@hsettings(max_examples=30)
@given(values=section("fusebox"))
@example(values={"mcp_address": 1000, "inputs": "mcp23017", "scan_ms": 0, "watchdog_ms": 1})
@example(values={"debounce_ms": 10**12, "relay": True, "relay_ms": 0, "flicker_ms": 0})
def test_any_fusebox_setting_is_accepted_and_runs_or_is_refused_by_name(vboard_process, values):
    merged, errors = check_merge("fusebox", values)
    trace = vboard_process.call(S + "fusebox_round", {"fusebox": values})
    assert trace["error"] is None, trace["error"]
    assert [e for e in trace["errors"] if not e.startswith("fusebox.")] == []
    if merged["pack"] in (None, ""):   # no pack on this board: manual mode, the bolt button blows the fuse
        assert trace["mode"] == "manual" and "fuse_blown" in trace["names"], trace


@hsettings(max_examples=30)
@given(values=section("football"))
@example(values={"oled_height": 0, "oled_address": 1000, "quarters": 3, "names": ["A", "A"]})
@example(values={"plays_per_quarter": 0, "long_press_ms": 0, "debounce_ms": -1, "seed": 2**40})
def test_any_football_setting_is_accepted_and_runs_or_is_refused_by_name(vboard_process, values):
    check_merge("football", values)
    trace = vboard_process.call(S + "football_round", {"football": values})
    assert trace["error"] is None, trace["error"]
    assert "roll" in trace["names"], trace["names"]


@pytest.mark.parametrize("key,value", [
    ("clock.ramp_ms", 0), ("clock.motor_max_permille", 0), ("clock.motor_max_permille", 5000),
    ("clock.dwell_ms", 99999999999999999999), ("clock.dwell_ms", 600000), ("clock.max_run_ms", 0),
    ("clock.debounce_ms", 10**9), ("clock.watchdog_ms", 1), ("fusebox.scan_ms", 0),
    ("fusebox.mcp_address", 1000), ("fusebox.watchdog_ms", 1), ("football.quarters", 3),
])
def test_the_values_from_issue_12_are_refused_by_key(key, value):
    name, sub = key.split(".")
    result, errors = settings.merge({name: {sub: value}})
    assert len(errors) == 1 and errors[0].startswith(key + ": "), errors
    assert "using the default" in errors[0]
    assert result == settings.defaults()


def test_every_setting_is_in_the_one_schema_with_a_valid_default():
    for name, spec in settings.specs().items():
        specs = spec.items() if isinstance(spec, dict) else [(None, spec)]
        for key, item in specs:
            full = name if key is None else name + "." + key
            value = item[1]
            result, errors = settings.merge({name: value} if key is None else {name: {key: value}})
            assert errors == [], (full, errors)


def test_the_stepper_coils_are_released_within_the_longest_dwell_after_the_stop(vboard_process):
    longest = settings.specs()["clock"]["dwell_ms"][settings.HI]
    trace = vboard_process.call("scenario_clock_vboard:round_trace",
                                {"clock": {"motor": "stepper", "dwell_ms": longest, "seed": 4}},
                                {"run_ms": 60000})
    stop = [e for e in trace["events"] if e["event"] == "stop"][0]["t"]
    assert not trace["hand"]["energised"]
    assert trace["dwell_ms"] == longest
    assert trace["elapsed"] > stop + longest + trace["tick_ms"]


def test_the_sims_set_message_names_the_key_and_the_round_still_plays():
    from test_clock_sim import sim
    result = sim("--seed", "3", "--set", "clock.ramp_ms=0", "--set", "clock.dwell_ms=600000")
    assert result.returncode == 0, result.stdout + result.stderr
    out = " ".join(result.stdout.split())  # the log wraps at 80 columns
    assert "clock.ramp_ms: 0 is not a whole number 1..5000; using the default 120" in out
    assert "clock.dwell_ms: 600000 is not a whole number 50..2000; using the default 150" in out
    assert "0 forbidden bridge states, 0 reversals without the dwell" in out
