"""`propctl web --box PORT|auto`: the web page as the referee of a football box on a serial port
(a real box on USB, or the virtual one `propctl sim serve` serves). The football box's web_box
part: propctl.web finds it through the registry (propctl.props.WEB_BOX) and serves the routes
below with it; the page's side is props/football/web.js (its box mode).

The desktop holds the serial link; the page asks the server. The box keeps the game (its save,
its dice, its count) and its four buttons roll, kick and say made or missed; the page shows what
each button does now and offers, as buttons and yard-line fields, only the reports the buttons
cannot make (kick or receive, where a kickoff stopped, the announced play, a fumble...): the
same menus as `propctl play fingerfootball --port` (propctl.props.football.reports, the game restored
from the box's `state` with the engine's own FingerFootball.restore).

HTTP, for the page (any local program may use it too):

    GET  /box/view?since=N[&prefix=["opp2"]]   the box as the page draws it (JSON); waits up to
                                              WAIT_S for the box's N+1st event first (a long poll)
    POST /box/report  {"action": ..., "yards": n | "pick": "..."}   a report to the box;
                                              {"ok": ...} or {"error": the box's words}

The view: {"seq": events so far, "events": [{"seq", "t", "event", "text"}] after `since`,
"message", "board": [scoreboard lines], "phase", "counting", "roles": {button: words},
"reports": [entries as the wasm page has them], "prefix": the pick's words they follow ([]
when the box moved on), "play_note", "port", "lost": why the link ended or ""}.
"""
import json
import threading
import time
from typing import Optional

from propctl.describe import describe_event
from propctl.games.fingerfootball_words import board_lines
from propctl.props.football.box_referee import QUIET_EVENTS, BoxLink, Refused
from propctl.props.football.reports import button_roles, play_note, report_args, reports
from propctl.serial_link.linkclient import LinkClient, LinkFailure
from propctl.shared.rules.fingerfootball import FingerFootball

WAIT_S = 10.0          # a long poll's longest wait for the box's next event
MAX_EVENTS = 200       # events kept for pages that come late (the rest: the board shows the game)
MAX_BODY = 256         # {"action": "target", "pick": "opp3 pass right"} is 45 bytes
REPORT_KEYS = ("action", "yards", "pick")
REFEREE = "the referee of the football box"  # what `propctl web --box` prints before its address


class BadRequest(ValueError):
    """A request the server refuses (HTTP 400); the text says why."""


class NotAFootballBox(Exception):
    """The board on the port is no football box (or answers nothing); the text says what to do."""


class BoxBridge:
    """The football box on `port`, shared by every page the server serves."""

    def __init__(self, port: str, client: LinkClient) -> None:
        self.port = port
        self.client = client
        self.board = "pico"
        self._cond = threading.Condition()
        self._asking = threading.Lock()  # one request on the link at a time (pages ask at once)
        self._events: list = []   # {"seq", "t", "event", "text"}
        self._seq = 0
        self._started = time.monotonic()
        self.link = BoxLink(client, self._on_event)

    @classmethod
    def open(cls, port: str) -> "BoxBridge":
        """Open the port and check that a football box answers; NotAFootballBox says why not."""
        from propctl.serial_link.ports import open_failure
        try:
            client = LinkClient.open(port, wait_s=2.0)
        except Exception as exc:  # serial.SerialException or OSError: the words of both
            raise NotAFootballBox(open_failure(port, exc)) from None
        try:
            info = client.hello(timeout=5.0)
        except LinkFailure as exc:
            client.close()
            raise NotAFootballBox("no football box answered on %s: %s" % (port, exc)) from None
        if info.get("prop") != "football":
            client.close()
            raise NotAFootballBox(
                "the board on %s runs the %s prop, not the football box; put the football box on it "
                "with `propctl deploy --port %s --prop football --board %s`"
                % (port, info.get("prop"), port, info.get("board") or "pico"))
        bridge = cls(port, client)
        bridge.board = str(info.get("board") or "pico")
        return bridge

    def close(self) -> None:
        self.link.close()
        self.client.close()

    # -- the box's events -------------------------------------------------------------

    def _on_event(self) -> None:
        """The link's thread: take what the box said, in words, and wake the waiting pages."""
        while True:
            try:
                name, data = self.link.events.get_nowait()
            except Exception:  # queue.Empty
                break
            if name in QUIET_EVENTS:
                continue
            if name == "reset":
                text = "the box was reset; it goes on with its saved game"
            else:
                text = describe_event("football", name, data)
            self._add(name, text)
        if self.link.lost:
            self._add("lost", self.link.lost)

    def _add(self, name: str, text: str) -> None:
        with self._cond:
            self._seq += 1
            self._events.append({"seq": self._seq, "t": int(1000 * (time.monotonic() - self._started)),
                                 "event": name, "text": text})
            del self._events[:-MAX_EVENTS]
            self._cond.notify_all()

    # -- what the page asks -------------------------------------------------------------

    def view(self, since: int, prefix=(), wait_s: float = WAIT_S) -> dict:
        """The box now, after waiting (up to wait_s) for an event after `since`."""
        deadline = time.monotonic() + wait_s
        with self._cond:
            while self._seq <= since and not self.link.lost:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._cond.wait(left)
            seq = self._seq
            events = [e for e in self._events if e["seq"] > since]
        out: dict = {"seq": seq, "events": events, "port": self.port, "lost": self.link.lost}
        if self.link.lost:
            return out
        try:
            with self._asking:
                state = self.link.request("state")
            if not isinstance(state, dict) or not isinstance(state.get("settings"), dict):
                raise LinkFailure("the box's firmware does not tell its game's settings (it is older "
                                  "than this propctl): deploy it again, `propctl deploy --port %s "
                                  "--prop football --board %s`" % (self.port, self.board))
            game = FingerFootball.restore(state)
        except (LinkFailure, Refused, ValueError) as exc:
            out["lost"] = str(exc)
            return out
        table = dict(state)
        table["actions"] = [[a[0], a[1], a[2]] for a in game.actions()]
        entries = reports(table, tuple(prefix))
        if prefix and not entries:  # the box moved on: the pick's words no longer lead anywhere
            prefix = ()
            entries = reports(table)
        out.update({
            "message": game.state["message"], "board": [line for line in board_lines(game) if line],
            "phase": state["phase"], "counting": state["box"] == "counting", "prefix": list(prefix),
            "roles": button_roles(table, "hold it down"), "play_note": play_note(table),
            "reports": [{"label": label, "report": report_args(line) if line else None,
                         "needs": list(needs) if needs else None} for label, line, needs in entries]})
        return out

    def report(self, body: bytes) -> dict:
        """POST /box/report: {"ok": the box's answer} or {"error": its refusal in words}."""
        args = parse_report(body)
        try:
            with self._asking:
                answer = self.link.request("report", args)
        except Refused as exc:
            text = describe_event("football", "refused", {"error": str(exc)})
            self._add("refused", text)
            return {"error": str(exc), "text": text}
        except LinkFailure as exc:
            return {"error": str(exc), "text": str(exc)}
        return {"ok": answer}

    # What the web server calls (propctl.web: GET /box/view, POST /box/report).
    def serve_get(self, handler, query: str) -> None:
        handle_get(handler, self, query)

    def serve_post(self, handler) -> None:
        handle_post(handler, self)


