"""`propctl web`: the props in a web browser, the real firmware on MicroPython WebAssembly.

A small local server (127.0.0.1 only; with --lan every interface, and a key in the
address for what changes anything: standard library http.server) hands the
browser four things: the common page (static/: the prop picker, the event log, sound,
loading), each prop's part of the page from its own folder (propctl/props/<name>/web.js,
web.html, web.css, as /props/<name>/...; /props.json lists the props of the registry,
propctl.props, and which of those files each has), the pinned MicroPython WebAssembly
port from tools/wasm/node_modules (so it works offline), and /files.json: every
file of firmware/lib and of the virtual board (host_tools/propctl/vboard), the
event describer (propctl/describe.py) with the parts of each prop the registry says run on
MicroPython too (propctl.props.ON_MICROPYTHON: its describe.py, its words), and
the fuse box's card pack, which the page writes into the port's filesystem before it imports
vboard/web_bridge.py.
Everything else runs in the browser, except the fuse box's memory of played
cards: the page reports them to POST /played (propctl.web.played). With --box the
page referees a real prop on a serial port instead: the prop's web_box part (the registry's
WEB_BOX, propctl/props/<name>/web_box.py) serves /box/view and /box/report.
"""
import argparse
import base64
import http.server
import json
import sys
from pathlib import Path
from typing import Callable

from propctl.argtypes import Whole
from propctl.build import FIRMWARE_DIR, REPO_ROOT
from propctl.launcher import VBOARD_DIR

FIRMWARE_LIB = FIRMWARE_DIR / "lib"

STATIC_DIR = Path(__file__).resolve().parent / "static"
# Only a clone has it (make setup installs it there with npm); an installed propctl says so.
WASM_PACKAGE = (REPO_ROOT / "tools" / "wasm" / "node_modules" / "@micropython"
                / "micropython-webassembly-pyscript")
# Where the page puts the files in the port's filesystem (sys.path order: vboard first,
# so its fake `machine` wins, as on MICROPYPATH for the unix port).
FS_LIB = "/lib"
FS_VBOARD = "/vboard"
FS_HOST = "/host"
FS_PACK = "/pack.bin"
# The folder holding the propctl package: the page runs some of its modules on MicroPython too,
# for the same sentences and words as the terminal (host_modules).
HOST_ROOT = Path(__file__).resolve().parents[2]
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".mjs": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".wasm": "application/wasm", ".json": "application/json", ".png": "image/png"}


