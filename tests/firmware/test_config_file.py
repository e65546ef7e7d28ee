"""Whatever config.json holds, the board boots with the defaults, says why, and the prop runs.

settings.load runs under MicroPython on the virtual board (the board's own
json, its UnicodeError and MemoryError), then the clock plays a round on
what it returned.
"""
import json

from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

S = "scenario_settings_props:clock_from_file"


def load_and_play(vboard_process, path, content: bytes):
    path.write_bytes(content)
    return vboard_process.call(S, str(path), timeout=120)


def check_defaults_and_a_round(result, words):
    assert result["error"] is None, result["error"]
    assert result["valid"] and len(result["errors"]) == 1, result["errors"]
    assert words in result["errors"][0] and "using all defaults" in result["errors"][0]
    assert result["names"][-1] == "idle" and "chime" in result["names"]


def test_non_utf8_config(vboard_process, tmp_path):
    result = load_and_play(vboard_process, tmp_path / "config.json", b'{"clock": {"motor": "\xff\xfe"}}')
    check_defaults_and_a_round(result, "not UTF-8")


def test_a_400_kb_value(vboard_process, tmp_path):
    content = json.dumps({"clock": {"seed": "x" * 400_000}}).encode()
    result = load_and_play(vboard_process, tmp_path / "config.json", content)
    check_defaults_and_a_round(result, "more than the 8192")


def test_20000_levels_of_brackets(vboard_process, tmp_path):
    result = load_and_play(vboard_process, tmp_path / "config.json", b"[" * 20_000)
    check_defaults_and_a_round(result, "more than the 8192")


def test_deep_nesting_within_the_size_limit(vboard_process, tmp_path):
    result = load_and_play(vboard_process, tmp_path / "config.json", b"[" * 4000 + b"]" * 4000)
    check_defaults_and_a_round(result, "JSON object")
    result = load_and_play(vboard_process, tmp_path / "config.json", b'{"clock": ' + b"[" * 8000)
    check_defaults_and_a_round(result, "not valid JSON")


def test_a_directory_where_the_file_should_be(vboard_process, tmp_path):
    (tmp_path / "config.json").mkdir()
    result = vboard_process.call(S, str(tmp_path / "config.json"))
    check_defaults_and_a_round(result, "cannot be read")


@hsettings(max_examples=25)
@given(content=st.one_of(st.binary(max_size=300),
                         st.binary(max_size=40).map(lambda b: b'{"clock": {"motor": "' + b + b'"}}')))
def test_random_bytes(vboard_process, tmp_path_factory, content):
    result = load_and_play(vboard_process, tmp_path_factory.mktemp("cfg") / "config.json", content)
    assert result["error"] is None, result["error"]
    assert result["valid"] and all(isinstance(e, str) for e in result["errors"])
    assert result["names"][-1] == "idle"
