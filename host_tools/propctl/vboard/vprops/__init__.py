"""The props on the virtual board (MicroPython side), one folder per prop:

    vprops/<name>/bench.py      the prop's firmware on a fresh virtual board with its parts
                                modelled, for the tests, the bench and the web page
    vprops/<name>/run.py        the script `propctl sim <name>` starts: JSON lines out, keys in
    vprops/<name>/workload.py   what `make bench` runs on the prop (bench/mp_firmware.py's heap
                                round, bench/mp_hotpaths.py's hot path), found by workload(name)

A prop with no folder here is run by generic.py (`propctl sim` with the generic screen); a
prop with no workload.py is skipped by the bench, with a line saying so.
"""


def workload(prop):
    """The prop's bench workload module, found by its name (vprops/PROP/workload.py), or None
    if it has none. ImportError from inside an existing workload is raised, not hidden."""
    name = "vprops." + prop + ".workload"
    try:
        return __import__(name, None, None, ["heap_round"])
    except ImportError as exc:
        missing = str(exc)
        if missing.endswith("'%s'" % name) or missing.endswith("'vprops.%s'" % prop):
            return None
        raise