def _python_files(root: Path, fs_root: str) -> dict:
    """{path in the port's FS: text} for every .py under root (no caches)."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        if "__pycache__" not in path.parts:
            out[fs_root + "/" + path.relative_to(root).as_posix()] = path.read_text(encoding="utf-8")
    return out


def host_modules() -> list:
    """The propctl modules the page imports under MicroPython (as propctl.describe and
    propctl.props.<name>.<part>): the event describer with its packages, and each prop's
    parts the registry names as run there too (propctl.props.ON_MICROPYTHON)."""
    from propctl import props
    package = HOST_ROOT / "propctl"
    found = [package / "__init__.py", package / "describe.py", package / "props" / "__init__.py"]
    for name in props.names():
        found += [package / "props" / name / (part + ".py") for part in props.ON_MICROPYTHON
                  if (package / "props" / name / (part + ".py")).is_file()]
    return found


def files_manifest(pack_path, pack: bytes = b"") -> dict:
    """What the page writes into the port's FS: {"text": {path: str}, "binary": {path: base64}, ...}.
    The card pack is the file `pack_path`, else the bytes `pack`, else none."""
    text = _python_files(FIRMWARE_LIB, FS_LIB)
    text.update(_python_files(VBOARD_DIR, FS_VBOARD))
    # the event log's sentences (the same describer as `propctl monitor`) and each prop's words
    for module in host_modules():
        text[FS_HOST + "/" + module.relative_to(HOST_ROOT).as_posix()] = module.read_text(encoding="utf-8")
    if pack_path is not None:
        pack = Path(pack_path).read_bytes()
    binary = {FS_PACK: base64.b64encode(pack).decode("ascii")} if pack else {}
    return {"text": text, "binary": binary, "path": [FS_VBOARD, FS_LIB, FS_HOST],
            "pack": FS_PACK if pack else ""}


# A connection that sends no request in this long is closed: each one holds a thread.
IDLE_TIMEOUT_S = 30


def make_handler(manifest: Callable[[], bytes], deal=None, box=None, key=None):
    """A request handler class serving the page, each prop's part of it, the wasm port and the
    manifest (made at each page load); with a `deal` (played.PageDeal), POST /played records the
    page's cards; with a `box` (a prop's web_box part opened on a serial port: serve_get,
    serve_post), /box/view and /box/report referee that prop; with a `key` (--lan), those and
    POST /played answer only requests that carry ?key=KEY."""

    class Handler(http.server.BaseHTTPRequestHandler):
        timeout = IDLE_TIMEOUT_S

        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            path, _, query = self.path.partition("?")
            if path.startswith("/box/") and not self._keyed(query):
                return
            if box is not None and path == "/box/view":
                box.serve_get(self, query)
                return
            if path == "/files.json":
                found = manifest(), "application/json"
            elif path == "/props.json":
                found = json.dumps(props_offered()).encode("utf-8"), "application/json"
            else:
                found = prop_file(path) if path.startswith("/props/") else static_file(path)
            if found is None:
                self.send_error(404)
                return
            self._send(*found)

        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            from propctl.web.played import MAX_BODY, PATH, BadReport
            path, _, query = self.path.partition("?")
            if not self._keyed(query):
                return
            if box is not None and path == "/box/report":
                box.serve_post(self)
                return
            if deal is None or path != PATH:
                self.send_error(404)
                return
            answer_json(self, MAX_BODY, deal.record, BadReport)

        def _keyed(self, query: str) -> bool:
            return key_allowed(self, key, query)

        def _send(self, body: bytes, kind: str) -> None:
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format, *args) -> None:  # noqa: A002 (http.server's signature)
            pass  # quiet: the page has its own event log

    return Handler


def static_file(path: str):
    """(bytes, content type) of the page's file or the wasm port's (/mp/...) at `path`, or None."""
    if path == "/":
        path = "/index.html"
    name = path.rsplit("/", 1)[-1]
    folder = WASM_PACKAGE if path.startswith("/mp/") else STATIC_DIR
    if path.count("/") != (2 if path.startswith("/mp/") else 1) or name.startswith("."):
        return None
    file = folder / name
    if not file.is_file():
        return None
    return file.read_bytes(), TYPES.get(file.suffix, "application/octet-stream")


def props_offered() -> list:
    """The props the page offers, from the registry in the firmware's order: [{"name", "title"
    (e.g. "ghost clock"), "label" (its link: "Ghost clock"), "files": the files of its part of the
    page it has (propctl.props.WEB_FILES; none: the page says it has no page there yet)}]."""
    from propctl import props
    from propctl.reference.texts import prop_words
    out = []
    for name in props.names():
        words = prop_words(name)
        title = words.TITLE if words is not None else name
        title = title[4:] if title.startswith("The ") else title
        out.append({"name": name, "title": title, "label": title[:1].upper() + title[1:],
                    "files": [file for file in props.WEB_FILES if props.web_file(name, file)]})
    return out


def prop_file(path: str):
    """(bytes, content type) of a prop's part of the page, /props/<name>/<file>, or None."""
    from propctl import props
    parts = path.split("/")
    if len(parts) != 4:
        return None
    file = props.web_file(parts[2], parts[3])
    if file is None:
        return None
    return file.read_bytes(), TYPES.get(file.suffix, "application/octet-stream")


