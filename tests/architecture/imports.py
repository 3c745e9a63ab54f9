"""Every import of the project's modules, function-level ones included, read from the source (no import run)."""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The project's packages: those import-linter checks (pyproject.toml), so both see the same code.
PACKAGES = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["root_packages"]
# Pure modules (no Django) are units of their own in the picture of the apps (docs/architecture.md), and so
# are the competitions' pages, which stand above the one writer (`pairing.services`) while the rest of
# `tournaments` stands below it.
PURE = ["pairing.engines", "ratings.maths"]
UNITS = [*PURE, "tournaments.views", "tournaments.urls", "tournaments.tasks"]
UNITS += ["teams.views", "teams.exports", "teams.urls"]


def modules(root: Path, packages: Iterable[str]) -> dict[str, tuple[Path, bool]]:
    """Module name -> (file, is a package) for every .py file of `packages` under `root`."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            if is_package:
                parts = parts[:-1]
            found[".".join(parts)] = (path, is_package)
    return found


def import_graph(root: Path, packages: Iterable[str]) -> dict[str, set[str]]:
    """Module -> the project modules it imports anywhere in its source (top level, functions, classes)."""
    known = modules(root, packages)

    def resolve(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, (path, is_package) in known.items():
        package = name if is_package else name.rpartition(".")[0]
        targets: set[str | None] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(resolve(alias.name) for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                for alias in node.names:
                    full = f"{source}.{alias.name}"
                    targets.add(full if full in known else resolve(source))
        graph[name] = {t for t in targets if t and t != name}
    return graph


def unit_of(module: str) -> str:
    """The app a module belongs to; a pure module, and a page module of the competitions and of the team
    leagues (above the writer), count as units of their own."""
    for unit in UNITS:
        if module == unit or module.startswith(unit + "."):
            return unit
    return module.split(".")[0]


def app_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    apps: dict[str, set[str]] = {}
    for module, targets in graph.items():
        edges = apps.setdefault(unit_of(module), set())
        edges.update(unit_of(t) for t in targets if unit_of(t) != unit_of(module))
    return apps


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found
