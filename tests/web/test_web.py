"""`propctl web`: the page's server, the bridge the page calls, and the page in a real headless Chromium."""
import ast
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import needed_tools
import pytest
from chromium_cdp import Chromium
from micropython_harness import FIRMWARE_LIB, ROOT, find_micropython
from waits import WAIT_S

from propctl import web
from propctl.props.clock.plan import plan_points
from propctl.props.fusebox.sim import prepare_pack
from propctl.shared.rules.geisteruhr import plan_motion
from propctl.sim.runner import VBOARD_DIR

WASM_MISSING = not (web.WASM_PACKAGE / "micropython.wasm").is_file()
# One worker runs the module (make pytest: --dist loadfile): one Chromium for it, not one per worker.


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The page's server on a free port, in a thread; its base URL (one for the module)."""
    srv = web.make_server(0, prepare_pack(None, tmp_path_factory.mktemp("pack"), "en"))
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield "http://127.0.0.1:%d" % srv.server_address[1]
    srv.shutdown()
    srv.server_close()
    thread.join(5)


def get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=WAIT_S) as answer:
        return answer.read()


def test_manifest_holds_the_firmware_the_virtual_board_and_the_pack(tmp_path):
    manifest = web.files_manifest(prepare_pack(None, tmp_path, "en"))
    text = manifest["text"]
    clock = FIRMWARE_LIB / "props" / "clock" / "__init__.py"
    assert text["/lib/props/clock/__init__.py"] == clock.read_text()
    assert text["/vboard/machine.py"] == (VBOARD_DIR / "machine.py").read_text()
    assert "/vboard/web_bridge.py" in text
    assert not [p for p in text if "__pycache__" in p]
    assert manifest["path"] == ["/vboard", "/lib", "/host"]  # the fake machine before the firmware
    assert "/host/propctl/describe.py" in text and "/host/propctl/props/football/reports.py" in text
    assert "/host/propctl/props/clock/describe.py" in text and "/host/propctl/props/clock/sim.py" not in text
    assert manifest["pack"] == "/pack.bin" and manifest["binary"]["/pack.bin"]


def test_server_listens_on_localhost_and_serves_only_its_files(server):
    assert server.startswith("http://127.0.0.1:")
    assert b"<title>" in get(server + "/")
    assert b"loadMicroPython" in get(server + "/web.js")
    assert "/lib/runtime.py" in json.loads(get(server + "/files.json"))["text"]
    for path in ("/../pyproject.toml", "/mp/../web.js", "/.hidden", "/nothing.js", "/mp/package.json/x"):
        with pytest.raises(urllib.error.HTTPError) as err:
            get(server + path)
        assert err.value.code == 404, path


@pytest.mark.skipif(WASM_MISSING, reason="the MicroPython WebAssembly port is not installed (make setup)")
def test_aborted_downloads_print_no_tracebacks_and_the_server_goes_on(server, capfd):
    # a reload while /files.json (about 480 KB) comes: the browser closes the connection.
    # Before, socketserver printed a traceback for 8 of 10 such downloads.
    import socket
    import struct
    import time
    port = int(server.rsplit(":", 1)[1])
    for _ in range(10):
        client = socket.socket()
        client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # the server must wait on us
        client.connect(("127.0.0.1", port))
        client.sendall(b"GET /files.json HTTP/1.1\r\nHost: x\r\n\r\n")
        assert client.recv(100).startswith(b"HTTP/1.0 200")
        client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # reset
        client.close()
    time.sleep(0.5)  # the handler threads meet the reset
    assert json.loads(get(server + "/files.json"))["text"]
    err = capfd.readouterr().err
    assert "Traceback" not in err and "Exception" not in err, err[:2000]


@contextlib.contextmanager
def serving(srv):
    """`srv` in a thread; its base URL."""
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield "http://127.0.0.1:%d" % srv.server_address[1]
    finally:
        srv.shutdown()
        srv.server_close()
        thread.join(5)


def dealt(base: str) -> list:
    """The card ids of the pack a page load gets, in the pack's order."""
    import base64
    import io

    from propctl.cards import taskcards
    from propctl.shared.cardpack.pack import Pack
    manifest = json.loads(get(base + "/files.json"))
    pack = Pack(io.BytesIO(base64.b64decode(manifest["binary"][manifest["pack"]])))
    return [taskcards.decode(pack.record(k)).id for k in range(len(pack))]


