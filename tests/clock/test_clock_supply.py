"""Voltage-compensated drive: the recommended 3 V motor on a 4.8-3.3 V pack.

The virtual hand's motor is the recommended 3 V N20: it turns at its rated speed at an
average 3 V (duty x the pack's voltage, vboard/physics.py) and proportionally otherwise.
Over a simulated discharge the average motor voltage stays at or below motor_rated_mv,
and with the pack read through the divider the hand's speed for the same plan holds.
"""
import pytest

D = "scenario_clock_supply:"
FULL_SPEED = {"speed_min": 1000}  # every moving segment at the planner's full speed
RATED_MV = 3000


def spread(rounds):
    travel = [r[1] for r in rounds]
    return (max(travel) - min(travel)) / max(travel)


@pytest.mark.parametrize("board", ["pico", "esp32"])
def test_the_recommended_motor_is_not_over_driven_by_default(vboard_process, board):
    # Nothing set but the seed: without compensation full speed was full duty, 4.8 V on a 3 V motor.
    config = {"board": board, "clock": {"seed": 5, "limits": FULL_SPEED}}
    rounds = vboard_process.call(D + "discharge", config, 4800, 3300, 3)
    assert all(0 < peak <= RATED_MV for _, _, peak in rounds), rounds
    assert rounds[0][2] >= RATED_MV * 97 // 100  # a fresh pack still gives (nearly) the rated 3 V


@pytest.mark.parametrize("board,divider", [("pico", 2000), ("esp32", 2000), ("esp32s3", 3128)])
def test_with_the_divider_the_hand_keeps_its_speed_as_the_pack_runs_down(vboard_process, board, divider):
    config = {"board": board, "clock": {"seed": 3, "battery_min_mv": 3000,
                                        "battery_divider_permille": divider}}
    rounds = vboard_process.call(D + "discharge", config, 4800, 3300, 6)
    assert [r[0] for r in rounds] == [4800, 4550, 4300, 4050, 3800, 3550]
    assert spread(rounds) <= 0.05, rounds
    assert all(peak <= RATED_MV for _, _, peak in rounds), rounds
    full = dict(config, clock=dict(config["clock"], limits=FULL_SPEED))
    rounds = vboard_process.call(D + "discharge", full, 4800, 3300, 6)
    # full speed is the rated voltage (less the 1/32 margin for a reading that is low), never above
    assert all(RATED_MV * 95 // 100 <= peak <= RATED_MV for _, _, peak in rounds), rounds


def test_without_the_divider_the_hand_slows_with_the_pack_but_is_never_over_driven(vboard_process):
    # The comparison the compensation is for: clock.supply_mv (the fresh 4.8 V) is assumed.
    rounds = vboard_process.call(D + "discharge", {"clock": {"seed": 3}}, 4800, 3300, 6)
    assert spread(rounds) > 0.2, rounds
    assert all(peak <= RATED_MV for _, _, peak in rounds), rounds


def test_a_6v_motor_set_as_such_runs_at_full_duty_on_the_pack(vboard_process):
    # motor_rated_mv above the pack: full duty, the pack's whole voltage, as fast as it can
    rounds = vboard_process.call(D + "discharge", {"clock": {"seed": 5, "motor_rated_mv": 6000,
                                                             "limits": FULL_SPEED}}, 4800, 3300, 2)
    assert rounds[0][2] >= 4700, rounds


def test_the_pack_is_read_every_few_seconds_and_never_next_to_a_deadline(vboard_process):
    trace = vboard_process.call(D + "pack_reads", {"clock": {"seed": 3, "battery_min_mv": 3000}}, 4200)
    reads = trace["reads"]
    start, stop, tick = trace["start"], trace["stop"], trace["tick_ms"]
    during = [t for t in reads if start < t <= stop]
    assert reads[0] <= start  # the start's own check gives the first reading
    assert len(during) >= (stop - start) // 2000 - 2, (reads, start, stop)
    assert abs(trace["pack_mv"] - 4200) <= 10  # the snapshot shows the last reading
    gaps = [b - a for a, b in zip(reads, reads[1:])]
    assert min(gaps) >= 2000, gaps  # at most every 2 s: a few ADC conversions per reading
    for t in during:
        # no stop and no segment end falls in the tick of a reading or the next one
        assert all(not (t <= end <= t + tick) for end in trace["segment_ends"]), t
        assert stop - t > tick, (t, stop)


def test_a_divider_that_reads_0v_mid_round_falls_back_to_supply_mv(vboard_process):
    # a broken divider wire on a fresh pack: the reading must not mean full duty
    trace = vboard_process.call(D + "pack_reads", {"clock": {"seed": 5, "battery_min_mv": 3000,
                                                             "limits": FULL_SPEED}}, 4800, 5000)
    assert trace["peak_mv"] <= RATED_MV and "stop" in trace["names"]


def test_a_pack_switched_off_is_named_as_the_motor_supply(vboard_process):
    out = vboard_process.call(D + "refused_when_off", {"clock": {"battery_min_mv": 3600}})
    assert out["refused"].startswith("the battery reads 0.00 V: the motor supply is off"), out
    assert "battery_low" in out["names"] and out["state"] == "idle"
