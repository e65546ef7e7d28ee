"""settings.py and boardprofiles.py: a bad config never stops a board booting, and says what is wrong."""
import json
import sys

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from micropython_harness import FIRMWARE_LIB

sys.path.insert(0, str(FIRMWARE_LIB))  # settings and boards are plain Python, importable here too

import boardprofiles  # noqa: E402
import settings  # noqa: E402


def test_no_overrides_means_the_defaults():
    result, errors = settings.merge({})
    assert result == settings.defaults() and errors == []
    assert result is not settings.defaults() and result["clock"] is not settings.defaults()["clock"]


def test_good_values_override_one_by_one():
    result, errors = settings.merge({"board": "esp32", "clock": {"motor": "stepper", "seed": 7}})
    assert errors == []
    assert result["board"] == "esp32"
    assert result["clock"]["motor"] == "stepper" and result["clock"]["seed"] == 7
    assert result["clock"]["chime"] == settings.defaults()["clock"]["chime"]


@pytest.mark.parametrize("overrides,key", [
    ({"board": "arduino"}, "board"),
    ({"prop": 3}, "prop"),
    ({"clock": {"motor": "servo"}}, "clock.motor"),
    ({"clock": {"ramp_ms": "fast"}}, "clock.ramp_ms"),
    ({"clock": {"ramp_ms": True}}, "clock.ramp_ms"),
    ({"clock": {"ramp_ms": 1.5}}, "clock.ramp_ms"),
    ({"clock": {"max_run_ms": -5}}, "clock.max_run_ms"),
    ({"clock": {"seed": "abc"}}, "clock.seed"),
    ({"clock": {"colour": "red"}}, "clock.colour"),
    ({"volume": 11}, "volume"),
    ({"clock": [1, 2]}, "clock"),
])
def test_each_bad_value_is_named_and_keeps_its_default(overrides, key):
    result, errors = settings.merge(overrides)
    assert len(errors) == 1 and errors[0].startswith(key + ":"), errors
    assert result == settings.defaults()


@pytest.mark.parametrize("overrides,message", [
    ({"clock": {"limits": [1]}}, "clock.limits: [1] is not an object {...}; using the default {}"),
    ({"clock": {"limits": [[1]]}},
     "clock.limits: [a list of 1] is not an object {...}; using the default {}"),
    ({"clock": {"seed": {"a": 1}}},
     'clock.seed: {"a": 1} is not null or a whole number 0..4294967295; using the default null'),
    ({"clock": {"seed": {}}},
     "clock.seed: {} is not null or a whole number 0..4294967295; using the default null"),
    ({"clock": {"seed": [{"a": 1, "b": 2}]}},
     "clock.seed: [an object of 2 keys] is not null or a whole number 0..4294967295; using the default null"),
    ({"football": {"names": "Home"}}, 'football.names: "Home" is not a list of 2 different names, '
                                      '1..12 printable characters each; using the default ["Home", "Away"]'),
])
def test_a_refused_value_and_its_default_are_shown_as_values(overrides, message):
    """The value and the default read as a config author would write them, never "the default an object"."""
    assert settings.merge(overrides)[1] == [message]


def test_not_an_object_gives_all_defaults():
    result, errors = settings.merge([1, 2, 3])
    assert result == settings.defaults() and "JSON object" in errors[0]


def test_load_missing_broken_and_bad_files(tmp_path):
    printed = []
    # load() is a board's: the defaults of the prop that runs (no file: the default prop)
    result, errors = settings.load(str(tmp_path / "nope.json"), echo=printed.append)
    assert result == settings.defaults("clock") and errors == [] and printed == []
    broken = tmp_path / "broken.json"
    broken.write_text('{"clock": {"motor": "stepper",')
    result, errors = settings.load(str(broken), echo=printed.append)
    assert result == settings.defaults("clock") and "not valid JSON" in errors[0]
    assert printed and str(broken) in printed[0]
    mixed = tmp_path / "config.json"
    mixed.write_text(json.dumps({"clock": {"motor": "stepper", "chime": "gong"}}))
    result, errors = settings.load(str(mixed), echo=None)
    assert result["clock"]["motor"] == "stepper" and result["clock"]["chime"] == "piezo"
    assert len(errors) == 1 and "clock.chime" in errors[0]


# Text below U+D800: the harness's JSON transport cannot carry astral characters
# to MicroPython unchanged (its json.loads keeps surrogate pairs apart).
values = st.one_of(st.none(), st.booleans(), st.integers(-5, 10**6),
                   st.text(st.characters(max_codepoint=0xD7FF), max_size=8),
                   st.lists(st.integers(), max_size=2))
configs = st.dictionaries(
    st.sampled_from(["prop", "board", "clock", "junk"]),
    st.one_of(values, st.dictionaries(st.sampled_from(sorted(settings.defaults()["clock"]) + ["x"]),
                                      values, max_size=5)),
    max_size=4)


@hsettings(max_examples=60)
@given(configs)
def test_any_config_merges_the_same_on_both_interpreters_and_never_raises(differential, config):
    result, errors = differential.both("scenario_clock_settings:merge", config)
    # Whatever came in, every value has the default's type and a valid choice.
    for key, default in settings.defaults().items():
        if isinstance(default, dict):
            for sub, value in default.items():
                got = result[key][sub]
                assert got is None or type(got) is type(value) or (value is None and type(got) is int)
        else:
            assert type(result[key]) is type(default)
    assert result["board"] in boardprofiles.NAMES


def test_broken_text_parses_to_defaults_on_both(differential):
    assert differential.both("scenario_clock_settings:parse_ok", "{not json") == [settings.defaults(), 1]
    assert differential.both("scenario_clock_settings:parse_ok", '{"board": "esp32"}')[1] == 0


def test_board_profiles_have_the_same_clock_signals_and_distinct_pins():
    names = None
    for board in boardprofiles.NAMES:
        pins = boardprofiles.profile(board, "clock")
        if names is None:
            names = set(pins)
        assert set(pins) == names
        used = [p for p in pins.values() if p is not None]
        assert len(used) == len(set(used)), "%s uses a pin twice" % board
        limits = boardprofiles.limits(board)
        assert limits["max_run_ms"] > 0 and limits["adc_full_mv"] > 0


def test_unknown_board_or_prop_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown board 'uno'"):
        boardprofiles.profile("uno", "clock")
    with pytest.raises(ValueError, match="no pins for the teapot prop"):
        boardprofiles.profile("pico", "teapot")


def test_every_prop_section_is_configurable_from_the_config_file():
    # A prop without a DEFAULTS section could not be set from config.json at all
    # (the football box once kept its own copy, and the merge called its keys unknown).
    assert set(settings.specs()["prop"][2]) <= set(settings.defaults())
    result, errors = settings.merge({"prop": "football",
                                     "football": {"display": "leds", "seed": 9, "quarters": 2}})
    assert errors == []
    assert result["football"]["display"] == "leds" and result["football"]["seed"] == 9
    _, errors = settings.merge({"football": {"display": "neon"}})
    assert len(errors) == 1 and errors[0].startswith("football.display")
