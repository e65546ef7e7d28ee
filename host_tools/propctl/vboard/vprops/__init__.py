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
    if there is no such file (so a name that is not a prop folder, as "generic", imports
    nothing). An ImportError from inside an existing workload is raised, not hidden."""
    import os
    if "/" in prop or "." in prop:  # a path, not a folder's name
        return None
    try:
        os.stat(__path__ + "/" + prop + "/workload.py")  # noqa: F821  (this package's folder)
    except OSError:
        return None
    return __import__("vprops." + prop + ".workload", None, None, ["heap_round"])
