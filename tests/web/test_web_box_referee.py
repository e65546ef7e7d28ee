"""`propctl web --box PORT|auto`: the web page as the referee of a football box on a serial port.

A whole Finger Football game against the served virtual box (`propctl sim serve`), through the web
server's HTTP interface as the page uses it: GET /box/view (a long poll for the box's events and
its state) and POST /box/report; the box's buttons are pressed by its virtual person, and only
what the buttons cannot say is reported through the server. Before: `propctl web` only ran the
firmware in the browser; nothing could referee a real or served box from the page.
"""
import json
import subprocess
import urllib.error
import urllib.request

import pytest
from sim_serve import PROPCTL
from test_football_referee_box import Hands, served_football_box  # noqa: F401 (a fixture)
from test_web import PHONE, assert_fits, browser, touch  # noqa: F401 (a fixture)


def web_server(served, *options):
    """`propctl web --box auto` on the served box: (flash, serial port, base URL, ?query printed)."""
    flash, port = served
    proc = subprocess.Popen(PROPCTL + ["web", "--box", "auto", "--port", "0", *options],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert "the referee of the football box on %s: http://" % port in line, \
            line + proc.stderr.read() if proc.poll() is not None else line
        address = line.split(": ", 1)[1].split()[0]
        base, _, query = address.partition("?")
        yield flash, port, base, query
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture
def web_box(served_football_box):  # noqa: F811 (the fixture imported above)
    for flash, port, base, query in web_server(served_football_box):
        assert base.startswith("http://127.0.0.1:") and query == "prop=football"
        yield flash, port, base


@pytest.fixture
def web_box_lan(served_football_box):  # noqa: F811 (the fixture imported above)
    """--lan: every interface, and a key in the address printed (the page passes it on)."""
    for flash, port, base, query in web_server(served_football_box, "--lan"):
        assert query.startswith("prop=football&key=") and len(query.split("key=")[1]) == 10, query
        # the server answers on localhost too; the address printed is the network's
        yield flash, port, "http://127.0.0.1:" + base.rsplit(":", 1)[1], query


def get(url, path, timeout=30):
    with urllib.request.urlopen(url.rstrip("/") + path, timeout=timeout) as answer:
        return json.loads(answer.read())


def post(url, body, kind="application/json"):
    request = urllib.request.Request(url.rstrip("/") + "/box/report", data=json.dumps(body).encode(),
                                     headers={"Content-Type": kind}, method="POST")
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def look(url, prefix=None, key=""):
    query = "/box/view?since=-1" + key
    if prefix:
        query += "&prefix=" + urllib.request.quote(json.dumps(prefix))
    view = get(url, query)
    assert not view["lost"], view
    return view


def test_a_whole_game_refereed_from_the_web_page_against_the_served_box(web_box):
    flash, port, url = web_box
    hands = Hands(flash)
    view = look(url)
    assert view["port"] == port and view["board"][0].startswith("==== Q1  play 0/2 ====  Red 0 : 0 Blue")
    pressed = yards = picks = reports_sent = 0
    refused = None
    events = []
    for _turn in range(400):
        view = look(url)
        if view["phase"] == "over":
            break
        roles = view["roles"]
        before = view["seq"]
        if view["counting"]:
            hands.press("GOOD")
            pressed += 1
        elif roles["roll"] in ("toss the coin", "roll the dice"):
            hands.press("ROLL")
            pressed += 1
        elif roles["good"]:
            hands.press("GOOD")
            pressed += 1
        elif roles["kick"]:
            hands.press("KICK")
            pressed += 1
        elif view["reports"]:
            entry = view["reports"][0]
            if entry["needs"] and entry["needs"][0] == "pick":
                # an announced play: its zone first, then the page asks for the rest
                sub = look(url, entry["needs"][2])
                assert sub["prefix"] == entry["needs"][2] and sub["reports"], sub
                entry = sub["reports"][0]
                picks += 1
            if entry["needs"] and entry["needs"][0] == "yards":
                _, action, lo, hi = entry["needs"]
                if refused is None:  # a yard line off the field: refused in words, nothing changes
                    refused = post(url, {"action": action, "yards": hi + 1})
                    assert look(url)["board"] == view["board"]
                answer = post(url, {"action": action, "yards": min(hi, max(lo, 35))})
                yards += 1
            else:
                answer = post(url, entry["report"])
            assert "ok" in answer, (entry, answer)
            reports_sent += 1
        else:
            raise AssertionError("nothing to do: %r" % view)
        # the box's next event (a long poll: back as soon as the box has said something)
        moved = get(url, "/box/view?since=%d" % before)
        events += moved["events"]
    else:
        raise AssertionError("no final whistle in 400 turns")
    assert pressed >= 5 and yards >= 1 and reports_sent >= 3, (pressed, yards, reports_sent)
    assert refused is not None and "error" in refused and refused["text"], refused
    names = {e["event"] for e in events}
    assert {"toss", "roll", "play"} <= names and all(e["text"] for e in events), names
    final = look(url)
    assert final["phase"] == "over" and final["board"][-1].startswith("Game over: ")
    assert final["roles"]["roll"] == "hold it down: a new game" and final["reports"] == []
    assert "Red" in final["board"][0] and "Blue" in final["board"][0]


def test_bad_requests_are_refused_with_a_reason(web_box):
    _, _, url = web_box
    with pytest.raises(urllib.error.HTTPError) as refused:  # JSON only: no form from another site
        post(url, {"action": "receive"}, kind="text/plain")
    assert refused.value.code == 400
    for body in ({"action": 3}, {"action": "in_field", "yards": "35"}, {"action": "x", "extra": 1},
                 ["receive"], {"action": "target", "pick": 7}):
        with pytest.raises(urllib.error.HTTPError) as refused:
            post(url, body)
        assert refused.value.code == 400
    for query in ("since=x", "since=-1&prefix=opp2", "since=-1&prefix=%5B1%5D",
                  "since=-1&prefix=" + urllib.request.quote(json.dumps(["opp2"] * 5))):
        with pytest.raises(urllib.error.HTTPError) as refused:
            get(url, "/box/view?" + query)
        assert refused.value.code == 400, query
    # a pick's words that lead nowhere now: the plain menu, and the page is told to drop them
    view = get(url, "/box/view?since=-1&prefix=" + urllib.request.quote(json.dumps(["opp9"])))
    assert view["prefix"] == [] and not view["lost"], view
    # a report the box refuses (no kickoff before the toss) comes back in the box's words
    answer = post(url, {"action": "receive"})
    assert "error" in answer and answer["text"], answer


@pytest.mark.parametrize("box", ["nothing", "", "/dev/null"])
def test_web_box_says_why_when_the_port_has_no_football_box(tmp_path, box):
    port = str(tmp_path / box) if box == "nothing" else box
    done = subprocess.run(PROPCTL + ["web", "--box", port], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and done.stdout == "", done.stdout  # no server started
    assert done.stderr.startswith("error: ") and "Traceback" not in done.stderr, done.stderr
    assert max(len(line) for line in done.stderr.splitlines()) <= 79, done.stderr


@pytest.mark.slow
def test_the_page_referees_the_served_box_on_a_phone(web_box_lan, browser):  # noqa: F811
    """Headless Chromium at 390x844, at the --lan address with its key: the page runs no
    firmware, shows the box's buttons' roles (greyed: they are on the box), and a tap on a
    report or a yard line reaches the box. Without the key the server takes nothing."""
    flash, port, url, query = web_box_lan
    for path in ("/box/view?since=-1", "/box/view?since=-1&key=wrongkey12"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            get(url, path)
        assert refused.value.code == 403
    with pytest.raises(urllib.error.HTTPError) as refused:
        post(url, {"action": "receive"})
    assert refused.value.code == 403
    key = "&" + query.split("&", 1)[1]
    hands = Hands(flash)
    page = browser.open(url.rstrip("/") + "/?" + query, size=PHONE, mobile=True)
    try:
        page.wait_for("window.propReady || window.propError", timeout=60)
        assert page.evaluate("window.propError || ''") == ""
        assert "referee of the football box on %s" % port in page.evaluate(
            "document.getElementById('status').textContent")
        buttons = page.evaluate("[...document.querySelectorAll('#football [data-input]')].map(b => "
                                "[b.dataset.input, b.disabled, b.querySelector('small').textContent])")
        assert buttons[0] == ["roll", True, "toss the coin"] and all(b[1] for b in buttons), buttons
        assert_fits(page, PHONE)  # one column, nothing sideways, every target 44 px or more
        hands.press("ROLL")  # the toss, on the box
        page.wait_for("!!document.querySelector('#actions button[data-report=receive]')", timeout=30)
        touch(page, "#actions button[data-report=receive]")
        page.wait_for("!document.querySelector('#actions button[data-report=receive]')", timeout=30)
        yards = None
        for _ in range(12):  # the goal to defend, the kickoff's dice: then where it stopped
            view = look(url, key=key)
            page.wait_for("(window.propFrame || {}).seq >= %d" % view["seq"], timeout=30)
            entry = view["reports"][0] if view["reports"] else None
            if entry and entry["needs"] and entry["needs"][0] == "yards":
                yards = entry
                break
            if view["roles"]["roll"] in ("toss the coin", "roll the dice"):
                hands.press("ROLL")
            elif entry and entry["report"]:
                touch(page, "#actions button[data-index='0']")
            else:
                raise AssertionError(view)
            page.wait_for("(window.propFrame || {}).seq > %d" % view["seq"], timeout=30)
        assert yards is not None, look(url, key=key)
        action = yards["needs"][1]
        page.evaluate("document.getElementById('yards-%s').value = '35'" % action)
        page.screenshot(flash.parent / "box-page.png")
        touch(page, "#actions button[data-report=%s]" % action)
        page.wait_for("!document.getElementById('yards-%s')" % action, timeout=30)
        after = look(url, key=key)
        assert not any(e["needs"] and e["needs"][1:2] == [action] for e in after["reports"]), after
        log = page.evaluate("[...document.querySelectorAll('#log li')].map(li => li.textContent)")
        assert len(log) >= 3 and not [line for line in log if "=" in line], log
    finally:
        page.close()


def test_with_a_key_the_server_takes_a_played_card_only_with_it(tmp_path, monkeypatch):
    """--lan's key guards every request that changes something (here the fuse box's /played)."""
    import threading

    from propctl import web
    from propctl.web.played import PageDeal
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    srv = web.make_server(0, deal=PageDeal("en"), key="k3v9q2mxha")
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    base = "http://127.0.0.1:%d" % srv.server_address[1]
    try:
        for path in ("/played", "/played?key=wrong"):
            request = urllib.request.Request(base + path, data=b'{"new_game": 3}',
                                             headers={"Content-Type": "application/json"})
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(request, timeout=10)
            assert refused.value.code == 403
        request = urllib.request.Request(base + "/played?key=k3v9q2mxha", data=b'{"new_game": 3}',
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            assert "unplayed" in json.loads(answer.read())
        with urllib.request.urlopen(base + "/", timeout=10) as page:  # the page itself needs none
            assert b"<title>" in page.read()
    finally:
        srv.shutdown()
        srv.server_close()
        thread.join(5)
