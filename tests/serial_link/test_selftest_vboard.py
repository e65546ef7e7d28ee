"""`propctl selftest` against the served virtual board, wired correctly and wired wrong.

The board runs the real firmware (compiled as `propctl deploy` would copy it)
behind a pseudo-terminal; vboard/world.py is its hardware as built, with the
wiring faults put in through vboard_world.json, and the virtual person works
its switches and answers from what its outputs did.
"""
import argparse
import json
import re
import shutil

import pytest
from waits import wait_until

from propctl.build import build_tree
from propctl.serial_link import selftest
from propctl.serial_link.serve import VirtualBoard

pytestmark = pytest.mark.slow

MISWIRED_FUSEBOX = {"wires": {"window3": "window4", "window4": "window3", "window5": None}}
MISWIRED_CLOCK = {"wires": {"motor_in1": "motor_in2", "motor_in2": "motor_in1"}}


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    out = tmp_path_factory.mktemp("compiled")
    build_tree(out)
    return out


class Recording(selftest.VirtualPerson):
    """The virtual person, keeping what it saw before and after every step."""

    def __init__(self, flash) -> None:
        super().__init__(flash)
        self.seen: list = []

    def ask(self, name, question, choices):
        answer = super().ask(name, question, choices)
        self.seen.append((name, self.look()))
        return answer

    def done(self, name):
        self.seen.append((name, self.look()))


def run_selftest(compiled, tmp_path, capsys, prop, world=None, board="pico", extra=None, person=None,
                 config=None):
    """Serve a board with `prop` on `board` wired as `world` says; run the self-test. (code, out, person)"""
    flash = tmp_path / "flash"
    shutil.copytree(compiled, flash)
    (flash / "config.json").write_text(json.dumps(dict(config or {}, prop=prop, board=board)))
    (flash / "vboard_world.json").write_text(json.dumps(world or {}))
    extra = extra or {}
    with VirtualBoard(flash) as vb:
        args = argparse.Namespace(port=vb.port, non_interactive=extra.get("non_interactive", False),
                                  answers=extra.get("answers"), vboard=None,
                                  timeout=extra.get("timeout", 3.0))
        if person is None and args.answers is None:
            person = Recording(flash)
        code = selftest.run(args, person)
        wait_until(lambda: vb.boots >= 2, poll=0.1)  # selftest_end resets the board
        boots = vb.boots
    out = capsys.readouterr().out
    assert boots >= 2, "the board did not reset after the self-test"
    return code, out, person


def rows(out: str) -> dict:
    """The summary table: {signal: (result, detail)}."""
    lines = out.splitlines()
    start = max(i for i, line in enumerate(lines) if line.startswith("signal "))
    table = {}
    signal = None
    for line in lines[start + 1:]:
        if line.endswith("failed") and "signals" in line:
            break
        assert len(line) < 80, line  # the table fits an 80-column terminal
        if line.startswith(" ") and signal is not None:  # a long detail goes on under its column
            result, detail = table[signal]
            table[signal] = (result, detail + " " + line.strip())
            continue
        signal, result, detail = re.match(r"(window \d|\S+)\s+(\S+)\s*(.*)$", line).groups()
        table[signal] = (result, detail)
    return table


def test_correctly_wired_clock_passes_every_signal_within_the_motor_limits(compiled, tmp_path, capsys):
    code, out, person = run_selftest(compiled, tmp_path, capsys, "clock")
    table = rows(out)
    # the self-test plays each of the clock's sounds (drivers.chime.CLOCK_SOUNDS)
    assert set(table) == {"motor_cw", "motor_ccw", "piezo_bell", "piezo_alarm", "led", "button"}, out
    assert all(result == "ok" for result, _ in table.values()), out
    assert code == 0 and "6 signals, 0 failed" in out
    assert table["button"][1] == "seen on GP14 (pin 19)"
    seen = dict(person.seen)
    # clockwise, then back: the hand went both ways and never two bridge sides at once. How far
    # it turned and how long it stood between the turns are timings: this board's clock is the
    # host's wall clock, where a stall between the firmware's clock reading and its pin write
    # moves the hand model's record of the write (under load the stand between the turns counted
    # as shorter than the 150 ms dwell). They are asserted in virtual time:
    # tests/clock/test_selftest_motor_timing.py.
    assert seen["motor_cw"]["hand_mdeg"] > 0 > seen["motor_ccw"]["hand_mdeg"] - seen["motor_cw"]["hand_mdeg"]
    for name in ("motor_cw", "motor_ccw", "button"):
        assert seen[name]["motor"]["forbidden"] == 0, (name, seen[name]["motor"])
    assert seen["motor_ccw"]["motor"]["reversals"] == 1
    # pressing the start button during the self-test started no round: the motor was never
    # energised, and the hand stood (a round turns it tens of degrees; what it still coasted
    # after the last step, read a little later on a loaded host, is a fraction of one)
    assert not seen["button"]["motor"]["energised"]
    assert abs(seen["button"]["hand_mdeg"] - seen["motor_ccw"]["hand_mdeg"]) < 1000, seen


