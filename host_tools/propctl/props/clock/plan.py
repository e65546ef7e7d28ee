"""`propctl plan --seed N`: the ghost clock's motion plan for a seed, as a table and an SVG.

The plan is rules.geisteruhr.plan_motion's (the firmware's own): segments of
(duration_ms, speed per mille, sign = direction). The SVG shows speed and hand
angle over the round, the stop and the chime marked. `round_svg` draws the
same picture from a played round's frames and events (`propctl sim clock --picture`).
"""
import argparse
import sys

from propctl.argtypes import SEED, SEED_MAX
from propctl.atomic import output_problem, write_atomic
from propctl.shared.rules.geisteruhr import plan_motion
from propctl.termsafe import printable

HAND_DEG_PER_S = 120  # the virtual board's hand at full speed (vboard/vprops/clock/bench.py)
WIDTH, HEIGHT = 760, 420
LEFT, RIGHT = 60, 20
SPEED_TOP, SPEED_BOTTOM = 30, 180   # speed panel's y range
ANGLE_TOP, ANGLE_BOTTOM = 230, 380  # angle panel's y range


def plan_points(plan: list) -> tuple:
    """(speed points, angle points, stop ms) of a plan: [(ms, per mille)], [(ms, degrees)]."""
    speed, angle = [], []
    t, deg = 0, 0.0
    for duration, permille in plan:
        speed += [(t, permille), (t + duration, permille)]
        angle.append((t, deg))
        deg += permille / 1000 * HAND_DEG_PER_S * duration / 1000
        t += duration
    angle.append((t, deg))
    speed.append((t, 0))
    return speed, angle, t


