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

PROPCTL = Path(__file__).resolve().parent.parent / "host_tools" / "propctl"


def module_names(root: Path) -> dict:
    """{"propctl.sim.clock": path} for every module of the package."""
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
                # `from propctl.sim import clock` imports the module propctl.sim.clock
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


def test_the_sim_runner_is_a_leaf():
    graph = import_graph()
    assert graph["propctl.inputfile"] == set() and graph["propctl.keys"] == set()
    assert graph["propctl.settings"] == set()
    assert graph["propctl.sim.runner"] <= {"propctl.inputfile", "propctl.settings", "propctl.keys"}  # leaves
    assert graph["propctl.invocation"] == set()
    # venue: `sim serve --broker` writes the net section (propctl.venue.netsim, broker URLs);
    # harden: the --heap range, escaped names in messages, what a --flash is (leaves all three)
    # and announces itself where --port auto looks (propctl.board.announce)
    assert graph["propctl.board.serve"] <= {"propctl.sim", "propctl.sim.runner", "propctl.board.vserial",
                                            "propctl.board", "propctl.board.announce",
                                            "propctl.invocation", "propctl.venue.netsim",
                                            "propctl.venue", "propctl.venue.broker",
                                            "propctl.argtypes", "propctl.display", "propctl.inputfile"}
    assert graph["propctl.display"] == set()
    assert graph["propctl.argtypes"] <= {"propctl.display"}


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
    # the one way in: `play fingerfootball --port` imports the referee at the box, in run() only
    source = (PROPCTL / "games" / "fingerfootball.py").read_text()
    assert "\nfrom propctl.board" not in source and "        from propctl.board import referee\n" in source
    graph["propctl.games.fingerfootball"] -= {"propctl.board", "propctl.board.referee"}
    masters = [name for name in graph if name.startswith("propctl.games") or name == "propctl.play"]
    assert "propctl.games.table" in masters
    wrong = {name: sorted(m for m in reach(graph, name) if m.startswith(("propctl.board", "propctl.deploy")))
             for name in masters}
    assert {name: found for name, found in wrong.items() if found} == {}


def test_a_sim_never_deploys():
    graph = import_graph()
    sims = [name for name in graph if name.startswith("propctl.sim")]
    assert "propctl.sim.clock" in sims
    wrong = {name: sorted(m for m in reach(graph, name) if m == "propctl.deploy") for name in sims}
    assert {name: found for name, found in wrong.items() if found} == {}


def test_the_board_wing_is_a_package_of_its_own():
    graph = import_graph()
    assert graph["propctl.inputfile"] == set() and graph["propctl.keys"] == set()
    assert graph["propctl.settings"] == set()
    assert graph["propctl.sim.runner"] <= {"propctl.inputfile", "propctl.settings", "propctl.keys"}  # leaves


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
    graph = {"propctl.sim": {"propctl.board.serve"}, "propctl.board.serve": {"propctl.sim"},
             "propctl.cli": {"propctl.sim"}}
    assert find_cycle(graph) in (["propctl.board.serve", "propctl.sim", "propctl.board.serve"],
                                 ["propctl.sim", "propctl.board.serve", "propctl.sim"])
