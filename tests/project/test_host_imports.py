"""host_tools/propctl has no import cycle: checked on the import graph read from the source.

Every `import` and `from ... import` counts, also those inside functions (an
import hidden in a function is still a cycle, only a later one) and
`importlib.import_module("propctl.x")` with a literal name. Importing
propctl.a.b runs propctl.a's __init__ first, so a module depends on the
packages above what it imports too. vboard/ runs under MicroPython, outside the
propctl package, and is left out.
"""
import ast
from pathlib import Path

PROPCTL = Path(__file__).resolve().parents[2] / "host_tools" / "propctl"


def module_names(root: Path) -> dict:
    """{"propctl.props.clock.sim": path} for every module of the package."""
    names = {}
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root.parent).with_suffix("")
        if "vboard" in rel.parts:
            continue
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def _with_parents(name: str, known) -> set:
    parts = name.split(".")
    return {".".join(parts[:k]) for k in range(1, len(parts) + 1)} & set(known)


def import_graph(root: Path = PROPCTL) -> dict:
    """{module: set of propctl modules it imports (and their parent packages)}."""
    known = module_names(root)
    graph = {}
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges: set = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[:len(package.split(".")) - node.level + 1]
                    base = ".".join(up + ([base] if base else []))
                # `from propctl.sim import clock` imports the module propctl.props.clock.sim
                targets = [base] + ["%s.%s" % (base, alias.name) for alias in node.names]
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                  and node.func.attr == "import_module" and node.args
                  and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                targets = [node.args[0].value]  # importlib.import_module("propctl.x") hides an import
            else:
                continue
            for target in targets:
                edges |= _with_parents(target, known)
        edges.discard(name)
        # A module's own parent packages are already imported when it runs.
        graph[name] = edges - _with_parents(name, known)
    return graph


def find_cycle(graph: dict):
    """One cycle as a list of modules [a, b, ..., a], or None."""
    state: dict = {}  # module -> "open" while on the path, "done" after

    def visit(node, path):
        state[node] = "open"
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt, path)
                if found:
                    return found
        path.pop()
        state[node] = "done"
        return None

    for start in sorted(graph):
        if start not in state:
            found = visit(start, [])
            if found:
                return found
    return None


def test_propctl_has_no_import_cycle():
    graph = import_graph()
    assert "propctl.sim.command" in graph and "propctl.sim.runner" in graph
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


# the sims' shared pieces stand on leaves: the launcher, --set and --config (overrides), the
# firmware's settings, files, keys
RUNNER_LEAVES = {"propctl.inputfile", "propctl.settings", "propctl.keys", "propctl.launcher",
                 "propctl.overrides"}


def test_the_sim_runner_is_a_leaf():
    graph = import_graph()
    assert graph["propctl.inputfile"] == set() and graph["propctl.keys"] == set()
    assert graph["propctl.settings"] == set()
    assert graph["propctl.sim.runner"] <= RUNNER_LEAVES
    assert graph["propctl.invocation"] == set()
    # venue: `sim serve --broker` writes the net section (propctl.venue.netsim, broker URLs);
    # harden: the --heap range, escaped names in messages, what a --flash is (leaves all three)
    # and announces itself where --port auto looks (propctl.serial_link.announce)
    assert graph["propctl.serial_link.serve"] <= {"propctl.launcher", "propctl.serial_link.vserial",
                                            "propctl.serial_link", "propctl.serial_link.announce",
                                            "propctl.invocation", "propctl.venue.netsim",
                                            "propctl.venue", "propctl.venue.broker",
                                            "propctl.argtypes", "propctl.termsafe", "propctl.inputfile"}
    assert graph["propctl.termsafe"] == set()
    assert graph["propctl.argtypes"] <= {"propctl.termsafe"}


