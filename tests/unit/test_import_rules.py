"""The rooms of the house and what each may touch: entry points (HTTP, CLI, MCP), the agent and
the integrations reach the engine through one door, the facade (``hipocampo.client``), and may
also use the domain's values and rules, the settings and the public plugin registry. Never a
service, a port, an adapter or the composition root: what they need becomes a method of
``AsyncMemory``.

Read from the source's imports (every ``import``, at module level, inside functions and under
``TYPE_CHECKING``), so nothing is imported to check it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import hipocampo

PACKAGE = Path(hipocampo.__file__).parent
OUTER = ("entrypoints", "agent", "integrations")
ALLOWED = (
    "hipocampo.client",
    "hipocampo.client_sync",  # the generated synchronous twin of the facade
    "hipocampo.domain",
    "hipocampo.settings",
    "hipocampo.plugins",  # the public registry of providers and backends (docs/plugins.md)
    "hipocampo.entrypoints",
    "hipocampo.agent",
    "hipocampo.integrations",
)
KNOWN = {
    # The move command still opens raw stores and runs the move services itself (the store checks
    # already ask the backend); moving it behind a facade call is the next step.
    "entrypoints/cli/move.py": {
        "hipocampo.ports",
        "hipocampo.services.move",
        "hipocampo.services.move_verify",
        "hipocampo.backends",
        "hipocampo.adapters.clock",
    },
}
"""Imports across the rule that are known and listed, so the list can only shrink."""


def _module_of(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, relative imports resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = _module_of(path) if path.name == "__init__.py" else _module_of(path).rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.add(module)
            if node.module is None:  # from . import x: x is a module, or a name the package defines
                found |= {f"{module}.{a.name}" for a in node.names if _is_module(f"{module}.{a.name}")}
    return {m for m in found if m == "hipocampo" or m.startswith("hipocampo.")}


def _is_module(name: str) -> bool:
    path = PACKAGE.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def _outer_files() -> list[Path]:
    return sorted(p for room in OUTER for p in (PACKAGE / room).rglob("*.py"))


def _allowed(module: str) -> bool:
    return module == "hipocampo" or any(module == a or module.startswith(a + ".") for a in ALLOWED)


def test_entry_points_the_agent_and_integrations_import_only_the_facade_domain_and_settings() -> None:
    broken: dict[str, set[str]] = {}
    for path in _outer_files():
        rel = path.relative_to(PACKAGE).as_posix()
        bad = {m for m in _imports(path) if not _allowed(m)}
        if bad != KNOWN.get(rel, set()):
            broken[rel] = bad
    assert not broken, f"imports past the facade (add a method to AsyncMemory instead): {broken}"


def test_they_never_reach_for_the_memorys_ports() -> None:
    """The memory's ports are private (``hipocampo.testing.deps_of`` reaches them for tests): the
    outer rooms call methods."""
    reached = [
        f"{path.relative_to(PACKAGE).as_posix()}:{node.lineno}"
        for path in _outer_files()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute) and node.attr in ("deps", "_deps")
    ]
    assert not reached, f"ports reached past the facade: {reached}"


def test_the_rule_reads_relative_imports() -> None:
    """The checker itself: a relative import from a subpackage resolves to the module it names."""
    path = PACKAGE / "entrypoints" / "http" / "routes" / "tools.py"
    assert "hipocampo.client" in _imports(path)
    assert "hipocampo.agent.tools" in _imports(path)


def test_the_facade_has_no_public_ports() -> None:
    """``deps`` was a public property of the memory; it is gone, so nothing outside the core and
    the tests can come to depend on the wiring."""
    from hipocampo import AsyncMemory, Memory

    assert not hasattr(AsyncMemory, "deps") and not hasattr(Memory, "deps")
