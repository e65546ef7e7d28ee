"""`propctl selftest`: test a prop's wiring on the board, one signal at a time.

The board runs the steps (firmware/lib/selftest.py: the prop's own drivers,
the motor within its safety limits); this side says what to do or watch,
asks whether it happened, follows the inputs live and names what is wrong:

    motor_cw: the hand should turn clockwise slowly for 2 s ... did it? [y/n/o=other way]
    window 5: no change seen on GP8 (pin 11): check the wire and the sensor

Who answers: a person at the terminal; `--answers y,n,...` (scripted, for
tests; inputs then cannot be worked and time out); or `--vboard FLASH`, the
person of a served virtual board (vboard/world.py): it works the switches
through the board's flash folder and answers from what the board's outputs
did, so the self-test itself is tested against correct and miswired boards.
"""
import json
import os
import sys
import time
from pathlib import Path

from propctl.argtypes import Seconds
from propctl.serial_link.linkclient import LinkClient, LinkFailure
from propctl.serial_link.ports import add_port_option, open_failure
from propctl.termtext import ask_wrapped, width_now, wrap

POLL_S = 0.05
# drivers.battery.OFF_MV: a pack that reads below this is switched off (the divider's pin at 0 V)
SUPPLY_OFF_MV = 1000
INPUT_TIMEOUT_S = 15.0


def say(text: str, file=None) -> None:
    """Lines for the person, each wrapped to the terminal's width between words (a line that
    goes on is indented two more spaces than it began)."""
    lines: list = []
    for line in str(text).split("\n"):
        lead = line[:len(line) - len(line.lstrip(" "))]
        lines += wrap(line, width_now(), lead + "  ")
    print("\n".join(lines), file=file or sys.stdout, flush=True)


class Terminal:
    """The person at the keyboard."""

    def show(self, text: str) -> None:
        say(text)

    def before(self, name: str) -> None:
        pass

    def act(self, name: str, prompt: str) -> None:
        say("%s ..." % prompt)

    def done(self, name: str) -> None:
        pass

    def ask(self, name: str, question: str, choices: str) -> str:
        while True:
            try:
                answer = ask_wrapped("%s [%s] " % (question, "/".join(choices))).strip().lower()[:1]
            except EOFError:
                return "n"
            except UnicodeDecodeError:  # bytes that are not UTF-8: asked again, never a traceback
                answer = ""
            if answer and answer in choices:  # "" is in every string: Enter alone asks again
                return answer
            say("please answer %s" % " or ".join(choices))


class Scripted(Terminal):
    """Answers from a list (y, n, o), in order; 'n' once the list is used up."""

    def __init__(self, answers: list) -> None:
        self.answers = list(answers)

    def ask(self, name: str, question: str, choices: str) -> str:
        answer = self.answers.pop(0) if self.answers else "n"
        say("%s [%s] %s" % (question, "/".join(choices), answer))
        return answer


class VirtualPerson(Scripted):
    """The person of a served virtual board: works its switches, watches its outputs."""

    def __init__(self, flash: Path, hold_s: float = 0.3) -> None:
        super().__init__([])
        self.flash = Path(flash)
        self.hold_s = hold_s
        self.seq = 0
        self.acted: list = []
        self._before: dict = {}

    def _seen(self) -> dict:
        for _ in range(100):
            try:
                return json.loads((self.flash / "vboard_seen.json").read_text())
            except (OSError, ValueError):
                time.sleep(POLL_S)
        raise LinkFailure("the virtual board shows nothing: no vboard_world.json in %s? Write {} to it "
                          "and start `propctl sim serve --flash %s` again" % (self.flash, self.flash))

    def _hands(self, acted: list) -> dict:
        """Set the hands and wait until the board has seen them; what it shows then."""
        self.seq += 1
        self.acted = acted
        tmp = self.flash / "vboard_hands.json.tmp"
        tmp.write_text(json.dumps({"seq": self.seq, "acted": acted}))
        os.replace(tmp, self.flash / "vboard_hands.json")
        deadline = time.monotonic() + 5
        seen = self._seen()
        while seen.get("seq") != self.seq and time.monotonic() < deadline:
            time.sleep(POLL_S)
            seen = self._seen()
        return seen

    def look(self) -> dict:
        """What the board shows now (not an older picture: the hands' seq is bumped and awaited)."""
        return self._hands(self.acted)

    def before(self, name: str) -> None:
        self._before = self.look()

    def act(self, name: str, prompt: str) -> None:
        say("%s ... (the virtual person does)" % prompt)
        self._hands([name])
        time.sleep(self.hold_s)
        self._hands([])

    def ask(self, name: str, question: str, choices: str) -> str:
        after = self.look()
        if name.startswith("motor_"):
            moved = after["hand_mdeg"] - self._before["hand_mdeg"]
            wanted = 1 if name == "motor_cw" else -1
            answer = "y" if moved * wanted > 0 else ("o" if moved else "n")
        else:
            part = "piezo" if name.startswith("piezo_") else name  # one step per sound, one piezo
            seen = after["edges"].get(part, 0) - self._before.get("edges", {}).get(part, 0)
            answer = "y" if seen > 0 else "n"
        say("%s [%s] %s" % (question, "/".join(choices), answer))
        return answer