def reach(graph: dict, start: str) -> set:
    """Every module `start` imports, directly or through others."""
    seen, todo = set(), [start]
    while todo:
        for nxt in graph.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def test_a_game_master_needs_no_board():
    graph = import_graph()
    # the one way in: `play fingerfootball --port` goes through propctl.play, which imports the
    # referee at the box in that branch only; the game masters themselves never reach the board
    source = (PROPCTL / "play.py").read_text()
    assert "\nfrom propctl.serial_link" not in source
    assert "    from propctl.props.football import box_referee\n" in source
    graph["propctl.play"] -= {"propctl.props.football", "propctl.props.football.box_referee"}
    masters = [name for name in graph if name.startswith("propctl.games") or name == "propctl.play"]
    assert "propctl.games.table" in masters
    wrong = {name: sorted(m for m in reach(graph, name)
                          if m.startswith(("propctl.serial_link", "propctl.deploy")))
             for name in masters}
    assert {name: found for name, found in wrong.items() if found} == {}


def test_a_sim_never_deploys():
    graph = import_graph()
    sims = [name for name in graph if package_of(name) == "sim"]  # each prop's screen too
    assert "propctl.props.clock.sim" in sims
    wrong = {name: sorted(m for m in reach(graph, name) if m == "propctl.deploy") for name in sims}
    assert {name: found for name, found in wrong.items() if found} == {}


def test_the_board_wing_is_a_package_of_its_own():
    graph = import_graph()
    assert graph["propctl.inputfile"] == set() and graph["propctl.keys"] == set()
    assert graph["propctl.settings"] == set()
    assert graph["propctl.sim.runner"] <= RUNNER_LEAVES


def test_the_graph_sees_imports_inside_functions_and_relative_ones(tmp_path):
    pkg = tmp_path / "propctl"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("def f():\n    from propctl.sub import b\n")
    (pkg / "sub" / "b.py").write_text("from .. import a\n")
    graph = import_graph(pkg)
    assert graph["propctl.a"] == {"propctl.sub", "propctl.sub.b"}
    assert "propctl.a" in graph["propctl.sub.b"]
    assert find_cycle(graph) == ["propctl.a", "propctl.sub.b", "propctl.a"]
    (pkg / "sub" / "b.py").write_text("import importlib\nA = importlib.import_module('propctl.a')\n")
    assert find_cycle(import_graph(pkg)) == ["propctl.a", "propctl.sub.b", "propctl.a"]


def test_the_old_circle_would_be_found():
    # sim imported serve lazily, serve imported sim: the shape this test exists to catch.
    graph = {"propctl.sim": {"propctl.serial_link.serve"}, "propctl.serial_link.serve": {"propctl.sim"},
             "propctl.cli": {"propctl.sim"}}
    assert find_cycle(graph) in (["propctl.serial_link.serve", "propctl.sim", "propctl.serial_link.serve"],
                                 ["propctl.sim", "propctl.serial_link.serve", "propctl.sim"])


# --- the layers ------------------------------------------------------------------------------
# Each name is a module or package right under propctl. A module may import its own package
# and anything in a lower layer, never a higher one or another package of its own layer: the
# arrows all run down, so the sim, the serial link and the venue do not import one another's
# insides the other way (sim -> serial_link -> venue -> launcher; web and sim share the fuse
# box's deck helpers through its deck part, not through each other).
LAYERS = (
    ("shared",),  # the firmware's rules, cardpack and link (firmware/lib; pyproject.toml maps them)
    # leaves: each imports nothing of propctl
    ("launcher", "termsafe", "inputfile", "keys", "settings", "invocation", "termtext", "helpformat",
     "build", "progress", "wokwi_parts"),
    ("props", "argtypes", "atomic", "overrides"),       # on leaves only; props: the prop registry
    ("describe", "wokwi"),                               # events as sentences (and each prop's words)
    ("sound", "plan", "cards", "reference"),            # the piezo, a round's plan, decks, the docs
    ("deck", "games"),                                   # the fuse box's deck; the game masters
    ("venue",),                                          # MQTT: virtual props, the view
    ("serial_link",),                                    # USB serial, `sim serve` (may start a venue prop)
    ("deploy", "sim", "web", "play"),                    # what puts the firmware somewhere or runs it;
                                                         # `play` (a game master, or --port at the box)
    ("image",),                                          # `propctl image`: deploy's files as one image
    ("cli",),
)
# A prop's desktop parts (propctl/props/<name>/<part>.py) sit in the layer of the wing each one
# plugs into: its describer and words with describe, its screen with the sim, its deck below the
# sim and the web page; the registry and each prop's package (propctl.props, propctl.props.<name>)
# are "props". A new part kind is placed here.
PART_OF = {"describe": "describe", "reports": "describe", "reference": "reference", "plan": "plan",
           "deck": "deck", "sim": "sim", "screen": "sim", "terminal": "sim", "text": "sim",
           "wokwi": "wokwi_parts", "box_referee": "serial_link", "web_box": "web"}