def parse_report(body: bytes) -> dict:
    """The report command's arguments from the page's JSON; BadRequest for anything else."""
    if len(body) > MAX_BODY:
        raise BadRequest("the report is longer than %d bytes" % MAX_BODY)
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise BadRequest("the report is not JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("action"), str) \
            or set(data) - set(REPORT_KEYS):
        raise BadRequest('the report is {"action": name} with "yards" (a number) or "pick" (words)')
    yards = data.get("yards")
    if yards is not None and (isinstance(yards, bool) or not isinstance(yards, int)):
        raise BadRequest("yards is a whole number")
    if data.get("pick") is not None and not isinstance(data["pick"], str):
        raise BadRequest("pick is words, e.g. \"opp2 run left\"")
    return data


def query_view(bridge: BoxBridge, query: str) -> dict:
    """GET /box/view's query (since=N, prefix=JSON list of words) -> bridge.view()."""
    from urllib.parse import parse_qs
    fields = parse_qs(query)
    since_text = fields.get("since", ["-1"])[0]
    try:
        since = int(since_text)
        prefix = json.loads(fields.get("prefix", ["[]"])[0])
    except ValueError:
        raise BadRequest("since is a whole number, prefix a JSON list of words") from None
    if not isinstance(prefix, list) or not all(isinstance(w, str) for w in prefix) or len(prefix) > 4:
        raise BadRequest("prefix is a JSON list of up to 4 words")
    wait: Optional[float] = None if since >= 0 else 0.0
    return bridge.view(since, prefix) if wait is None else bridge.view(since, prefix, wait)


def handle_get(handler, bridge: BoxBridge, query: str) -> None:
    """GET /box/view for the web server's handler (propctl.web)."""
    try:
        answer = query_view(bridge, query)
    except BadRequest as exc:
        handler.send_error(400, str(exc))
        return
    handler._send(json.dumps(answer).encode("utf-8"), "application/json")


def handle_post(handler, bridge: BoxBridge) -> None:
    """POST /box/report for the web server's handler: JSON only, a bounded body."""
    from propctl.web import answer_json
    answer_json(handler, MAX_BODY, bridge.report, BadRequest)


def open_box(port: str):
    """(BoxBridge, "") for `--box PORT|auto`, or (None, why not in words)."""
    from propctl.serial_link.ports import PortError, not_a_port, resolve_port
    if not port.strip():
        return None, "--box needs the football box's serial port (`propctl ports` lists them), or auto"
    try:
        port = resolve_port(port)
        problem = not_a_port(port)
    except PortError as exc:
        problem = str(exc).replace("--port auto", "--box auto")
    if problem:
        return None, problem
    try:
        return BoxBridge.open(port), ""
    except NotAFootballBox as exc:
        return None, str(exc)
