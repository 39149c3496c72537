"""Since the rules core's refusals are service refusals (issue 29 item 4: ``RulesError`` is a
``larp.services.ServiceError``), an ``except ServiceError`` placed before an ``except`` of ``RulesError`` or
one of its subclasses (``SheetError``, ``NumberError``, ``DiceNeeded``...) in the same ``try`` makes the
latter dead code: the refusal is shown without what that handler adds (every problem by field, the
panel's own field...). This check reads the source and names each such ``try``."""

from __future__ import annotations

import ast
import re
from pathlib import Path

LARP = Path(__file__).resolve().parent.parent / "larp"


def rules_refusals(sources: dict[Path, str]) -> set[str]:
    """``RulesError`` and every class in ``larp`` that derives from it, by name."""
    names = {"RulesError"}
    grew = True
    while grew:
        grew = False
        for text in sources.values():
            for match in re.finditer(r"^class (\w+)\(([^)]*)\)", text, flags=re.M):
                bases = {b.strip().split(".")[-1] for b in match.group(2).split(",")}
                if match.group(1) not in names and bases & names:
                    names.add(match.group(1))
                    grew = True
    return names


def dead_handlers(sources: dict[Path, str]) -> list[str]:
    """Each ``try`` (file:line) whose ``except ServiceError`` comes before an ``except`` of a rules refusal."""
    refusals = rules_refusals(sources)
    found = []
    for path, text in sources.items():
        for node in ast.walk(ast.parse(text)):
            if not isinstance(node, ast.Try):
                continue
            caught = [ast.unparse(h.type) if h.type is not None else "" for h in node.handlers]
            service = [i for i, c in enumerate(caught) if re.search(r"\b(ServiceError|Refusal)\b", c)]
            rules = [i for i, c in enumerate(caught) if any(re.search(rf"\b{r}\b", c) for r in refusals)
                     and not re.search(r"\b(ServiceError|Refusal)\b", c)]
            if service and rules and service[0] < rules[-1]:
                found.append(f"{path.relative_to(LARP.parent)}:{node.lineno}")
    return found


def test_no_except_service_error_hides_a_rules_refusal_handler():
    sources = {p: p.read_text(encoding="utf-8") for p in LARP.rglob("*.py")}
    assert {"RulesError", "SheetError", "NumberError", "DiceNeeded"} <= rules_refusals(sources)
    assert dead_handlers(sources) == []


def test_the_check_finds_a_hidden_handler():
    sample = {LARP / "sample.py": "try:\n    f()\nexcept ServiceError:\n    pass\nexcept SheetError:\n    pass\n",
              LARP / "sheet_checks.py": "class SheetError(RulesError):\n    pass\n"}
    assert dead_handlers(sample) == ["larp/sample.py:1"]