def package_of(module: str) -> str:
    parts = module.split(".")
    if len(parts) > 3 and parts[1] == "props":
        return PART_OF[parts[3]]
    return parts[1] if len(parts) > 1 else ""


def arrows_up(graph: dict) -> list:
    """"a -> b" for every import from one package to another of its own layer or a higher one."""
    rank = {name: n for n, layer in enumerate(LAYERS) for name in layer}
    return sorted("%s -> %s" % (module, dep) for module, deps in graph.items() for dep in deps
                  if package_of(dep) and package_of(module) and package_of(dep) != package_of(module)
                  and rank[package_of(dep)] >= rank[package_of(module)])


def test_every_arrow_runs_down_the_layers():
    graph = import_graph()
    placed = {name for layer in LAYERS for name in layer}
    unplaced = sorted({package_of(m) for m in graph} - placed - {""})
    assert unplaced == [], "place these in LAYERS: %s" % unplaced
    assert arrows_up(graph) == []
    # the arrows that once ran back up: the launcher is a leaf, and neither the serial link,
    # the venue nor the web page reaches into the sims
    assert graph["propctl.launcher"] == set()
    for wing in ("serial_link", "venue", "web", "deck", "overrides"):
        reached = {m for name in graph if package_of(name) == wing for m in reach(graph, name)}
        assert not {m for m in reached if package_of(m) == "sim"}, wing


def test_the_layer_check_sees_the_old_arrows_back_up():
    graph = {"propctl.serial_link.serve": {"propctl.sim.runner"},
             "propctl.sim.command": {"propctl.serial_link.serve"},
             "propctl.venue.netsim": {"propctl.sim.runner"}, "propctl.web.played": {"propctl.sim.fusebox"},
             "propctl.sim.runner": set(), "propctl.sim.fusebox": set()}
    assert arrows_up(graph) == ["propctl.serial_link.serve -> propctl.sim.runner",
                                "propctl.venue.netsim -> propctl.sim.runner",
                                "propctl.web.played -> propctl.sim.fusebox"]


ROOT = PROPCTL.parents[1]


def test_the_bench_imports_nothing_from_tests():
    """bench/ runs without tests/: no import of a tests module, no tests folder put on a path."""
    # every module of the tests' folders (not the fixture prop, which is firmware) and any package
    ours = [p for p in (ROOT / "tests").rglob("*.py") if "fixtures" not in p.parts]
    tests_modules = {p.stem for p in ours} | {p.parent.name for p in ours if p.name == "__init__.py"}
    assert {"micropython_harness", "conftest", "scenario_rng", "test_web"} <= tests_modules
    found = []
    for path in sorted((ROOT / "bench").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module]
            elif isinstance(node, ast.Constant) and node.value == "tests":
                found.append("%s: the folder tests named (line %d)" % (path.name, node.lineno))
                continue
            else:
                continue
            found += ["%s imports %s" % (path.name, n) for n in names if n.split(".")[0] in tests_modules]
    assert found == []
