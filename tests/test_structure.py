"""The shape of larp/ (issue 29 item 5): no module over 600 lines, no file I/O in the rules core,
no import cycle between larp's modules (imports inside functions counted).

Pure and fast: reads the source with ``ast``, imports nothing of larp, needs no database.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LARP = ROOT / "larp"

#: The guide: "A module that grows past about 600 lines is telling you it holds two things".
#: No exemptions.
MAX_LINES = 600

#: Calls that read or write files. The rules core reads no file: its data tables (data/*.toml) come
#: through the one loader outside larp/rules, larp/tables.py (``load_toml``, cached per process).
FILE_IO_CALLS = {"open", "read_text", "read_bytes", "write_text", "write_bytes", "iterdir", "rglob", "listdir",
                 "scandir"}
#: ``module.load(...)`` reads a file for these modules (``json.load``, ``tomllib.load``).
FILE_LOADERS = {"json", "tomllib", "csv", "pickle", "marshal"}
FILE_IO_MODULES = {"os", "pathlib", "io", "shutil", "tomllib", "importlib.resources", "glob"}

#: Import cycles allowed to stand, each as the sorted tuple of its modules: none (the eight found when
#: this test was written are broken, issue 29 item 5). An entry here is debt to name in the issue's note;
#: never a place for the 600-line rule.
ALLOWED_CYCLES: set[tuple[str, ...]] = set()


def module_name(path: Path) -> str:
    """The dotted module name of a file under the project root (``larp/web/__init__.py`` → ``larp.web``)."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def larp_modules() -> dict[str, Path]:
    """Every module of larp/ by dotted name."""
    return {module_name(p): p for p in sorted(LARP.rglob("*.py"))}


def imported_modules(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The larp modules ``name`` imports anywhere in its source, inside functions too.

    ``from pkg import x`` counts as an import of ``pkg.x`` when that is a module, else of ``pkg``.
    """
    tree = ast.parse(path.read_text(), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in modules:
                    found.add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                candidate = f"{source}.{alias.name}"
                if candidate in modules:
                    found.add(candidate)
                elif source in modules:
                    found.add(source)
    found.discard(name)
    return found


def import_graph() -> dict[str, set[str]]:
    """larp's import graph: module → the larp modules it imports."""
    modules = larp_modules()
    return {name: imported_modules(name, path, modules) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[tuple[str, ...]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[tuple[str, ...]] = []
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
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(tuple(sorted(component)))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def file_io(path: Path) -> list[str]:
    """Where a module reads or writes files: ``line: what``."""
    tree = ast.parse(path.read_text(), filename=str(path))
    hits = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in FILE_IO_CALLS:
                hits.append(f"{node.lineno}: {func.id}()")
            elif isinstance(func, ast.Attribute) and (
                    func.attr in FILE_IO_CALLS
                    or (func.attr == "load" and isinstance(func.value, ast.Name) and func.value.id in FILE_LOADERS)):
                hits.append(f"{node.lineno}: .{func.attr}()")
        elif isinstance(node, ast.Import):
            hits += [f"{node.lineno}: import {a.name}" for a in node.names if a.name in FILE_IO_MODULES]
        elif isinstance(node, ast.ImportFrom) and node.module in FILE_IO_MODULES:
            hits.append(f"{node.lineno}: from {node.module} import ...")
    return sorted(hits)


def test_no_module_over_600_lines():
    """Every module of larp/ is at most 600 lines (the guide; issue 29 item 5, no exemptions)."""
    long = {str(p.relative_to(ROOT)): n for p in LARP.rglob("*.py")
            if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert long == {}, f"split these along the line a newcomer would look for: {long}"


def test_no_file_io_in_the_rules_core():
    """larp/rules/ gets its data passed in: no open(), Path.read_text, os or pathlib (issue 29 item 5)."""
    offenders = {str(p.relative_to(ROOT)): hits for p in (LARP / "rules").rglob("*.py") if (hits := file_io(p))}
    assert offenders == {}


def test_no_import_cycle_between_larp_modules():
    """No cycle in larp's import graph, imports inside functions counted (issue 29 item 5)."""
    found = set(cycles(import_graph()))
    assert found - ALLOWED_CYCLES == set(), f"import cycles: {sorted(found - ALLOWED_CYCLES)}"
    assert ALLOWED_CYCLES - found == set(), "broken cycles still allowed: remove them from ALLOWED_CYCLES"


def test_the_checks_see_what_they_look_for(tmp_path):
    """The checks themselves catch a cycle, an import inside a function and file I/O (so they can fail)."""
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [("a", "b", "c")]
    assert cycles({"a": {"b"}, "b": set()}) == []
    sample = tmp_path / "sample.py"
    sample.write_text("import pathlib\n\ndef f():\n    from larp.y import z\n    import larp.x\n"
                      "    return open('f').read() + pathlib.Path('g').read_text() + str(json.load(h))\n")
    modules = {"larp.x": sample, "larp.y": sample, "larp.y.z": sample}
    assert imported_modules("larp.w", sample, modules) == {"larp.y.z", "larp.x"}
    assert file_io(sample) == ["1: import pathlib", "6: .load()", "6: .read_text()", "6: open()"]