def answer_json(handler, max_body: int, call, refused) -> None:
    """A JSON POST: its body (at most `max_body` bytes) given to call(body), the answer sent as
    JSON, or 400 with the words of a `refused` exception (the played log's and the box's reports)."""
    body = json_body(handler, max_body)
    if body is None:
        return
    try:
        answer = call(body)
    except refused as exc:
        handler.send_error(400, str(exc))
        return
    handler._send(json.dumps(answer).encode("utf-8"), "application/json")


def json_body(handler, max_body: int):
    """The body of a POST that changes something, or None (answered 400): JSON only (a form on
    another web site cannot send that without asking first, CORS), 1..max_body bytes."""
    if handler.headers.get_content_type() != "application/json":
        handler.send_error(400, "the report must be application/json")
        return None
    length = handler.headers.get("Content-Length", "")
    if not length.isdigit() or not 0 < int(length) <= max_body:
        handler.send_error(400, "the report needs a Content-Length of 1..%d bytes" % max_body)
        return None
    return handler.rfile.read(int(length))


def key_allowed(handler, key, query: str) -> bool:
    """True when no key is needed (no --lan) or the query carries it; else answered 403."""
    if key is None:
        return True
    import hmac
    from urllib.parse import parse_qs
    given = parse_qs(query).get("key", [""])[0]
    if hmac.compare_digest(given.encode("utf-8"), key.encode("utf-8")):
        return True
    handler.send_error(403, "the address propctl web printed carries a key: open that one")
    return False


class Server(http.server.ThreadingHTTPServer):
    """The standard threading server, minus its traceback when a browser lets go of a download
    (a reload while /files.json comes): that is the browser's right, not an error. Any other
    failure of a request is one line on stderr; the server keeps serving."""

    def handle_error(self, request, client_address) -> None:
        error = sys.exc_info()[1]
        if isinstance(error, (ConnectionError, TimeoutError)):
            return
        print("propctl web: a request from %s:%s failed: %s: %s"
              % (client_address[0], client_address[1], type(error).__name__, error),
              file=sys.stderr, flush=True)


def make_server(port: int = 0, pack_path=None, deal=None, box=None, host: str = "127.0.0.1",
                key=None) -> http.server.ThreadingHTTPServer:
    """The server on 127.0.0.1:port (0: a free port); serve_forever() runs it.

    The fuse box's cards: the pack file `pack_path`, or a `deal` (played.PageDeal) that orders
    them anew at each page load and records the cards the page plays."""
    if deal is None:
        fixed = json.dumps(files_manifest(pack_path)).encode("utf-8")
        return Server((host, port), make_handler(lambda: fixed, key=key))
    files = files_manifest(None)
    # the cards' solution notes, said after a round as the terminal sim does (not in the pack)
    files["notes"] = {card.id: card.note for card in deal.cards if getattr(card, "note", "")}
    return Server((host, port), make_handler(
        lambda: json.dumps(dict(files, **_pack_entry(deal.pack()))).encode("utf-8"), deal, box, key))


def _pack_entry(pack: bytes) -> dict:
    return {"binary": {FS_PACK: base64.b64encode(pack).decode("ascii")}, "pack": FS_PACK}


