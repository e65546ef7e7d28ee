"""firmware/lib imports stay one-way, read from the import graph (every import, also inside functions).

rules and drivers depend on nothing of ours; cardpack on rules at most; a prop is a package
(props.clock, props.fusebox, props.football) and depends on rules, drivers, cardpack, the
configuration (boardprofiles, settings) and its own modules (props.clock.commands is the clock's), never on
another prop; link and runtime reach props only through the contract (the package's NAMES, then
build() by name; props.contract, the stub mypy checks every app against, names its types and is
imported only under TYPE_CHECKING), never a prop module itself. The selftest package (the
wiring self-test link.startup wraps around every app): selftest imports only its
selftest.session, that only the registry (props: the prop's own steps, props.PROP.selftest_steps,
by name); selftest.steps holds the step helpers those use and imports only boardprofiles. A
prop's own folder holds its settings section, pins, self-test steps, discovery entity and
freeze list beside its code; settings, boardprofiles, selftest.session and net.discovery reach
them only by name through the registry, so only the prop that runs is imported. net (venue
mode) uses link's protocol and rules' PRNG and nothing of a prop; only link.startup imports
it, and only when net.broker is set.
"""
import ast
from pathlib import Path

import pytest

LIB = Path(__file__).resolve().parents[2] / "firmware" / "lib"


def module_name(path: Path) -> str:
    parts = path.relative_to(LIB).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, package: str = "") -> set:
    """The modules `path` imports; a relative import is resolved against `package`, the one the
    module is in. One reaching above the top (`..rules` in cardpack: the desktop's name for
    a sibling, propctl.shared.rules) is the sibling package as the board names it."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
        elif isinstance(node, ast.ImportFrom) and node.level:
            parts = package.split(".") if package else []
            base = parts[:max(0, len(parts) - node.level + 1)]
            if node.module:
                found.add(".".join(base + [node.module]))
            else:  # `from . import protocol`: the module link.protocol
                found.update(".".join(base + [alias.name]) for alias in node.names)
    return found


def package_of(path: Path) -> str:
    name = module_name(path)
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def graph() -> dict:
    modules = {module_name(p): p for p in LIB.rglob("*.py")}
    tops = {name.split(".")[0] for name in modules}
    return {name: {dep for dep in imports_of(path, package_of(path)) if dep.split(".")[0] in tops}
            for name, path in modules.items()}


def layer(name: str) -> str:
    return name.split(".")[0]


# The props packages, by name (props.NAMES): each one's modules may import one another.
PROPS = ("clock", "fusebox", "football")
# Each prop's wiring module: pins to drivers, for its build() and for the self-test.
WIRING = {prop: "props.%s.wiring" % prop for prop in PROPS}
# Each prop's self-test steps, in its folder.
STEPS = {prop: "props.%s.selftest_steps" % prop for prop in PROPS}
# The prop contract's types (props/contract.pyi: a stub, nothing of it runs on a board).
CONTRACT = "props.contract"
# The self-test package, in the order it loads: each module imports only the next.
SELFTEST_CHAIN = {"selftest": "selftest.session", "selftest.session": "props"}


def prop_of(name: str) -> str:
    """"clock" for props.clock and props.clock.app; "" for the props package itself."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "props" else ""


def allowed(module: str, dep: str) -> bool:
    """The one-way rules of the module docstring."""
    own, other = layer(module), layer(dep)
    if own in ("rules", "drivers"):
        return other == own
    if own == "cardpack":
        return other in ("cardpack", "rules")
    if own == "props":
        if other == "props":
            # the package (NAMES), the pins every prop's wiring is built on (props.pins), or a
            # module of the same prop: props.clock -> props.clock.commands
            if dep in ("props", "props.pins", CONTRACT):
                return True
            return prop_of(dep) in PROPS and prop_of(dep) == prop_of(module)
        if module in STEPS.values() and dep == "selftest.steps":
            return True  # a prop's self-test steps use the shared step helpers
        return other in ("rules", "drivers", "cardpack", "boardprofiles", "settings")
    if own in ("link", "runtime"):
        if other == "props":
            return dep in ("props", CONTRACT)  # the contract: NAMES, then build() by name
        return (other in ("link", "runtime", "safemode", "store", "boardprofiles", "version", "net")
                or dep == "selftest")
    if own == "net":
        return other in ("net", "link", "rules")
    if own == "boardprofiles":
        return dep == "props"  # the registry; each prop's pins by name (props.PROP.pinout)
    if own in ("store", "version"):
        return False
    if own == "settings":
        return dep in ("boardprofiles", "props")
    if own == "safemode":
        return dep == "store"
    if module in SELFTEST_CHAIN:
        return dep in (SELFTEST_CHAIN[module], CONTRACT)
    if module == "selftest.steps":
        # the step helpers: where a pin is on the board's header
        return dep == "boardprofiles"
    raise AssertionError("no rule for %s: add one to this test" % module)