def post(base: str, body, kind: str = "application/json", path: str = "/played"):
    """(status, answer) of a POST; `body` bytes as they are, anything else as JSON."""
    data = body if isinstance(body, bytes) else json.dumps(body).encode("utf-8")
    request = urllib.request.Request(base + path, data=data, headers={"Content-Type": kind})
    try:
        with urllib.request.urlopen(request, timeout=WAIT_S) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode("utf-8", "replace")


def test_page_records_its_cards_and_the_next_page_load_deals_unplayed_first(tmp_path, monkeypatch, capfd):
    from propctl.web.played import PageDeal
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    history = tmp_path / "propctl" / "history.json"
    with serving(web.make_server(0, deal=PageDeal("en"))) as base:
        first = dealt(base)
        assert len(first) == 105 and not history.exists()
        # what the page sends when the box accepted a new game and when a card's round ended
        assert post(base, {"new_game": 3}) == (200, {"unplayed": 105, "said": []})
        assert post(base, {"played": first[0]}) == (200, {"unplayed": 104, "said": []})
        recorded = json.loads(history.read_text())["decks"]["fusebox/shipped"]
        assert recorded == {"games": 1, "played": {first[0]: 1}}
        again = dealt(base)
        assert sorted(again) == sorted(first) and again[0] != first[0] and again[-1] == first[0]

        before = history.read_bytes()
        for body in ({"played": "GEO-99"}, {"played": first[0].lower()}, {"played": 7},
                     {"played": first[1], "new_game": 3}, {"new_game": True}, {"new_game": 9},
                     {"new_game": "3"}, {"deal": 1}, {}, [first[1]], "GEO-01", b"{played: GEO-01}",
                     b"\xff\xfe", {"played": "GEO-01" + " " * 300}):
            status, answer = post(base, body)
            assert status == 400, (body, status, answer)
        assert post(base, {"played": first[1]}, kind="text/plain")[0] == 400
        assert post(base, {"played": first[1]}, path="/played/")[0] == 404
        assert post(base, {"played": first[1]}, path="/files.json")[0] == 404
        import http.client
        connection = http.client.HTTPConnection("127.0.0.1", int(base.rsplit(":", 1)[1]), timeout=WAIT_S)
        connection.putrequest("POST", "/played")  # no Content-Length
        connection.putheader("Content-Type", "application/json")
        connection.endheaders()
        assert connection.getresponse().status == 400
        connection.close()
        assert history.read_bytes() == before and dealt(base) == again
    # a server without a deal (a pack file) records nothing
    with serving(web.make_server(0, None)) as base:
        assert post(base, {"played": first[1]})[0] == 404
    # --fresh: the page deals as if nothing had been played; the file forgets at the next report
    with serving(web.make_server(0, deal=PageDeal("en", fresh=True))) as base:
        assert dealt(base) == first
        assert post(base, {"new_game": 2})[0] == 200
        assert json.loads(history.read_text())["decks"]["fusebox/shipped"] == {"games": 1, "played": {}}
    err = capfd.readouterr().err
    assert "Traceback" not in err, err[:2000]


def test_a_family_page_records_only_family_cards(tmp_path, monkeypatch):
    from propctl.props.fusebox.sim import deck_of
    from propctl.web.played import BadReport, PageDeal
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    deal = PageDeal("en", family=True)
    other = next(card.id for card in deck_of(None, "en")[1] if card.id not in deal.ids)
    with pytest.raises(BadReport):
        deal.record(json.dumps({"played": other}).encode())
    assert deal.record(json.dumps({"played": sorted(deal.ids)[0]}).encode())["unplayed"] == 34


def test_a_connection_that_sends_nothing_is_closed(monkeypatch):
    # each connection holds a thread: one that never sends a request must not hold it forever
    import socket
    monkeypatch.setattr(web, "IDLE_TIMEOUT_S", 0.5, raising=False)
    srv = web.make_server(0, None)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        client = socket.create_connection(srv.server_address, timeout=5)
        assert client.recv(100) == b""  # closed by the server (before: recv waited, timed out)
        client.close()
    finally:
        srv.shutdown()
        srv.server_close()


def test_server_hands_out_the_pinned_webassembly_port(server):
    wasm = get(server + "/mp/micropython.wasm")
    assert wasm[:4] == b"\0asm"
    assert wasm == (web.WASM_PACKAGE / "micropython.wasm").read_bytes()
    assert b"loadMicroPython" in get(server + "/mp/micropython.mjs")


