"""A board's modes as the desktop meets them: maintenance boot, hello, "does it run the prop", what it is.

    mode = request_maintenance(port)        # a running prop reboots with no prop and no watchdog
    info = wait_for_hello(port)             # after a reset: the board's hello, or None
    info = confirm_running(port, "clock")   # runs the prop past its boot guard, else BoardError why
    check_board(files, "pico")              # at the raw REPL: MicroPython new enough, the right chip

Every failure is a BoardError whose message says what the board reported
(safe mode and its advice, the last crash, the config errors) and what to do.
"""
import json
import time

from propctl.serial_link import BoardError
from propctl.serial_link.linkclient import LinkClient, LinkFailure
from propctl.serial_link.ports import open_failure

# After the reset the prop must run this long (safemode.STABLE_MS plus margin) without a fault.
SETTLE_S = 2.0


def _say(message: str) -> None:
    print(message, flush=True)


def request_maintenance(port: str, say=_say) -> str:
    """If a prop runs, ask it to reboot without prop and watchdog. Returns the mode found before:
    "run" (it is in maintenance now), "maintenance", "safe", "repl" (nothing answers the link)."""
    try:
        client = LinkClient.open(port)
    except OSError as exc:
        raise BoardError(open_failure(port, exc)) from None
    try:
        try:
            info = client.request("hello", {"protocol": 1}, timeout=1.5)
        except LinkFailure:
            return "repl"  # no link firmware answering: a blank board, or at the REPL
        mode = info.get("mode") if isinstance(info, dict) else None
        if mode != "run":
            return mode or "unknown"
        say("the %s prop is running: asking it to reboot into maintenance" % info.get("prop"))
        client.send("maintenance")
        line = client.wait_for(lambda ln: ln.event == "maintenance", timeout=10)
        if line is None:
            say("warning: no maintenance boot seen; going on (a watchdog could interrupt the copy)")
        return "run"
    finally:
        client.close()