def _wait_done(link: LinkClient, name: str, timeout: float) -> bool:
    line = link.wait_for(lambda line: line.event == "selftest_done"
                         and (line.message.get("data") or {}).get("name") == name, timeout)
    return line is not None


def supply_off(started: dict):
    """What to say when a pack-powered step started with the pack reading about 0 V, else None."""
    mv = started.get("supply_mv")
    if mv is None or mv >= SUPPLY_OFF_MV:
        return None
    return ("the motor supply is off (the battery pack reads %.1f V): switch the pack on; it may "
            "stay on with USB plugged in (ESP32 and S3: switch off only the board's own supply, "
            "see 'Power' in hardware/README.md)" % (mv / 1000))


def unseen(place: str, started: dict) -> str:
    """Why a person may not have seen an output step, from what the board said as it started."""
    off = supply_off(started)
    if off is not None:
        return "not seen: " + off  # not the wires: nothing at the motor or bell has power
    check = started.get("check")
    return "not seen: check the wires on %s" % place + ("; " + check if check else "")


def run_outputs(link: LinkClient, steps: list, person, interactive: bool) -> list:
    """Each output step in turn; [(name, result, detail)]."""
    results = []
    for name, prompt, ms, place in steps:
        person.show("%s: %s" % (name, prompt))
        person.before(name)
        started = link.request("selftest_output", {"name": name})
        started = started if isinstance(started, dict) else {}
        if not _wait_done(link, name, ms / 1000.0 + 5.0):
            results.append((name, "FAIL", "the board did not finish the step"))
            continue
        if not interactive:
            off = supply_off(started)
            results.append((name, "ran", "not confirmed (--non-interactive)" + ("; " + off if off else "")))
            continue
        motor = name.startswith("motor_")
        answer = person.ask(name, "did it?" + (" (o: it turned the other way)" if motor else ""),
                            "yno" if motor else "yn")
        if answer == "y":
            results.append((name, "ok", ""))
        elif answer == "o":
            results.append((name, "FAIL", "the hand turned the other way: the motor's leads are reversed; "
                                          "swap the two motor wires at the driver (AOUT1/AOUT2)"))
        else:
            results.append((name, "FAIL", unseen(place, started)))
    return results


def run_inputs(link: LinkClient, inputs: list, person, timeout: float) -> list:
    """Each input live; [(name, result, detail)]."""
    results = []
    names = [entry[0] for entry in inputs]
    link.request("selftest_inputs")  # forget changes from before
    for index, (name, prompt, where) in enumerate(inputs):
        label = _label(name)
        person.act(name, prompt)
        deadline = time.monotonic() + timeout
        others: list = []
        seen = False
        while time.monotonic() < deadline:
            state = link.request("selftest_inputs")
            changes = state["changes"]
            if changes[index]:
                seen = True
                break
            others += [i for i, count in enumerate(changes) if count and i not in others]
            if others and time.monotonic() > deadline - timeout + 1.0:
                break  # another input moved instead: say which, do not wait out the timeout
            time.sleep(POLL_S)
        if seen:
            person.show("  seen %s" % label)
            results.append((name, "ok", "seen on %s" % where))
        elif others:
            moved = ", ".join("%s's input %s" % (_label(names[i]), inputs[i][2]) for i in others)
            detail = "no change seen on %s, but %s changed" % (where, moved)
            if len(others) == 1 and names[others[0]].startswith("window") and name.startswith("window"):
                other = _label(names[others[0]])
                detail += ": the wires of %s and %s are swapped at the board" % (label, other)
            person.show("  %s: %s" % (label, detail))
            results.append((name, "FAIL", detail))
        else:
            detail = "no change seen on %s: check the wire and the %s" % (
                where, "sensor" if name.startswith("window") else "button")
            person.show("  %s: %s" % (label, detail))
            results.append((name, "FAIL", detail))
        person.done(name)
        link.request("selftest_inputs")  # the release and closing belong to this step
    return results


def _label(name: str) -> str:
    if name.startswith("window"):
        return "window %s" % name[6:]
    return name