def run(args) -> int:
    if not (WASM_PACKAGE / "micropython.wasm").is_file():
        print("error: the MicroPython WebAssembly port is not installed (%s).\n"
              "  Run `make setup` with node and npm installed." % WASM_PACKAGE, file=sys.stderr)
        return 1
    from propctl.launcher import SimError
    from propctl.web.played import PageDeal
    try:
        deal = PageDeal(args.lang, getattr(args, "family", False), getattr(args, "fresh", False))
    except (SimError, ValueError, OSError) as exc:
        print("error: %s" % exc, file=sys.stderr)
        return getattr(exc, "code", 1)
    box = boxed = None
    if getattr(args, "box", None) is not None:
        boxed, part = box_part()
        box, problem = part.open_box(args.box) if part is not None else (None, NO_BOX)
        if box is None:
            import textwrap
            print("\n".join(textwrap.wrap("error: %s" % problem, 79, subsequent_indent="  ")),
                  file=sys.stderr)
            return 1
    lan = getattr(args, "lan", False)
    host = "0.0.0.0" if lan else "127.0.0.1"
    key = lan_key() if lan else None
    try:
        server = make_server(args.port, deal=deal, box=box, host=host, key=key)
    except OSError as exc:
        print("error: cannot listen on %s:%d: %s" % (host, args.port, exc), file=sys.stderr)
        if box is not None:
            box.close()
        return 1
    url = "http://%s:%d/" % (lan_address() if lan else "127.0.0.1", server.server_address[1])
    query = "?prop=%s" % boxed if box is not None else ""
    if key is not None:
        query += ("&" if query else "?") + "key=" + key
    if box is not None:
        print("%s on %s: %s%s   (Ctrl-C stops the server)" % (part.REFEREE, box.port, url, query),
              flush=True)
    else:
        print("the props in your browser: %s%s   (Ctrl-C stops the server)" % (url, query), flush=True)
    print(deal.line(), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("stopped", flush=True)
    finally:
        server.server_close()
        if box is not None:
            box.close()
    return 0


NO_BOX = "no prop of this firmware has a page that referees it on a serial port (--box)"


def box_part():
    """(name, web_box part) of the prop `--box` referees (the one prop that has one), or (None, None)."""
    from propctl import props
    having = props.having(props.WEB_BOX)
    return (having[0], props.part(having[0], props.WEB_BOX)) if len(having) == 1 else (None, None)


def lan_key() -> str:
    """The key a --lan address carries: 10 letters and digits (about 50 bits), easy to type."""
    import secrets
    return "".join(secrets.choice("abcdefghijkmnpqrstuvwxyz23456789") for _ in range(10))


def lan_address() -> str:
    """This computer's address on its network (the one a route to the outside would use; a UDP
    socket's connect sends nothing), else 127.0.0.1."""
    import socket
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1 (RFC 5737): never reached
            return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"


def register(subparsers) -> None:
    """Add `propctl web`."""
    from propctl import props
    from propctl.cards import lang as langs
    parser = subparsers.add_parser(
        "web", help="the props in a web browser: the real firmware on MicroPython WebAssembly",
        description="Serve a local page (127.0.0.1 only, unless --lan) where the real firmware of the "
                    "clock, the fuse box and the football box runs on MicroPython WebAssembly in the "
                    "browser, "
                    "on the virtual board. Works offline; needs `make setup` with node and npm.",
        epilog="Examples:\n"
               "  propctl web                      # prints http://127.0.0.1:PORT/ to open\n"
               "  propctl web --port 8000 --lang de\n"
               "  propctl web --family             # the fuse box deals family cards only\n"
               "  propctl web --box auto           # referee the football box (USB or sim serve)\n"
               "  propctl web --box auto --lan     # ...from a phone on the same Wi-Fi\n"
               "Page options, added to the URL: ?prop=%s  &speed=N\n"
               "  &seed=N (the prop's seed: the clock plays `propctl plan --seed N`'s round)\n"
               "  &show_plan=1 (the event log shows the round's planned length)" % "|".join(props.names()),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=Whole(0, 65535), default=0,
                        help="port to listen on, 1..65535 (default, or 0: a free one)")
    langs.add_argument(parser, "the fuse box's shipped task cards")
    parser.add_argument("--family", action="store_true",
                        help="the fuse box deals only the family cards (age 10+)")
    parser.add_argument("--box", metavar="SERIALPORT",
                        help="the page referees the football box on this serial port (a real box, "
                             "or `auto`: also a running `propctl sim serve`): the box's buttons and "
                             "count drive the game, the page asks only what they cannot say")
    parser.add_argument("--lan", action="store_true",
                        help="listen on every network interface, so a phone on the same Wi-Fi "
                             "can open the page; the address printed carries a key, without which "
                             "the server takes no report (anyone with that address can play)")
    parser.add_argument("--fresh", action="store_true",
                        help="forget which cards this household has played (the fuse box deals "
                             "cards not played before first, at the page as at the terminal)")
    parser.set_defaults(func=run)
