"""`propctl sim serve` as the tests start and stop it: the virtual board on a pseudo-terminal."""
import os
import signal
import subprocess
import sys
import time

from waits import START_S, WAIT_S

PROPCTL = [sys.executable, "-m", "propctl.cli"]


def start_serve(flash, until: str, command=None, env=None):
    """Start `sim serve --flash FLASH` in a session of its own and read what it prints up to the
    first line that starts with `until` (or its end, or START_S: tools/testbed/waits.py).
    (process, lines printed, port or None)."""
    proc = subprocess.Popen(list(command or PROPCTL) + ["sim", "serve", "--flash", str(flash)], env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, start_new_session=True)
    lines = []
    deadline = time.monotonic() + START_S
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if line.startswith(until):
            break
    port = next((line.split()[-1] for line in lines if line.startswith("virtual board on ")), None)
    return proc, lines, port


def stop_serve(proc) -> None:
    """Ctrl-C to the server's session, as a person would; SIGKILL after the failsafe bound (WAIT_S)."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.wait(timeout=WAIT_S)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