BRIDGE_ROUND = """
import json, web_bridge
prop = web_bridge.Prop("clock")
events, tones, angles = [], [], set()
prop.frame(100)
prop.input("button", 1)
events += json.loads(prop.frame(100))["events"]
prop.input("button", 0)
while "idle" not in [e["event"] for e in events]:
    r = json.loads(prop.frame(50))
    events += r["events"]
    tones += r["tones"]
    angles.add(r["hand_mdeg"])
from drivers.chime import BELL
print(json.dumps({"events": events, "tones": tones, "angles": len(angles), "bell": list(BELL)}))
"""


def test_bridge_plays_a_clock_round_frame_by_frame():
    env = dict(os.environ, MICROPYPATH="%s:%s:%s" % (VBOARD_DIR, FIRMWARE_LIB, web.HOST_ROOT))
    out = subprocess.run([find_micropython(), "-c", BRIDGE_ROUND], env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    names = [e["event"] for e in result["events"]]
    assert names.index("start") < names.index("stop") < names.index("chime") < names.index("idle")
    assert result["angles"] > 10  # the hand moved
    chime_at = [e["t"] for e in result["events"] if e["event"] == "chime"][0]
    # the chime's tones: PWM on at the melody's notes, after the stop
    # what the page plays: the pitch while the duty is on, 0 while off, at board times
    heard, on, freq = [], False, 0
    for t, f, duty in result["tones"]:
        freq = f
        if duty != -2:  # -2: only the frequency changed
            on = duty > 0
        pitch = freq if on else 0
        if t >= chime_at - 200 and (heard or pitch) and (not heard or heard[-1][1] != pitch):
            heard.append((t, pitch))
    bell = result["bell"]  # (Hz, ms) pairs, 0 Hz a rest: the firmware's melody
    assert [p for _, p in heard] == bell[0::2] + [0]
    durations = [b[0] - a[0] for a, b in zip(heard, heard[1:])]
    for got, want in zip(durations, bell[1::2]):
        assert abs(got - want) <= 10, (durations, bell)  # within one tick


BRIDGE_SEED_AND_WORDS = """
import json, web_bridge
out = {}
for show in (False, True):
    prop = web_bridge.Prop("clock", "", 77, "3", show)
    prop.frame(100)
    prop.input("button", 1)
    events = json.loads(prop.frame(100))["events"]
    prop.input("button", 0)
    events += json.loads(prop.frame(100))["events"]
    out["start", show] = [e for e in events if e["event"] == "start"]
box = web_bridge.Prop("football", "", 77, "2")
box.frame(100)
box.input("roll", 1)
events = json.loads(box.frame(20))["events"]
box.input("roll", 0)  # a tap shorter than the debounce: still a press
r = json.loads(box.frame(300))
out["toss"] = [e["text"] for e in events + r["events"] if e["event"] == "toss"]
out["reports"] = r["reports"]
refused = json.loads(box.command("report", json.dumps({"action": "punt"})))
print(json.dumps({"clock": out["start", False], "plan": out["start", True], "toss": out["toss"],
                  "reports": out["reports"], "refused": refused}))
"""


def test_bridge_seed_is_the_seed_setting_and_football_speaks_the_players_words():
    env = dict(os.environ, MICROPYPATH="%s:%s:%s" % (VBOARD_DIR, FIRMWARE_LIB, web.HOST_ROOT))
    out = subprocess.run([find_micropython(), "-c", BRIDGE_SEED_AND_WORDS], env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    (start,) = result["clock"]
    assert start["seed"] == 3 and "duration_ms" not in start  # the plan's length stays secret
    assert start["text"] == "hand starts: round 1, seed 3"
    (planned,) = result["plan"]
    assert planned["duration_ms"] == plan_points(plan_motion(3))[2] and "planned" in planned["text"]
    assert result["toss"] == ["coin toss won by Home"]
    assert result["reports"] == [{"label": "kick off", "report": {"action": "kick"}, "needs": None},
                                 {"label": "receive", "report": {"action": "receive"}, "needs": None}]
    assert result["refused"]["error"] and result["refused"]["text"].startswith("refused")


def test_propctl_web_prints_its_url_and_stops_on_ctrl_c():
    proc = subprocess.Popen([sys.executable, "-m", "propctl.cli", "web", "--lang", "en"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=str(ROOT))
    try:
        line = proc.stdout.readline()
        if WASM_MISSING:
            assert proc.wait(WAIT_S) == 1 and "make setup" in proc.stderr.read()
            return
        url = line.split()[line.split().index("browser:") + 1]
        assert url.startswith("http://127.0.0.1:")
        assert b"web.js" in get(url)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(WAIT_S) == 0
        assert "stopped" in proc.stdout.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


# --- the page in a real browser -----------------------------------------------------------
# One Chromium for the module; each test opens its tabs at a desktop's and a phone's size.

DESKTOP = (1280, 900)
PHONE = (390, 844)


def firmware_bell() -> list:
    """drivers.chime.BELL, read from the source ((Hz, ms) pairs, 0 Hz a rest)."""
    tree = ast.parse((FIRMWARE_LIB / "drivers" / "chime.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "BELL":
            return list(ast.literal_eval(node.value))
    raise AssertionError("no BELL in drivers/chime.py")


def chromium_or_skip():
    binary = needed_tools.chromium()
    if WASM_MISSING:
        pytest.fail("the MicroPython WebAssembly port is not installed: run make setup")
    return binary


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    with Chromium(tmp_path_factory.mktemp("profile"), chromium_or_skip()) as b:
        yield b


EVENTS = "window.propEvents.map(e => e.event)"
LOG = "[...document.querySelectorAll('#log li')].map(li => li.dataset.event + ' | ' + li.textContent)"
# What a person can touch: every visible button, link, select and field (a checkbox by its label).
LAYOUT = """(() => {
  const seen = [...document.querySelectorAll('button, a, select, input')]
    .map(el => el.type === 'checkbox' ? el.closest('label') : el)
    .filter(el => el.getClientRects().length > 0);
  const small = seen.map(el => { const r = el.getBoundingClientRect();
      return [el.id || el.textContent.trim().slice(0, 40) || el.tagName, r.width, r.height]; })
    .filter(([, w, h]) => w < 44 || h < 44);
  return {width: document.documentElement.clientWidth, scroll: document.documentElement.scrollWidth,
          targets: seen.length, small};
})()"""


@contextlib.contextmanager
def opened(browser, base: str, prop: str, size=DESKTOP, query: str = "&speed=1"):
    """A tab with the prop's page, ready (the firmware running); closed afterwards."""
    page = browser.open("%s/?prop=%s%s" % (base, prop, query), size=size, mobile=size == PHONE)
    try:
        page.wait_for("window.propReady || window.propError", timeout=90)
        assert page.evaluate("window.propError || ''") == ""
        yield page
    finally:
        page.close()


def touch(page, selector: str) -> None:
    """A person's finger (a phone) or mouse (a desktop) on the element."""
    if page.evaluate("navigator.maxTouchPoints > 0"):
        page.tap(selector)
    else:
        page.click(selector)


def assert_fits(page, size) -> None:
    """The page is laid out at the screen's width, scrolls only down, every target 44 px or more."""
    layout = page.evaluate(LAYOUT)
    assert layout["width"] == size[0], layout  # a phone without the viewport meta lays out 980 px
    assert layout["scroll"] <= layout["width"], layout
    assert layout["targets"] > 5 and layout["small"] == [], layout


def assert_sentences(page) -> list:
    """The log's lines: sentences, never the raw fields (key=value) of an event."""
    log = page.evaluate(LOG)
    raw = [line for line in log if re.search(r"\w=\S", line.split(" | ", 1)[1])]
    assert raw == [], raw
    return log


@pytest.mark.slow
@pytest.mark.parametrize("prop", ["clock", "fusebox", "football"])
def test_browser_page_fits_the_screen_with_touch_sized_controls(browser, server, prop):
    with opened(browser, server, prop) as page:
        page.wait_for("window.propFrame", timeout=WAIT_S)
        assert_fits(page, DESKTOP)
        page.screen(PHONE, mobile=True)
        page.wait_for("document.documentElement.clientWidth === %d" % PHONE[0], timeout=WAIT_S)
        assert_fits(page, PHONE)
        # one column: the log below the prop, not beside it
        prop_box = page.evaluate("document.getElementById('prop').getBoundingClientRect().toJSON()")
        log_box = page.evaluate("document.getElementById('events').getBoundingClientRect().toJSON()")
        assert log_box["top"] >= prop_box["bottom"] - 1, (prop_box, log_box)
        page.screen(PHONE[::-1], mobile=True)  # the phone turned on its side
        page.wait_for("document.documentElement.clientWidth === %d" % PHONE[1], timeout=WAIT_S)
        assert_fits(page, PHONE[::-1])


@pytest.mark.slow
def test_browser_seed_plays_the_round_plan_shows_and_the_log_speaks_sentences(browser, server):
    # `propctl plan --seed 3` shows this plan; the page with &seed=3 must play it
    _, _, planned_ms = plan_points(plan_motion(3))
    with opened(browser, server, "clock", query="&speed=8&seed=3&show_plan=1") as page:
        touch(page, "#start")
        start = page.wait_for("window.propEvents.find(e => e.event === 'start')", timeout=WAIT_S)
        assert start["seed"] == 3 and start["duration_ms"] == planned_ms, start
        log = assert_sentences(page)
        assert any(line.startswith("start | ") and "seed 3" in line and "%d.%d s planned" % (
            planned_ms // 1000, planned_ms % 1000 // 100) in line for line in log), log
    with opened(browser, server, "clock", query="&speed=8&seed=3") as page:
        touch(page, "#start")
        start = page.wait_for("window.propEvents.find(e => e.event === 'start')", timeout=WAIT_S)
        assert start["seed"] == 3 and "duration_ms" not in start, start  # the plan stays secret
        log = assert_sentences(page)
        assert any(line.startswith("start | ") and line.endswith("hand starts: round 1, seed 3")
                   for line in log), log
    page = browser.open("%s/?prop=clock&seed=-4" % server)
    try:
        error = page.wait_for("window.propError", timeout=60)
        assert "not a seed" in error and "0..4294967295" in page.evaluate(
            "document.getElementById('status').textContent")
    finally:
        page.close()


@pytest.mark.slow
def test_browser_clock_round_with_chime_and_moving_hand(browser, server, tmp_path):
    with opened(browser, server, "clock", query="&speed=8") as page:
        assert "WebAssembly" in page.evaluate("document.getElementById('status').textContent")
        start_angle = page.evaluate("window.propFrame.hand_mdeg")
        page.click("#start", hold_s=0.05)  # 0.4 s of board time: a press, not the emergency stop
        for what, timeout in (("window.propEvents.some(e => e.event === 'start')", 30),
                              ("window.propFrame.hand_mdeg !== %d" % start_angle, 30),
                              ("window.propEvents.some(e => e.event === 'chime')", 180),
                              ("window.propEvents.some(e => e.event === 'idle')", 60)):  # the bell rang out
            try:
                page.wait_for(what, timeout=timeout)
            except TimeoutError:
                raise AssertionError("%s: %s" % (what, page.evaluate(LOG))) from None
        page.screenshot(tmp_path / "web-clock.png")
        log = assert_sentences(page)
        names = [line.split(" | ")[0] for line in log]
        assert names.index("start") < names.index("stop") < names.index("chime"), log
        # the log's text is the describer's sentence (as `propctl monitor` prints it)
        assert any(line.startswith("chime |") and "CHIME: round 1 is over" in line for line in log), log
        # the chime went to Web Audio: the melody's notes, in order
        melody = [f for f in firmware_bell()[0::2] if f]
        notes = page.evaluate("window.propAudio.notes")
        assert notes[-len(melody):] == melody, (notes, log)
        assert page.evaluate("window.propError || ''") == ""
    assert (tmp_path / "web-clock.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    if os.environ.get("WEB_SCREENSHOT"):  # refresh the README's picture: WEB_SCREENSHOT=docs/web-clock.png
        Path(os.environ["WEB_SCREENSHOT"]).write_bytes((tmp_path / "web-clock.png").read_bytes())


@pytest.mark.slow
def test_browser_clock_held_button_is_the_emergency_stop(browser, server):
    with opened(browser, server, "clock", query="&speed=4") as page:
        page.click("#start", hold_s=0.2)  # 0.8 s of board time: shorter than the long press
        page.wait_for("window.propEvents.some(e => e.event === 'start')", timeout=WAIT_S)
        # the firmware must have seen the release (debounced) before the next press: with slow
        # frames a release and a press can otherwise fall between the same two board ticks
        page.wait_for("window.propEvents.some(e => e.kind === 'released')", timeout=WAIT_S)
        # held longer than long_press_ms (1.5 s) of board time while the hand turns, counted on
        # the board's clock from the press the firmware saw (on a busy machine the press lands
        # on the board a second or more after it was sent, and board time runs meanwhile)
        page.mouse("#start", "mousePressed")
        pressed = "window.propEvents.filter(e => e.kind === 'pressed')"
        page.wait_for(pressed + ".length >= 2", timeout=WAIT_S)
        pressed_at = page.evaluate(pressed + "[1].t")
        page.wait_for("window.propFrame.t > %d" % (pressed_at + 2500), timeout=60)
        page.mouse("#start", "mouseReleased")
        try:
            page.wait_for("window.propEvents.some(e => e.event === 'estop')", timeout=WAIT_S)
        except TimeoutError:
            raise AssertionError("no estop: %s" % page.evaluate(LOG)) from None
        assert "chime" not in page.evaluate(EVENTS)


# --- Finger weg! on the fuse-box page: players, discs, scores -------------------------------

def scores(page) -> list:
    return page.evaluate("[...document.querySelectorAll('#scores li')].map(li => li.textContent)")


def card_in_play(page) -> dict:
    """Press NEXT (windows shut first) and wait until the box accepted the card."""
    cards = page.evaluate("window.propEvents.filter(e => e.event === 'card').length")
    touch(page, "#close-windows")
    touch(page, "[data-input=btn_next]")
    page.wait_for("window.propEvents.filter(e => e.event === 'card').length > %d" % cards, timeout=WAIT_S)
    return page.wait_for("window.propFrame.box.game.round_active && window.propFrame.card", timeout=WAIT_S)


def open_with_discs(page, window: int, away=()) -> dict:
    """The chooser taps `window`; the players in `away` lay the bolt side; the window opens.
    The box's scored event."""
    scored = page.evaluate("window.propEvents.filter(e => e.event === 'scored').length")
    touch(page, "#window%d" % window)
    page.wait_for("!document.getElementById('discs').hidden", timeout=WAIT_S)
    for player in away:
        touch(page, "#disc%d" % player)
        page.wait_for("document.getElementById('disc%d').classList.contains('away')" % player, timeout=WAIT_S)
    touch(page, "#open-window")
    return page.wait_for("window.propEvents.filter(e => e.event === 'scored')[%d]" % scored, timeout=WAIT_S)


def chooser(page) -> int:
    return page.wait_for("window.propFrame.box.game.chooser", timeout=WAIT_S)


@pytest.mark.slow
def test_browser_fusebox_whole_game_with_players_discs_and_scores(browser, server, tmp_path):
    with opened(browser, server, "fusebox", size=PHONE) as page:
        page.evaluate("document.getElementById('players').value = '3'")
        touch(page, "#new-game")
        page.wait_for("window.propFrame.box.game && window.propFrame.box.game.players === 3", timeout=WAIT_S)
        assert scores(page) == ["Player 1: 0 points (start card)", "Player 2: 0 points",
                                "Player 3: 0 points"]
        assert "NEXT" in page.evaluate("document.getElementById('turn').textContent")

        # round 1, player 1 starts: player 3 fears a safe window (+1, out); player 2 opens the bolt
        card = card_in_play(page)
        safe = [w for w in range(1, 9) if w != card["bolt"]]
        assert chooser(page) == 1
        assert "Player 1 chooses" in page.evaluate("document.getElementById('turn').textContent")
        touch(page, "#window%d" % safe[0])
        page.wait_for("!document.getElementById('discs').hidden", timeout=WAIT_S)
        discs = page.evaluate("[...document.querySelectorAll('#disc-buttons button')]"
                              ".map(b => b.textContent)")
        assert discs == ["Player 2: fingers on", "Player 3: fingers on"], discs  # not the chooser
        assert_fits(page, PHONE)
        touch(page, "#disc3")  # a phone's screen: the scores, the card, the windows, the discs
        page.evaluate("document.getElementById('scores').scrollIntoView()")
        page.screenshot(tmp_path / "web-phone.png")
        touch(page, "#cancel-window")
        scored = open_with_discs(page, safe[0], away=[3])
        assert scored["points"] == {"3": 1} and scored["bolt"] is False
        assert chooser(page) == 2
        page.wait_for("document.getElementById('score3').textContent.includes('out this round')",
                      timeout=WAIT_S)
        scored = open_with_discs(page, card["bolt"], away=[1])
        assert scored["bolt"] is True and scored["round_over"] is True and scored["points"] == {"1": 10}
        page.wait_for("window.propEvents.some(e => e.event === 'fuse_blown')", timeout=WAIT_S)
        bolt_window = page.evaluate("document.getElementById('window%d').textContent" % card["bolt"])
        assert bolt_window.endswith("the bolt"), bolt_window

        # round 2, player 2 starts: nobody fears the first window, players 1 and 2 the second
        card = card_in_play(page)
        safe = [w for w in range(1, 9) if w != card["bolt"]]
        assert chooser(page) == 2
        assert open_with_discs(page, safe[0])["points"] == {}
        assert chooser(page) == 3
        scored = open_with_discs(page, safe[1], away=[1, 2])
        assert scored["points"] == {"1": 2, "2": 2, "3": 10} and scored["round_over"] is True

        # round 3, player 3 starts and opens the bolt: nobody scores, the game is over
        card = card_in_play(page)
        assert chooser(page) == 3
        scored = open_with_discs(page, card["bolt"])
        assert scored["points"] == {} and scored["game_over"] is True
        page.wait_for("window.propFrame.box.game.over", timeout=WAIT_S)
        page.wait_for("document.getElementById('turn').textContent.startsWith('GAME OVER')", timeout=WAIT_S)
        assert scores(page) == ["Player 1: 12 points", "Player 2: 2 points", "Player 3: 11 points"]
        assert page.evaluate("document.getElementById('turn').textContent").startswith(
            "GAME OVER: player 1 wins with 12 points")
        assert page.evaluate("document.getElementById('score1').className") == "winner"
        log = assert_sentences(page)
        assert any(line.startswith("scored | ") and "GAME OVER" in line for line in log), log
        assert not [line for line in log if "seat" in line or "player 0" in line], log
        assert_fits(page, PHONE)
        page.screenshot(tmp_path / "web-phone-over.png", whole=True)
    if os.environ.get("WEB_PHONE_SCREENSHOT"):  # the docs' picture: WEB_PHONE_SCREENSHOT=docs/web-phone.png
        Path(os.environ["WEB_PHONE_SCREENSHOT"]).write_bytes((tmp_path / "web-phone.png").read_bytes())


@pytest.mark.slow
def test_browser_fusebox_page_remembers_the_card_it_played(browser, tmp_path, monkeypatch):
    from propctl.web.played import PageDeal
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    history = tmp_path / "propctl" / "history.json"

    def recorded() -> dict:
        return json.loads(history.read_text())["decks"]["fusebox/shipped"] if history.exists() else {}

    def new_game(page) -> None:
        page.evaluate("document.getElementById('players').value = '2'")
        touch(page, "#new-game")
        page.wait_for("window.propFrame.box.game && window.propFrame.box.game.players === 2", timeout=WAIT_S)

    with serving(web.make_server(0, deal=PageDeal("en"))) as base:
        with opened(browser, base, "fusebox", size=PHONE) as page:
            new_game(page)
            card = card_in_play(page)
            assert open_with_discs(page, card["bolt"])["round_over"] is True  # the chooser hit the bolt
            deadline = time.monotonic() + WAIT_S
            while recorded().get("played") != {card["id"]: 1} and time.monotonic() < deadline:
                time.sleep(0.05)
            assert recorded() == {"games": 1, "played": {card["id"]: 1}}, page.evaluate(LOG)
        # the next evening: the page deals the other cards first, this one last
        assert dealt(base)[-1] == card["id"]
        with opened(browser, base, "fusebox", size=PHONE) as page:
            new_game(page)
            assert card_in_play(page)["id"] != card["id"]
            deadline = time.monotonic() + WAIT_S
            while recorded().get("games") != 2 and time.monotonic() < deadline:
                time.sleep(0.05)
        assert recorded() == {"games": 2, "played": {card["id"]: 1}}


@pytest.mark.slow
def test_browser_fusebox_windows_without_a_game(browser, server):
    with opened(browser, server, "fusebox") as page:
        touch(page, "[data-input=btn_next]")
        card = page.wait_for("window.propFrame.card", timeout=WAIT_S)
        assert page.evaluate("document.getElementById('card-id').textContent") == card["id"]
        safe = [w for w in range(1, 9) if w != card["bolt"]][0]
        touch(page, "#window%d" % safe)  # no game going: the window opens at once
        page.wait_for("window.propEvents.some(e => e.event === 'window')", timeout=WAIT_S)
        log = assert_sentences(page)
        assert any(line.startswith("window |") and "window %d opened" % safe in line for line in log), log
        assert page.evaluate("document.getElementById('window%d').classList.contains('open')" % safe)


# --- the football box: the buttons say what they do, the reports are pickers ----------------

FOOTBALL = "window.propFrame"


def football_step(page) -> str:
    """One thing the players do now, as a person would on the page; what it was."""
    frame = page.evaluate(FOOTBALL)
    roles, reports = frame["roles"], frame["reports"]
    enabled = page.evaluate("Object.fromEntries([...document.querySelectorAll('#football [data-input]')]"
                            ".map(b => [b.dataset.input, !b.disabled]))")
    assert enabled == {name: bool(role) for name, role in roles.items()}, (enabled, roles)
    labels = [entry["label"] for entry in reports]
    assert not [label for label in labels if "_" in label], labels  # words, not code names
    if frame["counting"]:  # the kick count: only GOOD and MISS, no reports
        assert enabled == {"roll": False, "kick": False, "good": True, "miss": True}
        assert page.evaluate("document.getElementById('reports').hidden")
        touch(page, "[data-input=good]")
        return "good in the count"
    for button in ("roll", "kick", "good"):  # GOOD: the play made (a red football is a report)
        if roles[button]:
            touch(page, "[data-input=%s]" % button)
            return roles[button]
    if reports:
        first = reports[0]
        if "receive" in labels:  # the toss's winner receives: the drive is theirs
            touch(page, "#actions button[data-report=receive]")
            return "receive"
        if first["needs"] and first["needs"][0] == "yards":
            page.evaluate("document.getElementById('yards-%s').value = '35'" % first["needs"][1])
            touch(page, "#actions button[data-report=%s]" % first["needs"][1])
            return first["label"]
        if first["needs"]:  # an announced play: the zone first, then run or pass and the lane
            assert len(reports) <= 7, labels
            touch(page, "#actions button[data-index='0']")
            page.wait_for("!!document.querySelector('#pick-back')", timeout=WAIT_S)
            plays = page.evaluate("[...document.querySelectorAll('#actions button[data-report]')]"
                                  ".map(b => b.textContent)")
            assert 1 <= len(plays) <= 6 and all(p.startswith("announce ") for p in plays), plays
            touch(page, "#actions button[data-report]")
            return plays[0]
        touch(page, "#actions button[data-index='0']")
        return first["label"]
    raise AssertionError("nothing to do on the page: %s" % frame)


SETTLE_MS = 200  # board ms after a release: the debounce has seen it, the screen is drawn


@pytest.mark.slow
def test_browser_football_drive_to_a_field_goal(browser, server, tmp_path):
    # seed 2: the toss, the kickoff, a roll of CHOICE, the play made, a field goal in the count
    # speed 1: the kick count's 3 s are the players' real seconds, and a loaded host's
    # browser still has them to tap GOOD in (at speed 4 it had 750 ms)
    with opened(browser, server, "football", size=PHONE, query="&speed=1&seed=2") as page:
        page.wait_for("document.getElementById('oled').textContent.includes('HOME')", timeout=WAIT_S)
        done = []
        for _ in range(20):
            count = page.evaluate("window.propEvents.length")
            done.append(football_step(page))
            page.wait_for("window.propEvents.length > %d" % count, timeout=WAIT_S)
            page.wait_for("!document.querySelector('#football button.held')", timeout=WAIT_S)
            released = page.evaluate("window.propFrame.t")  # the box settles (the release, the screen)
            page.wait_for("window.propFrame.t > %d" % (released + SETTLE_MS), timeout=WAIT_S)
            if page.evaluate("window.propEvents.some(e => e.event === 'score')"):
                break
        log = assert_sentences(page)
        score = page.evaluate("window.propEvents.find(e => e.event === 'score')")
        assert score and score["points"] == 3, "\n".join(done + log)
        assert "good in the count" in done and any(d.startswith("announce ") for d in done), done
        assert "refused" not in page.evaluate(EVENTS), log
        assert any("kick (field goal) GOOD" in line for line in log), log
        assert_fits(page, PHONE)
        page.screenshot(tmp_path / "web-football.png")
    if os.environ.get("WEB_FOOTBALL_SCREENSHOT"):  # the README's picture: =docs/web-football.png
        Path(os.environ["WEB_FOOTBALL_SCREENSHOT"]).write_bytes((tmp_path / "web-football.png").read_bytes())
