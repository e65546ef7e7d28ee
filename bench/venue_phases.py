"""Where the time goes when fifty virtual props are listed ("50 props listed within 2 s").

    python bench/venue_phases.py [--props N]      prints the figures (also in `make bench`'s venue section)

Each virtual prop is a process: CPython (the PyPI unix port is a CPython extension,
micropython_run) running MicroPython, which compiles and runs main.py and the firmware's
.py files, then connects to the broker. Measured, on this machine as it is:

1. start-up: CPU seconds (user + system, /proc/PID/stat) each prop spent from its launch
   until its `net` "up" line, and the wall time from the first launch until all were up.
   The N props run the firmware as .mpy files (what `propctl deploy` copies to a board);
   one prop of each kind, one at a time, from the .py sources (what `propctl sim` runs)
   and the bare interpreter's start (`micropython -c pass`) for comparison.
2. idle: CPU per prop over IDLE_S once all are up (a prop wakes every tick_ms, 5-10 ms,
   to scan its buttons and switches, as a board does: this says whether it also spins).
3. the view: from starting `propctl venue --json` until it listed all N online, wall time
   and the view's own CPU (getrusage of the waited child); three runs with the props
   running, and three with every prop paused (SIGSTOP, less than the keep-alive, so the
   broker's retained "online" stands): what the idle props cost the view.
"""
import json
import os
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools" / "testbed"))
sys.path.insert(0, str(ROOT / "host_tools"))

from mosquitto_broker import Mosquitto  # noqa: E402

from propctl.build import PROPS as KINDS  # noqa: E402  (the firmware's props.NAMES)
from propctl.launcher import command  # noqa: E402
from propctl.venue.netprop import NetProp  # noqa: E402

IDLE_S = 10.0
HZ = os.sysconf("SC_CLK_TCK")


def cpu_s(pid: int) -> float:
    """User + system CPU seconds of a running process."""
    fields = Path("/proc/%d/stat" % pid).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / HZ


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def view_run(port: int, ids: set, timeout: float = 30) -> tuple:
    """(wall s, the view's CPU s) until `propctl venue --json` listed every id online."""
    env = dict(os.environ, PROPCTL_MQTT_PASSWORD="venue-pw")
    cpu0 = children_cpu()
    start = time.monotonic()
    proc = subprocess.Popen([str(Path(sys.executable).parent / "propctl"), "venue", "--broker",
                             "mqtt://venue@127.0.0.1:%d" % port, "--json", "--seconds", str(timeout)],
                            stdout=subprocess.PIPE, text=True, env=env)
    seen: set = set()
    wall = None
    assert proc.stdout is not None
    for line in proc.stdout:
        record = json.loads(line)
        if record.get("topic") == "status" and record.get("data") == "online":
            seen.add(record["id"])
        if ids <= seen:
            wall = time.monotonic() - start
            break
    proc.send_signal(signal.SIGINT if wall is None else signal.SIGKILL)
    proc.wait()
    if wall is None:
        raise RuntimeError("propctl venue saw only %d of %d props" % (len(seen & ids), len(ids)))
    return wall, children_cpu() - cpu0


def bare_start_cpu(runs: int = 5) -> float:
    """Median CPU seconds of `micropython -c pass` (CPython + the unix port, nothing imported)."""
    costs = []
    for _ in range(runs):
        cpu0 = children_cpu()
        subprocess.run(command(["-c", "pass"], "360K"), check=True)
        costs.append(children_cpu() - cpu0)
    return statistics.median(costs)


def up_cpu(prop: NetProp) -> float:
    """CPU seconds the prop had used when its `net` "up" line came."""
    if prop.wait_event(lambda e: e["ev"] == "net" and e["data"]["state"] == "up", 120) is None:
        raise RuntimeError("%s never came up: %r" % (prop.prop_id, prop.other[-3:]))
    return cpu_s(prop._proc.pid)  # type: ignore[union-attr]