def summary(results: list, columns: int = 79) -> str:
    """The table of results, within `columns`: a long detail goes on under its column."""
    width = max([len(_label(name)) for name, _, _ in results] + [6])
    lines = ["%-*s  %-6s  %s" % (width, "signal", "result", "detail")]
    lead = width + 10  # where the detail column starts
    for name, result, detail in results:
        pieces = wrap(detail, max(20, columns - lead)) if detail else [""]
        lines.append("%-*s  %-6s  %s" % (width, _label(name), result, pieces[0]))
        lines += [" " * lead + piece for piece in pieces[1:]]
    failed = [r for r in results if r[1] == "FAIL"]
    lines.append("%d signals, %d failed" % (len(results), len(failed)))
    return "\n".join(lines)


# What sys.platform says on MicroPython's unix and WebAssembly ports: a virtual board, not a chip.
VIRTUAL_PLATFORMS = ("linux", "darwin", "windows", "webassembly")

VIRTUAL_BOARD = """\
This is a virtual board (propctl sim serve): nobody can see its outputs or press
its buttons and windows at this terminal, so the steps cannot be answered here.
Let its virtual person work the switches and watch the outputs:
  1. stop `propctl sim serve`, write {} to FLASH/vboard_world.json (FLASH: the
     flash folder it printed), start `propctl sim serve --flash FLASH` again
  2. propctl selftest --port %(port)s --vboard FLASH
Or run the outputs only with --non-interactive."""


def is_virtual(info: dict) -> bool:
    """True for a board the MicroPython unix (or WebAssembly) port plays (its hello's platform)."""
    return info.get("platform") in VIRTUAL_PLATFORMS


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "selftest", help="test the prop's wiring on the board, one signal at a time",
        description="Test the wiring of the prop on the board at PORT: each output in turn (motor both "
                    "ways at low speed within the motor's safety limits, chime, LEDs, relay, solenoid), "
                    "with a question whether it happened, then each input live (press a button, open a "
                    "window) with a timeout. Ends with a summary table; the board then resets and the "
                    "prop runs again.",
        epilog="Examples:\n"
               "  propctl selftest --port /dev/ttyACM0         # outputs with y/n, then inputs\n"
               "  propctl selftest --port auto --non-interactive   # the outputs only\n"
               "  propctl selftest --port /dev/ttyACM0 --answers y,y,o,y\n"
               "Exit codes: 0 every signal passed, 1 a signal failed or the board did not answer, "
               "2 bad command line.")
    add_port_option(parser)
    parser.add_argument("--non-interactive", action="store_true",
                        help="run the outputs only, ask nothing (inputs need a person)")
    parser.add_argument("--answers", help="scripted answers, comma-separated y/n/o, in step order")
    parser.add_argument("--vboard", type=Path, metavar="FLASH",
                        help="a served virtual board's flash folder: its virtual person works the "
                             "switches and answers from what the outputs did (for tests)")
    parser.add_argument("--timeout", type=Seconds(0, 3600), default=INPUT_TIMEOUT_S,
                        help="seconds to wait for each input (default %(default)s)")
    parser.set_defaults(func=run)


def run(args, person=None) -> int:
    """The command; `person` replaces the one the options choose (tests)."""
    if person is not None:
        pass
    elif args.vboard is not None:
        person = VirtualPerson(args.vboard)
    elif args.answers is not None:
        person = Scripted([a.strip().lower() for a in args.answers.split(",") if a.strip()])
    else:
        person = Terminal()
    try:
        link = LinkClient.open(args.port, wait_s=5.0)
    except Exception as exc:  # serial.SerialException and OSError alike
        say("propctl selftest: %s" % open_failure(args.port, exc), file=sys.stderr)
        return 1
    began = False
    with link:
        try:
            info = link.hello(timeout=5.0)
            say("self-test of the %s prop on %s (firmware %s)" % (info.get("prop"), info.get("board"),
                                                                 info.get("firmware")))
            if type(person) is Terminal and not args.non_interactive and is_virtual(info):
                say(VIRTUAL_BOARD % {"port": args.port}, file=sys.stderr)
                return 1
            steps = link.request("selftest_begin", timeout=5.0)
            began = True
            results = run_outputs(link, steps["outputs"], person, not args.non_interactive)
            if not args.non_interactive:
                results += run_inputs(link, steps["inputs"], person, args.timeout)
            link.send("selftest_end")
            began = False
        except LinkFailure as exc:
            say("propctl selftest: %s" % exc, file=sys.stderr)
            return 1
        except KeyboardInterrupt:
            # Ctrl-C at a question or a step: end the test on the board too, or it would stay in
            # the self-test with the prop stopped (refusing start_round) until the next one
            if began:
                try:
                    link.send("selftest_end")
                    say("\ninterrupted: the self-test is over, the board resets and its prop runs "
                        "again", file=sys.stderr)
                except (LinkFailure, OSError):
                    say("\ninterrupted: the board did not hear the end of the self-test; reset it "
                        "(unplug it, or run the self-test again)", file=sys.stderr)
            return 130
    print(summary(results, width_now()), flush=True)
    return 1 if any(r[1] == "FAIL" for r in results) else 0
