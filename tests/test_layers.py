"""The layers the folder shows: core knows no I/O library and no front door; each store module is the
only importer of its library; the MCP SDK is imported only where a command needs it."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "personakit"
ONLY_IN = {  # library -> the modules allowed to import it
    "git": {"store/history.py"},
    "whoosh": {"store/index.py"},
    "watchdog": {"store/watcher.py"},
    "mcp": {"server.py", "resources.py", "demo.py", "jsonrpc.py"},
    "pydantic": {"server.py"},
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
    for lazy in ("personakit.server", "personakit.demo", "mcp"):
        assert lazy not in top
