"""Scenario server that runs *under MicroPython* (the unix port).

Reads one JSON request per line from stdin: {"call": "module:function", "args": [...]}
and writes one JSON reply per line: {"ok": result} or {"error": traceback text}.
The CPython side is tests/micropython_harness.py. Only functions in a
scenario module (`scenario_*`, beside its test) may be called: the harness runs test code, nothing else.
{"put": path, "hex": data} writes a host file into this interpreter's own
filesystem (the wasm32 port's is in memory; see MicroPythonProcess.copies_files).
"""
import io
import json
import sys


def put(path, data):
    import os
    folder = ""
    for part in path.split("/")[1:-1]:
        folder += "/" + part
        try:
            os.mkdir(folder)
        except OSError:
            pass  # there already
    with open(path, "wb") as f:
        f.write(bytes.fromhex(data))


def handle(request):
    if "put" in request:
        return put(request["put"], request["hex"])
    target = request["call"]
    module_name, _, function_name = target.partition(":")
    if not module_name.startswith("scenario_"):
        raise ValueError("only scenario_* modules may be called, not %r" % target)
    __import__(module_name)
    function = getattr(sys.modules[module_name], function_name)
    return function(*request.get("args", []))


def main():
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        try:
            reply = {"ok": handle(json.loads(line))}
        except Exception as exc:  # report every failure back to the test
            buf = io.StringIO()
            sys.print_exception(exc, buf)
            reply = {"error": buf.getvalue()}
        sys.stdout.write(json.dumps(reply))
        sys.stdout.write("\n")
        if hasattr(sys.stdout, "flush"):
            sys.stdout.flush()


main()
