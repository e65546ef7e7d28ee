"""Which props the bench can run: each prop's workload lives in its own folder.

A prop's bench workload is host_tools/propctl/vboard/vprops/NAME/workload.py (MicroPython:
heap_round for bench/mp_firmware.py, optionally meter for bench/mp_heap.py, and ROUND, the
round in words). The props are the firmware's registry (props.NAMES, read by
propctl.build); a prop of the registry with no workload file is skipped with a line saying
so, never a crash. bench/mp_firmware.py finds the same module by the same name.
"""
import ast
from pathlib import Path

from common import VBOARD

from propctl.build import PROPS  # the firmware's props.NAMES

VPROPS = VBOARD / "vprops"


def workload_file(prop: str, vprops: Path = VPROPS):
    """The prop's workload module (a Path), or None if its folder has none."""
    path = vprops / prop / "workload.py"
    return path if path.is_file() else None


def split(props=PROPS, vprops: Path = VPROPS):
    """(the props with a workload, the props without one), each in registry order."""
    found = [prop for prop in props if workload_file(prop, vprops) is not None]
    return found, [prop for prop in props if prop not in found]


def skipped_line(prop: str) -> str:
    return "%s: no bench workload (no vprops/%s/workload.py), skipped" % (prop, prop)


def round_words(prop: str, vprops: Path = VPROPS) -> str:
    """The workload's ROUND (its round in words), read from the file, not imported."""
    path = workload_file(prop, vprops)
    if path is not None:
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["ROUND"]:
                return ast.literal_eval(node.value)
    return "runs its workload"
