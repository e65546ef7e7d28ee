"""Run the tests in tests/both/ under MicroPython (no pytest there).

Usage: MICROPYPATH=firmware/lib:tests/both micropython tests/run_on_micropython.py [DIR]
Every module test_*.py in DIR (default tests/both) is imported and each
function named test_* is called. Prints one line per test and a closing
'MicroPython: N passed, N failed' ('MicroPython wasm32: ...' on the WebAssembly
port); exits 1 on any failure or if nothing ran.
"""
import os
import sys


def run(directory):
    passed = failed = 0
    for filename in sorted(os.listdir(directory)):
        if not (filename.startswith("test_") and filename.endswith(".py")):
            continue
        module_name = filename[:-3]
        try:
            __import__(module_name)
        except Exception as exc:
            print("ERROR", module_name, "import:", repr(exc))
            sys.print_exception(exc)
            failed += 1
            continue
        module = sys.modules[module_name]
        for name in sorted(dir(module)):
            if not name.startswith("test_"):
                continue
            test = getattr(module, name)
            if not callable(test):
                continue
            try:
                test()
            except Exception as exc:
                failed += 1
                print("FAIL", module_name + "." + name)
                sys.print_exception(exc)
            else:
                passed += 1
                print("ok  ", module_name + "." + name)
    return passed, failed


def main():
    directory = sys.argv[1] if len(sys.argv) > 1 else "tests/both"
    passed, failed = run(directory)
    label = "MicroPython wasm32" if sys.platform == "webassembly" else "MicroPython"
    print("%s: %d passed, %d failed" % (label, passed, failed))
    if failed or not passed:
        sys.exit(1)


main()
