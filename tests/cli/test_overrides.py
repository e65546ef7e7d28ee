"""propctl.overrides: the one host-side --set parser."""
import json

import pytest

from propctl.overrides import combine, parse_sets


def test_sets_nest_by_their_dots_and_values_are_json_or_bare_words():
    assert parse_sets(["clock.motor=stepper", 'clock.limits={"round_min_ms": 2000}', "board=esp32",
                       "clock.seed=null", "a.b.c=[1, 2]"]) == {
        "clock": {"motor": "stepper", "limits": {"round_min_ms": 2000}, "seed": None},
        "board": "esp32", "a": {"b": {"c": [1, 2]}}}
    assert parse_sets([]) == {} and parse_sets(None) == {}


def test_a_later_item_wins_and_a_value_can_be_replaced_by_a_section():
    assert parse_sets(["clock.seed=1", "clock.seed=2"]) == {"clock": {"seed": 2}}
    assert parse_sets(["clock=3", "clock.seed=2"]) == {"clock": {"seed": 2}}


@pytest.mark.parametrize("bad", ["clock.seed", "=7", "clock.=7", ".seed=7", "a..b=1"])
def test_a_malformed_item_is_named_in_the_error(bad):
    with pytest.raises(ValueError, match="KEY=VALUE") as error:
        parse_sets(["board=pico", bad])
    assert repr(bad) in str(error.value)


@pytest.mark.parametrize("text", ["1e400", "-1e999", "NaN", "Infinity", "-Infinity"])
def test_a_number_json_cannot_write_stays_the_word_typed(text):
    # 1e400 became Python's inf, sent to the board as `Infinity`, which MicroPython's json
    # refuses: the virtual board died with a traceback instead of naming the setting
    value = parse_sets(["clock.seed=" + text])["clock"]["seed"]
    assert value == text
    assert json.loads(json.dumps(value)) == text


def test_a_value_nested_too_deeply_is_named_not_a_traceback():
    with pytest.raises(ValueError) as error:
        parse_sets(["clock.limits=" + "[" * 100000 + "]" * 100000])
    assert str(error.value) == "--set clock.limits: the value is nested too deeply"


def test_combine_merges_sections_key_by_key_a_value_whole_and_leaves_its_inputs_alone():
    base = {"prop": "clock", "clock": {"chime": "solenoid", "limits": {"a": 1, "b": 2}}}
    over = {"clock": {"seed": 7, "limits": {"b": 3}}, "board": "esp32"}
    assert combine(base, over) == {"prop": "clock", "board": "esp32",
                                   "clock": {"chime": "solenoid", "seed": 7, "limits": {"b": 3}}}
    assert base["clock"] == {"chime": "solenoid", "limits": {"a": 1, "b": 2}}


@pytest.mark.parametrize("prop", ["clock", "fusebox", "football"])
def test_every_sim_refuses_a_malformed_set_naming_it(prop):
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "propctl.cli", "sim", prop, "--non-interactive",
                           "--set", "board=pico", "--set", "%s.seed" % prop],
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode in (1, 2) and "'%s.seed'" % prop in done.stderr, done
