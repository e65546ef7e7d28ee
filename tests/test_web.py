"""`propctl web`: the page's server, the bridge the page calls, and the page in a real headless Chromium."""
import ast
import json
import os
import signal
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from chromium_cdp import Chromium, find_chromium
from micropython_harness import FIRMWARE_LIB, ROOT, find_micropython

from propctl import web
from propctl.sim.fusebox import prepare_pack
from propctl.sim.runner import VBOARD_DIR

WASM_MISSING = not (web.WASM_PACKAGE / "micropython.wasm").is_file()


@pytest.fixture
def server(tmp_path):
    """The page's server on a free port, in a thread; its base URL."""
    srv = web.make_server(0, prepare_pack(None, tmp_path, "en"))
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield "http://127.0.0.1:%d" % srv.server_address[1]
    srv.shutdown()
    srv.server_close()
    thread.join(5)


def get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as answer:
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
    assert "/host/describe.py" in text
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
    env = dict(os.environ, MICROPYPATH="%s:%s:%s" % (VBOARD_DIR, FIRMWARE_LIB, web.DESCRIBE.parent))
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


def test_propctl_web_prints_its_url_and_stops_on_ctrl_c():
    proc = subprocess.Popen([sys.executable, "-m", "propctl.cli", "web", "--lang", "en"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=str(ROOT))
    try:
        line = proc.stdout.readline()
        if WASM_MISSING:
            assert proc.wait(30) == 1 and "make setup" in proc.stderr.read()
            return
        url = line.split()[line.split().index("browser:") + 1]
        assert url.startswith("http://127.0.0.1:")
        assert b"web.js" in get(url)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(30) == 0
        assert "stopped" in proc.stdout.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


# --- the page in a real browser -----------------------------------------------------------

def firmware_bell() -> list:
    """drivers.chime.BELL, read from the source ((Hz, ms) pairs, 0 Hz a rest)."""
    tree = ast.parse((FIRMWARE_LIB / "drivers" / "chime.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "BELL":
            return list(ast.literal_eval(node.value))
    raise AssertionError("no BELL in drivers/chime.py")


def chromium_or_skip():
    binary = find_chromium()
    if binary is None:
        if os.environ.get("CI"):
            pytest.fail("CI must run the browser test: chromium is not installed (.ci/run installs it)")
        pytest.skip("browser test SKIPPED: chromium is not installed (Debian: apt-get install chromium)")
    if WASM_MISSING:
        pytest.fail("the MicroPython WebAssembly port is not installed: run make setup")
    return binary


@pytest.fixture
def browser(tmp_path):
    with Chromium(tmp_path / "profile", chromium_or_skip()) as b:
        yield b


EVENTS = "window.propEvents.map(e => e.event)"
LOG = "[...document.querySelectorAll('#log li')].map(li => li.dataset.event + ' | ' + li.textContent)"


def open_prop(browser, base: str, prop: str, speed: int = 1):
    page = browser.open("%s/?prop=%s&speed=%d" % (base, prop, speed))
    page.wait_for("window.propReady || window.propError", timeout=90)
    assert page.evaluate("window.propError || ''") == ""
    return page


@pytest.mark.slow
def test_browser_clock_round_with_chime_and_moving_hand(browser, server, tmp_path):
    page = open_prop(browser, server, "clock", speed=8)
    assert "WebAssembly" in page.evaluate("document.getElementById('status').textContent")
    start_angle = page.evaluate("window.propFrame.hand_mdeg")
    page.click("#start", hold_s=0.05)  # 0.4 s of board time: a press, not the emergency stop
    page.wait_for("window.propEvents.some(e => e.event === 'start')", timeout=30)
    page.wait_for("window.propFrame.hand_mdeg !== %d" % start_angle, timeout=30)
    page.wait_for("window.propEvents.some(e => e.event === 'chime')", timeout=180)
    page.wait_for("window.propEvents.some(e => e.event === 'idle')", timeout=60)  # the bell has rung out
    page.screenshot(tmp_path / "web-clock.png")
    log = page.evaluate(LOG)
    names = [line.split(" | ")[0] for line in log]
    assert names.index("start") < names.index("stop") < names.index("chime"), log
    # the log's text is the describer's sentence (as `propctl monitor` prints it)
    assert any(line.startswith("chime |") and "CHIME: round 1 is over" in line for line in log), log
    # the chime went to Web Audio: the melody's notes, in order
    melody = [f for f in firmware_bell()[0::2] if f]
    notes = page.evaluate("window.propAudio.notes")
    assert notes[-len(melody):] == melody, notes
    assert page.evaluate("window.propError || ''") == ""
    assert (tmp_path / "web-clock.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    if os.environ.get("WEB_SCREENSHOT"):  # refresh the README's picture: WEB_SCREENSHOT=docs/web-clock.png
        Path(os.environ["WEB_SCREENSHOT"]).write_bytes((tmp_path / "web-clock.png").read_bytes())


@pytest.mark.slow
def test_browser_clock_held_button_is_the_emergency_stop(browser, server):
    page = open_prop(browser, server, "clock", speed=1)
    page.click("#start", hold_s=0.2)
    page.wait_for("window.propEvents.some(e => e.event === 'start')", timeout=30)
    # the firmware must have seen the release (debounced) before the next press: with slow
    # frames a release and a press can otherwise fall between the same two board ticks
    page.wait_for("window.propEvents.some(e => e.kind === 'released')", timeout=30)
    # held longer than long_press_ms (1.5 s) of board time while the hand turns (board time
    # lags real time when frames come slowly, so the hold is measured on the board's clock)
    pressed_at = page.evaluate("window.propFrame.t")
    page.mouse("#start", "mousePressed")
    page.wait_for("window.propFrame.t > %d" % (pressed_at + 2500), timeout=60)
    page.mouse("#start", "mouseReleased")
    try:
        page.wait_for("window.propEvents.some(e => e.event === 'estop')", timeout=30)
    except TimeoutError:
        raise AssertionError("no estop: %s" % page.evaluate(LOG)) from None
    assert "chime" not in page.evaluate(EVENTS)


@pytest.mark.slow
def test_browser_fusebox_windows_and_card(browser, server, tmp_path):
    page = open_prop(browser, server, "fusebox")
    page.click("[data-input=btn_next]")
    card = page.wait_for("window.propFrame.card", timeout=30)
    assert page.evaluate("document.getElementById('card-id').textContent") == card["id"]
    safe = [w for w in range(1, 9) if w != card["bolt"]][0]
    page.click("#window%d" % safe)
    page.wait_for("window.propEvents.some(e => e.event === 'window')", timeout=30)
    log = page.evaluate(LOG)
    assert any(line.startswith("window |") and "window %d opened" % safe in line for line in log), log
    titles = page.evaluate("[...document.querySelectorAll('#log li')].map(li => li.title)")
    assert any(t.startswith("window ") and ("window=%d" % safe) in t.split() for t in titles), titles
    assert page.evaluate("document.getElementById('window%d').classList.contains('open')" % safe)
    page.screenshot(tmp_path / "web-fusebox.png")


@pytest.mark.slow
def test_browser_football_panel_and_buttons(browser, server):
    page = open_prop(browser, server, "football")
    page.wait_for("document.getElementById('oled').textContent.includes('HOME')", timeout=30)
    page.click("[data-input=roll]")
    page.wait_for("window.propEvents.some(e => e.event === 'toss')", timeout=30)
    assert "TOSS" not in page.evaluate("document.getElementById('oled').textContent")
    # the toss winner's choice is a report (over the link at a real table): a button on the page
    choices = page.wait_for("[...document.querySelectorAll('#actions button')].map(b => b.dataset.action)",
                            timeout=30)
    assert "receive" in choices, choices
    before = len(page.evaluate(EVENTS))
    page.click("#actions button[data-action=receive]")
    page.wait_for("!JSON.stringify(window.propFrame.actions).includes('receive')", timeout=30)
    names = page.evaluate(EVENTS)[before:]
    assert "refused" not in names and "play" in names, names
