"""Rooms of a size a reader can hold: every module says what it is for, no function runs past 80 lines."""

from __future__ import annotations

import ast

from .imports import PACKAGES, ROOT, modules

LONGEST = 80


def sources() -> dict[str, ast.Module]:
    found = {
        name: ast.parse(path.read_text(encoding="utf-8"))
        for name, (path, _package) in modules(ROOT, PACKAGES).items()
        if ".migrations" not in name
    }
    assert "pairing.services.rounds" in found and "pairing.engines.blossom" in found
    return found


def test_every_module_opens_with_what_it_is_for():
    missing = [name for name, tree in sources().items() if ast.get_docstring(tree) is None]
    assert missing == []


def test_no_function_is_longer_than_a_reader_can_hold():
    long = [
        f"{name}.{node.name}: {node.end_lineno - node.lineno + 1} lines"
        for name, tree in sources().items()
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno - node.lineno + 1 > LONGEST
    ]
    assert long == []
