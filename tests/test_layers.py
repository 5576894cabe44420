"""The layers the folder shows: core knows no I/O library and no front door; each store module is the
only importer of its library; the MCP SDK is imported only where a command needs it; each package imports
only the packages below it, and no module imports one that imports it back (not even for type checking).

The order, bottom up: core < store < vault < sync, owner (side by side, neither imports the other) <
mcp < cli (the CLI starts the MCP door for `serve` and `demo`). `errors` and the package's own
`__init__` sit beside everything."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "personakit"
ONLY_IN = {  # library -> the modules allowed to import it
    "git": {"store/history.py"},
    "whoosh": {"store/index.py", "store/segments.py", "store/postings/lookup.py"},
    "watchdog": {"store/watcher.py"},
    "mcp": {"mcp/server.py", "mcp/resources.py", "mcp/demo.py", "mcp/jsonrpc.py"},
    "pydantic": {"mcp/server.py"},
}


def imports(path: Path, top_level_only: bool = False) -> set[str]:
    tree = ast.parse(path.read_text())
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
    return found


def modules() -> dict[str, Path]:
    return {p.relative_to(PACKAGE).as_posix(): p for p in PACKAGE.rglob("*.py")}


def test_each_library_is_imported_only_by_its_adapter() -> None:
    for name, path in modules().items():
        for module in imports(path):
            allowed = ONLY_IN.get(module.split(".")[0])
            assert allowed is None or name in allowed, f"personakit/{name} imports {module}"


def test_core_imports_no_front_door_store_or_service() -> None:
    for name, path in modules().items():
        if name.startswith("core/"):
            for module in imports(path):
                assert not module.startswith("personakit.") or module.startswith("personakit.core."), (
                    f"personakit/{name} imports {module}"
                )


def test_the_cli_imports_the_mcp_sdk_only_for_the_commands_that_need_it() -> None:
    top = set().union(*(imports(p, top_level_only=True) for p in (PACKAGE / "cli").glob("*.py")))
    for lazy in ("personakit.mcp.server", "personakit.mcp.demo", "mcp"):
        assert lazy not in top


RANK = {"core": 0, "store": 1, "vault": 2, "sync": 3, "owner": 3, "mcp": 4, "cli": 5}
BESIDE = {"personakit", "personakit.errors", "personakit.__main__"}


def package_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in RANK else None


def dotted(name: str) -> str:
    return "personakit." + name.removesuffix(".py").replace("/", ".").removesuffix(".__init__")


def test_the_top_holds_only_packages_and_the_entry_points() -> None:
    loose = {p.name for p in PACKAGE.glob("*.py")} - {"__init__.py", "__main__.py", "errors.py"}
    assert not loose
    assert {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()} == set(RANK)


def test_each_package_imports_only_the_packages_below_it() -> None:
    for name, path in modules().items():
        mine = package_of(dotted(name))
        if mine is None:
            continue
        for module in imports(path):
            theirs = package_of(module)
            if module.startswith("personakit") and theirs is None:
                assert module in BESIDE, f"personakit/{name} imports {module}"
            elif theirs is not None and theirs != mine:
                assert RANK[theirs] < RANK[mine], f"personakit/{name} ({mine}) imports {module} ({theirs})"


def import_graph() -> dict[str, set[str]]:
    known = {dotted(name) for name in modules()}
    graph: dict[str, set[str]] = {}
    for name, path in modules().items():
        found = set()
        for module in imports(path):  # every import, those under TYPE_CHECKING and inside functions too
            while module and module not in known:
                module = module.rpartition(".")[0]
            if module and module != dotted(name) and module != "personakit":
                found.add(module)
        graph[dotted(name)] = found
    return graph


def circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle, as the modules on it, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_no_module_imports_one_that_imports_it_back() -> None:
    assert circle(import_graph()) is None, " -> ".join(circle(import_graph()) or [])


@pytest.mark.parametrize(
    ("graph", "expected"),
    [
        ({"a": {"b"}, "b": {"c"}, "c": set()}, None),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}}, ["a", "b", "c", "a"]),
        ({"a": {"a2"}, "a2": set(), "x": {"y"}, "y": {"x"}}, ["x", "y", "x"]),
    ],
)
def test_the_circle_finder_finds_circles(graph: dict[str, set[str]], expected: list[str] | None) -> None:
    assert circle(graph) == expected


def test_no_package_has_more_than_fifteen_modules() -> None:
    for folder in [PACKAGE, *(p for p in PACKAGE.rglob("*") if (p / "__init__.py").exists())]:
        count = len([p for p in folder.glob("*.py") if p.name != "__init__.py"])
        assert count <= 15, f"{folder.relative_to(PACKAGE.parent)} has {count} modules"