def test_reversed_motor_leads_are_named(compiled, tmp_path, capsys):
    code, out, _ = run_selftest(compiled, tmp_path, capsys, "clock", MISWIRED_CLOCK)
    table = rows(out)
    assert code == 1
    for name in ("motor_cw", "motor_ccw"):
        assert table[name] == ("FAIL", "the hand turned the other way: the motor's leads are reversed; "
                                       "swap the two motor wires at the driver (AOUT1/AOUT2)")
    assert table["piezo_bell"][0] == table["led"][0] == table["button"][0] == "ok"


def test_a_switched_off_pack_is_named_as_the_motor_supply_not_the_wires(compiled, tmp_path, capsys):
    # An ESP32 clock on USB with the whole pack switched off cannot turn its motor
    # or strike its bell; the self-test blamed the wires. The divider reads the pack: 0 V.
    config = {"clock": {"chime": "solenoid", "battery_min_mv": 3600}}
    code, out, _ = run_selftest(compiled, tmp_path, capsys, "clock", {"battery_mv": 0}, board="esp32",
                                config=config)
    table = rows(out)
    assert code == 1
    for name in ("motor_cw", "motor_ccw", "solenoid"):
        result, detail = table[name]
        assert result == "FAIL" and detail.startswith("not seen: the motor supply is off (the battery "
                                                      "pack reads 0.0 V): switch the pack on"), out
        assert "wires" not in detail
    assert table["led"][0] == table["button"][0] == "ok"


def test_correctly_wired_fusebox_passes_every_signal(compiled, tmp_path, capsys):
    code, out, _ = run_selftest(compiled, tmp_path, capsys, "fusebox", config={"fusebox": {"relay": True}})
    table = rows(out)
    assert set(table) == {"led_red", "led_green", "piezo_blown", "piezo_click", "piezo_wrong", "relay",
                          "btn_next", "btn_prev", "btn_bolt"} | {"window %d" % n for n in range(1, 9)}, out
    assert all(result == "ok" for result, _ in table.values()), out
    assert code == 0 and "17 signals, 0 failed" in out


def test_swapped_windows_and_a_dead_sensor_are_named_exactly(compiled, tmp_path, capsys):
    code, out, _ = run_selftest(compiled, tmp_path, capsys, "fusebox", MISWIRED_FUSEBOX)
    table = rows(out)
    assert code == 1 and "16 signals, 3 failed" in out, out
    assert table["window 3"] == ("FAIL", "no change seen on GP6 (pin 9), but window 4's input GP7 "
                                         "(pin 10) changed: the wires of window 3 and window 4 are swapped "
                                         "at the board")
    assert table["window 4"] == ("FAIL", "no change seen on GP7 (pin 10), but window 3's input GP6 "
                                         "(pin 9) changed: the wires of window 4 and window 3 are swapped "
                                         "at the board")
    assert table["window 5"] == ("FAIL", "no change seen on GP8 (pin 11): check the wire and the sensor")
    for n in (1, 2, 6, 7, 8):
        assert table["window %d" % n][0] == "ok"


def test_esp32_pins_are_named_by_their_header_place(compiled, tmp_path, capsys):
    code, out, _ = run_selftest(compiled, tmp_path, capsys, "fusebox", {"wires": {"btn_bolt": None}},
                                board="esp32")
    table = rows(out)
    assert code == 1
    assert table["btn_bolt"] == ("FAIL",
                                 "no change seen on GPIO 39 (pin J1-4): check the wire and the button")
    assert table["window 3"] == ("ok", "seen on GPIO 14 (pin J1-12)")


def test_esp32s3_pins_are_named_by_their_devkitc1_header_place(compiled, tmp_path, capsys):
    code, out, _ = run_selftest(compiled, tmp_path, capsys, "fusebox", {"wires": {"btn_bolt": None}},
                                board="esp32s3")
    table = rows(out)
    assert code == 1
    assert table["btn_bolt"] == ("FAIL",
                                 "no change seen on GPIO 12 (pin J1-18): check the wire and the button")
    assert table["window 3"] == ("ok", "seen on GPIO 6 (pin J1-6)")


def test_non_interactive_runs_the_outputs_and_asks_nothing(compiled, tmp_path, capsys):
    code, out, person = run_selftest(compiled, tmp_path, capsys, "clock", extra={"non_interactive": True})
    table = rows(out)
    assert set(table) == {"motor_cw", "motor_ccw", "piezo_bell", "piezo_alarm", "led"}
    assert all(row == ("ran", "not confirmed (--non-interactive)") for row in table.values())
    assert code == 0 and "did it?" not in out and person.seen == []


def test_scripted_answers_fail_what_was_not_seen_and_unworked_inputs_time_out(compiled, tmp_path, capsys):
    code, out, _ = run_selftest(compiled, tmp_path, capsys, "football",
                                extra={"answers": "y,y,y,y,n", "timeout": 1.0})
    table = rows(out)
    assert code == 1
    for sound in ("go", "beat", "end", "refused"):  # each of the box's sounds (parts.SOUNDS)
        assert table["piezo_" + sound] == ("ok", "")
    assert table["led"] == ("FAIL", "not seen: check the wires on GP25 (on the board)")
    for name in ("btn_roll", "btn_kick", "btn_good", "btn_miss"):
        assert table[name][0] == "FAIL" and table[name][1].endswith("check the wire and the button")