def measure(folder: Path, count: int = 50, idle_s: float = IDLE_S) -> dict:
    from propctl.build import FIRMWARE_DIR, build_tree
    mpy = folder / "mpy-firmware"
    build_tree(mpy)
    users = {"p%d" % i: "pw-p%d" % i for i in range(1, count + 1)}
    users["venue"] = "venue-pw"
    ids = set(users) - {"venue"}
    r: dict = {"props": count, "bare_start_cpu_s": bare_start_cpu()}
    with Mosquitto(folder / "broker", users) as broker:
        py_start = []
        for kind in KINDS:
            with NetProp(kind, "127.0.0.1", broker.port, "p1", user="p1", password=users["p1"],
                         firmware_dir=FIRMWARE_DIR) as prop:
                py_start.append(up_cpu(prop))
        r["py_start_cpu_s"] = statistics.median(py_start)
        props = []
        try:
            first = time.monotonic()
            for i in range(1, count + 1):
                pid = "p%d" % i
                props.append(NetProp(KINDS[i % len(KINDS)], "127.0.0.1", broker.port, pid, user=pid,
                                     password=users[pid], firmware_dir=mpy).start())
            startup = [up_cpu(prop) for prop in props]
            r["all_up_s"] = time.monotonic() - first
            r["start_cpu_s"] = statistics.median(startup)
            r["start_cpu_total_s"] = sum(startup)
            time.sleep(1.0)
            before = {p.prop_id: cpu_s(p._proc.pid) for p in props}  # type: ignore[union-attr]
            t0 = time.monotonic()
            time.sleep(idle_s)
            spent = time.monotonic() - t0
            idle = {p.prop: [] for p in props}  # type: ignore[var-annotated]
            for p in props:
                idle[p.prop].append(100 * (cpu_s(p._proc.pid) - before[p.prop_id]) / spent)  # type: ignore
            r["idle_pct"] = {kind: statistics.median(v) for kind, v in idle.items()}
            r["idle_pct_total"] = sum(sum(v) for v in idle.values())
            r["idle_pct_max"] = max(max(v) for v in idle.values())
            r["view_running"] = [view_run(broker.port, ids) for _ in range(3)]
            for p in props:
                os.killpg(p._proc.pid, signal.SIGSTOP)  # type: ignore[union-attr]
            try:
                r["view_paused"] = [view_run(broker.port, ids) for _ in range(3)]
            finally:
                for p in props:
                    os.killpg(p._proc.pid, signal.SIGCONT)  # type: ignore[union-attr]
        finally:
            for prop in props:
                prop.stop()
    return r


def report(r: dict) -> str:
    def runs(key):
        return ", ".join("%.2f s (view CPU %.2f s)" % run for run in r[key])
    idle = ", ".join("%s %.1f %%" % (k, v) for k, v in sorted(r["idle_pct"].items()))
    return ("### Where the time goes: %d props (bench/venue_phases.py)\n\n"
            "- Start-up: each prop (firmware as .mpy, as deployed) used a median **%.2f s** of CPU "
            "from its launch until it was up; from the .py sources (compiled at each start) %.2f s; a bare "
            "`micropython -c pass` (CPython with the unix port in it) %.2f s. All %d, %.1f CPU seconds "
            "on this machine's %d cores, were up %.2f s after the first launch.\n"
            "- Idle: CPU per prop (median) %s; the busiest %.1f %%; all %d together %.0f %% of one core. "
            "%s\n"
            "- The view, started with all props up, listed all %d online in %s; with every prop "
            "paused (SIGSTOP) %s.\n"
            % (r["props"], r["start_cpu_s"], r["py_start_cpu_s"], r["bare_start_cpu_s"],
               r["props"], r["start_cpu_total_s"],
               os.cpu_count() or 0, r["all_up_s"], idle, r["idle_pct_max"], r["props"], r["idle_pct_total"],
               "No prop spins (one that did would hold a core): each sleeps in `poll()` until its next "
               "scan, every 5-10 ms, as the board's loop does." if r["idle_pct_max"] < 20 else
               "A prop uses %.0f %% of a core while idle: it spins." % r["idle_pct_max"], r["props"],
               runs("view_running"), runs("view_paused")))


def main(argv) -> int:
    count = int(argv[argv.index("--props") + 1]) if "--props" in argv else 50
    with tempfile.TemporaryDirectory() as tmp:
        r = measure(Path(tmp), count)
    print(report(r))
    print(json.dumps(r))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