def svg(speed: list, angle: list, marks: list, title: str) -> str:
    """Two panels over one time axis: speed (per mille, signed) and hand angle (degrees)."""
    end = max([t for t, _ in speed + angle] + [t for t, _ in marks] + [1])
    lo = min([a for _, a in angle] + [0])
    hi = max([a for _, a in angle] + [1])

    def x(t):
        return LEFT + (WIDTH - LEFT - RIGHT) * t / end

    def y_speed(v):
        return SPEED_TOP + (SPEED_BOTTOM - SPEED_TOP) * (1000 - v) / 2000

    def y_angle(a):
        return ANGLE_BOTTOM - (ANGLE_BOTTOM - ANGLE_TOP) * (a - lo) / (hi - lo or 1)

    def line(points, fy, colour):
        return '<polyline fill="none" stroke="%s" stroke-width="1.5" points="%s"/>' % (
            colour, " ".join("%.1f,%.1f" % (x(t), fy(v)) for t, v in points))

    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" '
           'font-size="12">' % (WIDTH, HEIGHT),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="18" font-weight="bold">%s</text>' % (LEFT, title),
           '<text x="4" y="%d">speed</text>' % ((SPEED_TOP + SPEED_BOTTOM) // 2),
           '<text x="4" y="%d">angle</text>' % ((ANGLE_TOP + ANGLE_BOTTOM) // 2),
           '<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#bbb"/>' % (
               LEFT, WIDTH - RIGHT, y_speed(0), y_speed(0)),
           '<text x="%d" y="%d" fill="#666">+1000</text>' % (LEFT - 40, SPEED_TOP + 4),
           '<text x="%d" y="%d" fill="#666">-1000</text>' % (LEFT - 40, SPEED_BOTTOM + 4),
           '<text x="%d" y="%d" fill="#666">%d&#176;</text>' % (LEFT - 40, ANGLE_TOP + 4, hi),
           '<text x="%d" y="%d" fill="#666">%d&#176;</text>' % (LEFT - 40, ANGLE_BOTTOM + 4, lo),
           line(speed, y_speed, "#1f5fbf"), line(angle, y_angle, "#bf3f1f")]
    for second in range(0, end // 1000 + 1, 5):
        out.append('<text x="%.1f" y="%d" fill="#666" text-anchor="middle">%d s</text>'
                   % (x(second * 1000), HEIGHT - 16, second))
    rows = [ANGLE_BOTTOM + 11, ANGLE_TOP - 8]  # under the angle panel; between the panels
    taken = [float("-inf")] * len(rows)  # per row, the right end of the last label written there
    for t, label in sorted(marks):
        out.append('<line class="mark" x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#2a2" '
                   'stroke-dasharray="4 3"/>' % (x(t), x(t), SPEED_TOP, ANGLE_BOTTOM))
        # 12 px text is at most about 7.2 px a character: a label that would run past the right
        # edge ends at its line instead, and one that would meet the last one goes a row up
        width = len(label) * 7.2
        left = x(t) + 3 if x(t) + 3 + width <= WIDTH else x(t) - 3 - width
        row = next((i for i in range(len(rows)) if taken[i] < left), len(rows) - 1)
        taken[row] = left + width
        anchor = ' text-anchor="end"' if left < x(t) else ""
        out.append('<text x="%.1f" y="%d" fill="#2a2"%s>%s</text>'
                   % (x(t) - 3 if anchor else x(t) + 3, rows[row], anchor, label))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def round_svg(frames: list, events: list) -> str:
    """The picture of a played round from the sim's frames and events (times from the start event)."""
    start = next((e["t"] for e in events if e.get("event") == "start"), frames[0]["t"] if frames else 0)
    seed = next((e.get("seed") for e in events if e.get("event") == "start"), "?")
    frames = [f for f in frames if f["t"] >= start]
    angle = [(f["t"] - start, f["angle_mdeg"] / 1000) for f in frames]
    speed = []
    for a, b in zip(angle, angle[1:]):
        dt = b[0] - a[0]
        if dt > 0:  # degrees per second as per mille of the hand's top speed
            permille = (b[1] - a[1]) * 1000 / dt / HAND_DEG_PER_S * 1000
            speed.append((a[0], max(-1000, min(1000, permille))))
    marks = [(e["t"] - start, e["event"]) for e in events
             if e.get("event") in ("stop", "chime") and e["t"] >= start]
    return svg(speed, angle, marks, "ghost clock round, seed %s (as played)" % seed)


def table(plan: list) -> list:
    """The plan as lines: segment, start, duration, speed, direction."""
    lines = ["  #   start s   length s   speed   turning"]
    t = 0
    for i, (duration, permille) in enumerate(plan, 1):
        turning = "clockwise" if permille > 0 else "anticlockwise" if permille < 0 else "stands"
        lines.append("%3d  %8.2f  %9.2f  %5d%%   %s" % (i, t / 1000, duration / 1000, abs(permille) // 10,
                                                       turning))
        t += duration
    lines.append("stop after %.2f s, then the chime" % (t / 1000))
    return lines


def run(args) -> int:
    picture = args.svg or "plan-seed%d.svg" % args.seed
    problem = None if picture == "-" else output_problem(picture)
    if problem:  # a command-line error, found before anything is printed
        print("propctl plan: cannot write the picture %s: %s; nothing written"
              % (printable(picture), problem), file=sys.stderr)
        return 2
    plan = plan_motion(args.seed)
    speed, angle, stop = plan_points(plan)
    text = svg(speed, angle, [(stop, "stop and chime")], "ghost clock motion plan, seed %d" % args.seed)
    if picture == "-":  # the SVG alone on standard output (for a pipe); the table to stderr
        print("\n".join(table(plan)), file=sys.stderr)
        sys.stdout.write(text)
        sys.stdout.flush()
        return 0
    print("\n".join(table(plan)))
    try:
        write_atomic(picture, text.encode("utf-8"))
    except OSError as exc:
        print("propctl plan: cannot write the picture %s: %s; nothing written"
              % (printable(picture), exc.strerror or exc), file=sys.stderr)
        return 1
    print("picture: %s" % printable(picture))
    return 0


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "plan", help="the ghost clock's motion plan for a seed: a table and an SVG",
        description="Print the motion plan the clock firmware draws for a seed (default limits) and "
                    "write an SVG of speed and hand angle over time, stop and chime marked.",
        epilog="Examples:\n"
               "  propctl plan --seed 3                  # the table; the SVG to plan-seed3.svg\n"
               "  propctl plan --seed 42 --svg round.svg\n"
               "  propctl sim clock --seed 42 --picture played.svg   # the round as played")
    parser.add_argument("--seed", type=SEED, required=True, help="the round's seed, 0..%d" % SEED_MAX)
    parser.add_argument("--svg", metavar="FILE",
                        help="where the picture goes (plan-seedN.svg); - writes it to standard "
                             "output and the table to standard error")
    parser.set_defaults(func=run)


if __name__ == "__main__":
    sys.exit(run(argparse.Namespace(seed=int(sys.argv[1]), svg=None)))
