"""Bad input against the board's link, on both interpreters.

Lines travel as hex strings (JSON cannot carry raw bytes). A stand-in prop
with every schema type gives the router something to check against.
"""
import gc
import json

from link.router import Link


class _Prop:
    def __init__(self, on_event):
        self.on_event = on_event
        self.moves = 0

    def move(self, steps, label=None, fast=False, path=None):
        if steps < 0:
            raise ValueError("the hand cannot move backwards here")
        self.moves += 1
        self.on_event("moved", {"steps": steps})
        return {"moves": self.moves}

    def commands(self):
        return {"move": (self.move, {"steps": "int", "label": "str?", "fast": "bool?", "path": "ints?"})}


def _make():
    sent = []
    link = Link(sent.append, {"firmware": "fuzz", "prop": "fuzz", "board": "vboard"})
    link.add_commands(_Prop(link.event).commands())
    return link, sent


def _unhex(text):
    return bytes(int(text[i:i + 2], 16) for i in range(0, len(text), 2))


def replies(hex_lines):
    """Feed each line (newline added); return every line the board sent, parsed."""
    link, sent = _make()
    for text in hex_lines:
        link.feed(_unhex(text) + b"\n")
    return [json.loads(data.decode()) for data in sent]


_SESSION = {}


def heap_start():
    """Begin a long fuzz session; remember the heap in use (MicroPython) after a collection."""
    link, sent = _make()
    _SESSION["link"] = link
    _SESSION["sent"] = sent
    _SESSION["lines"] = 0
    _SESSION["replies"] = 0
    _SESSION["errors"] = 0
    _SESSION["silent"] = 0
    link.feed(b'{"cmd": "ping"}\n')  # warm up: first-use allocations are not a leak
    sent.clear()
    gc.collect()
    _SESSION["heap"] = gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0
    return True


def heap_feed(hex_lines):
    """Feed more lines to the session; keep only counts, as a board keeps nothing."""
    link = _SESSION["link"]
    sent = _SESSION["sent"]
    for text in hex_lines:
        line = _unhex(text)
        link.feed(line + b"\n")
        _SESSION["lines"] += 1
        if line.replace(b"\r", b"") and not sent:
            _SESSION["silent"] += 1  # a line with content that got no reply
        for data in sent:
            message = json.loads(data.decode())
            _SESSION["replies"] += 1
            if "err" in message:
                _SESSION["errors"] += 1
        sent.clear()
    return _SESSION["lines"]


def heap_end():
    """Close the session: counts, heap growth in bytes, and whether the board still answers."""
    link = _SESSION["link"]
    sent = _SESSION["sent"]
    link.feed(b'{"id": 77, "cmd": "move", "args": {"steps": 3}}\n')
    answer = json.loads(sent[-1].decode())
    sent.clear()
    gc.collect()
    growth = (gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0) - _SESSION["heap"]
    return {"lines": _SESSION["lines"], "replies": _SESSION["replies"], "errors": _SESSION["errors"],
            "silent": _SESSION["silent"], "growth": growth, "answer": answer}
