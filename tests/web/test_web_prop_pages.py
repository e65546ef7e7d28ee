"""`propctl web`: a prop's part of the page is in its own folder, the props offered are the registry's.

Each prop's page code (propctl/props/<name>/web.js, with its markup web.html and look web.css) is
served as /props/<name>/...; the common page (web/static/) names no prop and builds its links from
GET /props.json, the desktop's registry (propctl.props, fed by the firmware's props.NAMES). A prop
of the firmware with no page part yet (the test fixture lamp, as tests/project/test_fourth_prop.py adds it)
is offered with the words that it has no web page, and `propctl sim lamp` named instead.
Before: the three props' page code was one file, web/static/web.js, whose list of props was
["clock", "fusebox", "football"] written into it; there was no /props.json, and ?prop=lamp showed
the clock.
"""
import json
import threading
import urllib.error
import urllib.request
from pathlib import Path

import needed_tools
import pytest
from chromium_cdp import Chromium

from propctl import props, web

PROPS_DIR = Path(props.__file__).resolve().parent
REAL = ("clock", "fusebox", "football")


@pytest.fixture
def server(monkeypatch):
    """The page's server with the lamp added to the registry (its firmware folder is not needed:
    the page says it has no page before it would load the firmware)."""
    monkeypatch.setattr("propctl.build.PROPS", props.names() + ("lamp",))
    srv = web.make_server(0, None)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield "http://127.0.0.1:%d" % srv.server_address[1]
    srv.shutdown()
    srv.server_close()
    thread.join(5)


def get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return answer.read()


def test_the_props_offered_are_the_registrys_with_their_page_files(server):
    offered = json.loads(get(server + "/props.json"))
    assert [p["name"] for p in offered] == list(REAL) + ["lamp"]
    by_name = {p["name"]: p for p in offered}
    for name in REAL:
        assert by_name[name]["files"] == ["web.js", "web.html", "web.css"], by_name[name]
        assert get(server + "/props/%s/web.js" % name) == (PROPS_DIR / name / "web.js").read_bytes()
        assert get(server + "/props/%s/web.html" % name).startswith(b'<div id="%s"' % name.encode())
    assert by_name["clock"]["title"] == "ghost clock" and by_name["football"]["label"] == "Football box"
    assert by_name["lamp"] == {"name": "lamp", "title": "lamp", "label": "Lamp", "files": []}


def test_the_server_hands_out_only_page_files_of_registered_props(server):
    for path in ("/props/lamp/web.js", "/props/clock/sim.py", "/props/clock/__init__.py",
                 "/props/nothing/web.js", "/props/../web.js", "/props/clock/../football/web.js",
                 "/props/clock", "/props/clock/web.js/x", "/props/__init__.py"):
        with pytest.raises(urllib.error.HTTPError) as err:
            get(server + path)
        assert err.value.code == 404, path


def test_the_common_page_names_no_prop():
    static = Path(web.__file__).resolve().parent / "static"
    for file in sorted(static.iterdir()):
        text = file.read_text(encoding="utf-8").lower()
        found = [name for name in REAL + ("fuse box", "ghost", "finger football") if name in text]
        assert found == [], (file.name, found)


def test_propctl_web_help_lists_the_registrys_props(capsys, monkeypatch):
    import argparse
    monkeypatch.setattr("propctl.build.PROPS", props.names() + ("lamp",))
    parser = argparse.ArgumentParser(prog="propctl")
    web.register(parser.add_subparsers())
    with pytest.raises(SystemExit):
        parser.parse_args(["web", "--help"])
    assert "?prop=clock|fusebox|football|lamp " in capsys.readouterr().out


def test_box_without_a_prop_that_has_a_box_page_says_so(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))  # the fuse box's play history: not ours
    monkeypatch.setattr(props, "having", lambda kind: ())
    args = web_args(box="auto")
    assert web.run(args) == 1
    assert "no prop of this firmware has a page that referees it" in capsys.readouterr().err
    assert web.box_part() == (None, None)
    monkeypatch.undo()
    name, part = web.box_part()
    assert name == "football" and part.__name__ == "propctl.props.football.web_box"


def web_args(**given):
    import argparse
    values = {"lang": "en", "family": False, "fresh": False, "box": None, "lan": False, "port": 0}
    values.update(given)
    return argparse.Namespace(**values)


# --- in a real browser (headless Chromium) ---------------------------------------------------

def chromium_binary():
    binary = needed_tools.chromium()
    if not (web.WASM_PACKAGE / "micropython.wasm").is_file():
        needed_tools.missing("the browser test",
                             "the MicroPython WebAssembly port is not installed: run make setup")
    return binary


RESOURCES = "performance.getEntriesByType('resource').map(e => new URL(e.name).pathname)"


@pytest.mark.slow
def test_in_the_browser_each_prop_loads_its_own_part_and_the_lamp_says_it_has_no_page(server, tmp_path):
    with Chromium(tmp_path / "profile", chromium_binary()) as browser:
        page = browser.open(server + "/?prop=lamp", size=(1000, 800), mobile=False)
        page.wait_for("window.propNoPage || window.propReady || window.propError", timeout=60)
        assert page.evaluate("window.propNoPage || ''") == "lamp"
        assert page.evaluate("window.propError || ''") == ""
        status = page.evaluate("document.getElementById('status').textContent")
        assert "has no web page yet" in status and "propctl sim lamp" in status, status
        links = page.evaluate("[...document.querySelectorAll('nav a')].map(a => [a.id, a.textContent])")
        assert links == [["nav-clock", "Ghost clock"], ["nav-fusebox", "Fuse box"],
                         ["nav-football", "Football box"], ["nav-lamp", "Lamp"]]
        assert not [p for p in page.evaluate(RESOURCES) if p.startswith("/props/")]
        page.close()
        for name in REAL:
            page = browser.open(server + "/?prop=" + name, size=(1000, 800), mobile=False)
            page.wait_for("window.propReady || window.propError", timeout=90)
            assert page.evaluate("window.propError || ''") == ""
            assert page.evaluate("document.querySelector('nav a.current').id") == "nav-" + name
            loaded = {p for p in page.evaluate(RESOURCES) if p.startswith("/props/")}
            assert loaded == {"/props/%s/%s" % (name, file) for file in ("web.js", "web.html", "web.css")}
            assert page.evaluate("document.getElementById('%s') !== null" % name)
            page.wait_for("window.propFrame", timeout=30)
            page.close()
