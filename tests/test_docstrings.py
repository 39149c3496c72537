"""The quality bar: every public module, class, function, method and route in larp/ has a docstring."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "larp"


def public_definitions(tree: ast.Module):
    """Top-level functions and classes, and the methods of those classes (not nested helpers)."""
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
            yield node
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and not item.name.startswith("_"):
                        yield item


def test_every_public_definition_has_a_docstring():
    missing = []
    for path in sorted(ROOT.rglob("*.py")):
        tree = ast.parse(path.read_text())
        if not ast.get_docstring(tree):
            missing.append(f"{path.relative_to(ROOT.parent)}: module")
        for node in public_definitions(tree):
            if not ast.get_docstring(node):
                missing.append(f"{path.relative_to(ROOT.parent)}:{node.lineno} {node.name}")
    assert missing == []