def test_the_props_are_packages_and_the_test_knows_them_all():
    # props.NAMES is the firmware's own list; every prop is a package of that name
    props_dir = LIB / "props"
    names = ast.literal_eval(next(node.value for node in ast.parse(
        (props_dir / "__init__.py").read_text(encoding="utf-8")).body
        if isinstance(node, ast.Assign) and [t.id for t in node.targets] == ["NAMES"]))
    assert tuple(names) == PROPS
    assert sorted(p.name for p in props_dir.iterdir() if p.suffix == ".py") == ["__init__.py", "pins.py"]
    for name in PROPS:
        assert (props_dir / name / "__init__.py").is_file(), name
    assert set(SELFTEST_CHAIN) | {"selftest.steps"} == {n for n in graph() if layer(n) == "selftest"}


def test_a_prop_and_its_self_test_are_wired_by_one_module():
    """build() and the self-test's steps take the drivers from the same wiring module."""
    edges = graph()
    for prop, wiring in WIRING.items():
        assert wiring in edges["props." + prop], prop
        assert wiring in edges[STEPS[prop]], prop


def test_nothing_outside_a_prop_imports_a_prop_module_by_its_name():
    """settings, boardprofiles, selftest and net find a prop's parts only by name through the
    registry: no module outside props/PROP/ imports one of them (a fourth prop needs no line
    in any of them)."""
    wrong = sorted("%s imports %s" % (module, dep) for module, deps in graph().items()
                   for dep in deps if prop_of(dep) in PROPS and prop_of(dep) != prop_of(module))
    assert wrong == []


def test_every_firmware_import_goes_one_way():
    wrong = sorted("%s imports %s" % (module, dep) for module, deps in graph().items()
                   for dep in deps if not allowed(module, dep))
    assert wrong == []


def test_the_firmware_has_no_import_cycle():
    edges = graph()
    done, path = set(), []

    def visit(node):
        if node in path:
            pytest.fail("import cycle: %s" % " -> ".join(path[path.index(node):] + [node]))
        if node in done or node not in edges:
            return
        path.append(node)
        for dep in sorted(edges[node]):
            visit(dep)
        path.pop()
        done.add(node)

    for node in sorted(edges):
        visit(node)


@pytest.mark.parametrize("module, dep, ok", [
    ("rules.geisteruhr", "drivers.motor", False),   # the core stays pure
    ("drivers.motor", "props.clock", False),
    ("props.football", "props.clock", False),       # one prop never leans on another
    ("props.clock", "props.clock.commands", True),
    ("props.clock.app", "props.clock.commands", True),
    ("props.fusebox.app", "props.clock.commands", False),
    ("props.clockwork", "props.clock.commands", False),  # a name that merely starts like the prop
    ("selftest", "selftest.steps", False),           # the chain, one link at a time
    ("selftest.session", "props", True),
    ("selftest.session", "selftest.steps", False),
    ("selftest.steps", "props.clock", False),
    ("selftest.steps", "props.clock.wiring", False),  # a prop's steps are in its own folder
    ("props.clock.selftest_steps", "props.clock.wiring", True),
    ("props.clock.selftest_steps", "selftest.steps", True),
    ("props.clock.selftest_steps", "props.fusebox.wiring", False),
    ("props.clock.app", "selftest.steps", False),
    ("boardprofiles", "props", True),
    ("boardprofiles", "props.clock.pinout", False),   # by name only
    ("props.clock.wiring", "props.pins", True),
    ("link.startup", "props.clock", False),           # only through the contract
    ("link.startup", "props", True),
    ("runtime", "props.fusebox", False),
])
def test_the_rules_themselves_catch_what_they_are_for(module, dep, ok):
    assert allowed(module, dep) is ok


def test_relative_imports_are_edges_of_the_graph_too():
    edges = graph()
    assert {"rules.rng", "rules.fingerfootball_field"} <= edges["rules.fingerfootball"]
    assert {"link.protocol", "link.framing", "link.schema"} <= edges["link.router"]
    assert "rules.pimaldaumen" in edges["cardpack.question"]
    assert "cardpack.pack" in edges["cardpack"]