def wait_for_hello(port: str, timeout: float = 15.0, on_line=None):
    """After the reset: the board's hello (dict), or None if it did not answer in time.

    Lines read meanwhile (a crashing prop's fault events) go to on_line(Line).
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            client = LinkClient.open(port, wait_s=max(0.1, deadline - time.monotonic()))
        except OSError:
            return None
        try:
            while time.monotonic() < deadline:
                try:
                    return client.request("hello", timeout=1.0, on_line=on_line)
                except LinkFailure:
                    continue
        except OSError:
            time.sleep(0.2)  # a real board re-enumerates its USB port after a reset
        finally:
            client.close()
    return None


def _is_crash(line) -> bool:
    """A line that says the prop crashed (its fault event before the reset) or the board restarted."""
    if line.restarted:
        return True
    data = line.message.get("data") if line.message else None
    return line.event == "fault" and isinstance(data, dict) and data.get("action") == "reset"


def confirm_running(port: str, prop: str, timeout: float = 45.0, say=_say) -> dict:
    """Wait until the board runs `prop` past its boot guard; its hello, else BoardError saying why.

    A board that comes up in safe mode, runs another prop, or keeps crashing
    is a failed deploy: the reason is the board's own (crash count, advice,
    the last fault, the config errors).
    """
    faults: list = []

    def collect(line) -> None:
        data = line.message.get("data") if line.message else None
        if line.event == "fault" and isinstance(data, dict) and data.get("error"):
            faults.append(str(data["error"]))
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        info = wait_for_hello(port, timeout=max(1.0, deadline - time.monotonic()), on_line=collect)
        if not isinstance(info, dict):
            break
        errors = [str(e) for e in info.get("config_errors") or []]
        mode = info.get("mode")
        if mode == "safe":
            advice: dict = {}
            try:
                with LinkClient.open(port) as client:
                    advice = client.request("why", timeout=2.0) or {}
            except (LinkFailure, OSError):
                pass
            raise BoardError(_not_running("the board is in SAFE MODE: %s" % advice.get(
                "why", "the prop crashed during several boots in a row"), faults, errors,
                advice.get("fix", "fix the cause and deploy again")))
        if mode != "run":
            raise BoardError(_not_running("the board came up in %s mode, not running a prop" % mode,
                                          faults, errors, "deploy again"))
        if info.get("prop") != prop:
            raise BoardError(_not_running("the board runs the %s prop, not %s" % (info.get("prop"), prop),
                                          faults, errors, "check config.json on the board and deploy again"))
        try:
            with LinkClient.open(port) as client:
                client.request("hello", timeout=2.0, on_line=collect)
                crash = client.wait_for(_is_crash, SETTLE_S, on_line=collect)
        except (LinkFailure, OSError):
            continue  # it went away meanwhile: a reset; ask again
        if crash is None:
            for message in errors:
                say("config problem: %s" % message)
            return info
    from propctl.invocation import propctl_command
    raise BoardError(_not_running("no steady hello from the board after the reset", faults, [],
                                  "watch it with `%s monitor --port %s`" % (propctl_command(), port)))


def _not_running(what: str, faults: list, errors: list, fix: str) -> str:
    text = what
    if faults:
        text += "; last crash: %s" % faults[-1]
    if errors:
        text += "; config problems: %s" % "; ".join(errors)
    return text + ". What to do: %s" % fix


# What each board profile's MicroPython says it runs on (os.uname().machine, e.g.
# "Raspberry Pi Pico with RP2040"): a word it must contain, and words that mean another board.
BOARD_MACHINES = {
    "pico": ("RP2040", {"Pico W": "a Pico W: deploy with --board pico_w (its LED hangs on the Wi-Fi "
                                  "chip, and GPIO 25 selects that chip)",
                        "Pico 2 W": "a Pico 2 W (RP2350): deploy with --board pico2_w",
                        "RP2350": "a Pico 2 (RP2350): deploy with --board pico2"}),
    "pico_w": ("Pico W", {"RP2350": "a Pico 2 W (RP2350): deploy with --board pico2_w"}),
    "pico2": ("RP2350", {" W ": "a Pico 2 W: deploy with --board pico2_w (its LED hangs on the Wi-Fi "
                                "chip, and GPIO 25 selects that chip)"}),
    "pico2_w": ("Pico 2 W", {"RP2040": "a Pico W (RP2040): deploy with --board pico_w"}),
    "esp32": ("ESP32", {"ESP32S3": "an ESP32-S3: deploy with --board esp32s3 (the ESP32-S3-DevKitC-1 "
                                  "pins)",
                        "ESP32S2": "an ESP32-S2: no profile for it yet",
                        "ESP32C": "an ESP32-C series chip (RISC-V): no profile for it yet"}),
    "esp32s3": ("ESP32S3", {}),
}
# The oldest MicroPython that loads the .mpy files deploy writes (format 6, bytecode only).
MIN_MICROPYTHON = (1, 19)
_PROBE = ("import sys,json\ntry:\n import os\n m=os.uname().machine\nexcept Exception:\n"
          " m=getattr(sys.implementation,'_machine','')\n"
          "print(json.dumps([sys.implementation.name,list(sys.implementation.version)[:3],m,sys.platform]))")


def board_problem(board: str, name: str, version, machine: str, platform: str) -> tuple:
    """(problem or None, description) for a board that reported this identity, against `board`."""
    shown = "%s %s on %s" % (name, ".".join(str(v) for v in version), machine or platform)
    if name != "micropython":
        return ("the board runs %s, not MicroPython: flash MicroPython first (see "
                "docs/flashing.md)" % shown, shown)
    if tuple(version[:2]) < MIN_MICROPYTHON:
        return ("the board has MicroPython %s; the firmware needs %d.%d or newer: flash a current "
                "release (see docs/flashing.md)" % (".".join(str(v) for v in version),
                                                                   *MIN_MICROPYTHON), shown)
    if platform == "linux":
        return None, shown + " (the MicroPython unix port: a virtual board, no chip to check)"
    needed, others = BOARD_MACHINES.get(board, ("", {}))
    chip = machine.replace("ESP32-", "ESP32")  # newer builds say "ESP32-S3", older ones "ESP32S3"
    for word, why in others.items():
        if word in chip:
            return ("--board %s does not fit this board: it is %s" % (board, why), shown)
    if needed not in chip:
        return ("the board reports %r, but --board %s is for boards that report %s: pick the "
                "matching --board or flash the build for this board (docs/flashing.md)"
                % (machine or platform, board, needed), shown)
    return None, shown


def check_board(files, board: str, say=_say) -> None:
    """Ask the board what it is (at the REPL); BoardError if it cannot run the firmware for `board`."""
    try:
        name, version, machine, platform = json.loads(files.run(_PROBE).decode())
    except (ValueError, TypeError, UnicodeError) as exc:
        raise BoardError("the board did not say which MicroPython it runs (%s)" % exc) from None
    problem, shown = board_problem(board, name, version, machine, platform)
    if problem:
        raise BoardError(problem)
    say("board: %s" % shown)


def lost(port: str, exc) -> BoardError:
    """The one-line error for a board that reset or went away in the middle of a deploy."""
    return BoardError("lost the board on %s during the deploy (%s: %s). It reset or was unplugged. "
                      "Plug it in again and run the same deploy: it goes on from where it stopped"
                      % (port, type(exc).__name__, str(exc).strip() or "no answer"))
