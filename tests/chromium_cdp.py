"""A headless Chromium driven over its own DevTools protocol, standard library only.

    with Chromium(tmp_path / "profile") as browser:
        page = browser.open("http://127.0.0.1:8000/")
        page.evaluate("1 + 1")                  # -> 2 (promises are awaited)
        page.click("#start", hold_s=0.3)        # real mouse events at the element's centre
        page.screenshot(tmp_path / "page.png")
        page.close()

    page = browser.open(url, size=(390, 844), mobile=True)   # a phone: a touch screen 390 px wide

Chromium speaks the protocol on a pipe (--remote-debugging-pipe): it reads
requests on fd 3 and writes answers and events on fd 4, one JSON message per
NUL-terminated chunk. No websocket library, no downloaded browser: the binary is
the system's (Debian's `chromium`).
"""
import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import time

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=1200,900", "--remote-debugging-pipe"]


def find_chromium():
    """Path of the system's Chromium, or None."""
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _above_9(fd: int) -> int:
    """The same pipe end on a descriptor numbered 10 or more (the old one closed)."""
    high = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return high


class ProtocolError(RuntimeError):
    pass


class Chromium:
    """One browser process; open() gives pages (see the module docstring)."""

    def __init__(self, profile_dir, binary=None) -> None:
        self.binary = binary or find_chromium()
        if self.binary is None:
            raise FileNotFoundError("chromium is not installed")
        os.makedirs(str(profile_dir), exist_ok=True)
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        # the child's ends above fd 9, so putting them on 3 and 4 clobbers neither
        to_browser_r, from_browser_w = _above_9(to_browser_r), _above_9(from_browser_w)
        # bash (dash takes single-digit fds only) puts the pipe ends on fds 3 and 4, then becomes Chromium
        script = 'exec "$0" "$@" 3<&%d 4>&%d %d<&- %d>&-' % (
            to_browser_r, from_browser_w, to_browser_r, from_browser_w)
        self.proc = subprocess.Popen(
            ["bash", "-c", script, self.binary, "--user-data-dir=%s" % profile_dir] + FLAGS + ["about:blank"],
            pass_fds=(to_browser_r, from_browser_w), stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next_id = 0
        self.events: list = []

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Ask the browser to quit; kill it if it does not within 10 s."""
        if self.proc.poll() is None:
            try:
                self.send("Browser.close", timeout=5)
            except (ProtocolError, OSError, TimeoutError):
                pass
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for fd in (self._to_browser, self._from_browser):
            try:
                os.close(fd)
            except OSError:
                pass
        if self.proc.stderr is not None:
            self.proc.stderr.close()

    def send(self, method: str, params=None, session=None, timeout: float = 30) -> dict:
        """One protocol command; its result (ProtocolError for an error answer)."""
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            answer = self._read(deadline)
            if answer.get("id") == self._next_id:
                if "error" in answer:
                    raise ProtocolError("%s: %s" % (method, answer["error"]))
                return answer.get("result", {})
            self.events.append(answer)

    def _read(self, deadline: float) -> dict:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no answer from chromium")
            ready, _, _ = select.select([self._from_browser], [], [], left)
            if ready:
                chunk = os.read(self._from_browser, 65536)
                if not chunk:
                    raise ProtocolError("chromium closed the pipe (exit code %s)" % self.proc.poll())
                self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def open(self, url: str, size=None, mobile: bool = False) -> "Page":
        """A new tab at `url`, its screen `size` (width, height) or the window's; mobile: a
        phone's (touch, and the page's viewport meta decides its layout width)."""
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session, target)
        if size is not None:
            page.screen(size, mobile)
        page.send("Page.navigate", {"url": url})
        return page


class Page:
    """One tab (see the Chromium docstring)."""

    def __init__(self, browser: Chromium, session: str, target: str = "") -> None:
        self.browser = browser
        self.session = session
        self.target = target

    def screen(self, size, mobile: bool = False) -> None:
        """The tab's screen from now on: `size` (width, height); mobile: a phone's (see open)."""
        self.send("Emulation.setDeviceMetricsOverride", {"width": size[0], "height": size[1],
                                                         "deviceScaleFactor": 2 if mobile else 1,
                                                         "mobile": mobile})
        self.send("Emulation.setTouchEmulationEnabled", {"enabled": mobile, "maxTouchPoints": 5})

    def close(self) -> None:
        """Close the tab (its page's memory goes with it)."""
        self.browser.send("Target.closeTarget", {"targetId": self.target})

    def send(self, method: str, params=None, timeout: float = 30) -> dict:
        return self.browser.send(method, params, self.session, timeout)

    def evaluate(self, expression: str, timeout: float = 30):
        """The value of a JavaScript expression (JSON-able), promises awaited."""
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True}, timeout)
        if "exceptionDetails" in result:
            raise ProtocolError("page error: %s" % result["exceptionDetails"])
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 60, poll_s: float = 0.05):
        """Evaluate until the value is truthy; that value (TimeoutError after `timeout` s)."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError("still false after %s s: %s" % (timeout, expression))
            time.sleep(poll_s)

    def click(self, selector: str, hold_s: float = 0.05) -> None:
        """Press the left mouse button on the element's centre, hold it hold_s, release."""
        self.mouse(selector, "mousePressed")
        time.sleep(hold_s)
        self.mouse(selector, "mouseReleased")

    def tap(self, selector: str, hold_s: float = 0.05) -> None:
        """A finger on the element's centre for hold_s (touch events: a page opened mobile)."""
        x, y = self.centre(selector)
        self.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        time.sleep(hold_s)
        self.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})

    def centre(self, selector: str) -> tuple:
        """(x, y) of the element's centre in the viewport, scrolled into view first."""
        return tuple(self.evaluate(
            "(() => { const el = document.querySelector(%s); el.scrollIntoView({block: 'center'});"
            " const r = el.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()"
            % json.dumps(selector)))

    def mouse(self, selector: str, kind: str) -> None:
        """One real mouse event (mousePressed, mouseReleased) on the element's centre."""
        x, y = self.centre(selector)
        if kind == "mousePressed":
            self.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
        pressed = kind == "mousePressed"
        self.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left",
                                               "buttons": 1 if pressed else 0, "clickCount": 1})

    def screenshot(self, path, whole: bool = False) -> bytes:
        """Save a PNG of the page to `path` (whole: all of it, not only what the screen shows)."""
        data = base64.b64decode(self.send("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": whole})["data"])
        with open(str(path), "wb") as f:
            f.write(data)
        return data
