"""Every refusal of the rules core is a phrase the edge can say in the reader's language (issue 36 item 1):
a ``raise RulesError(...)`` (or one of its kinds, or the experience purchases' ``Refusal``/``PurchaseError``)
in larp/rules/ whose message is a plain English literal, an f-string or English glued with ``+`` fails
here, naming the line. Write it ``Phrase.message(N_("..."), name=...)`` (or ``Phrase.counted`` for a
count) and translate it in both catalogues.

The input readers another branch owns wholesale (issue 29: the parsing modules) are left to it.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Issue 29's input readers (their refusals are that branch's to keep translatable).
NOT_HERE: set[str] = set()
#: larp.rules.explain.RulesError and its kinds, and the experience purchases' readers' error.
REFUSING = {"RulesError", "ExperienceError", "NumberError", "DiceNeeded", "PurchaseError"}


def english_literal(node: ast.AST) -> bool:
    """``node`` writes English text itself: a string literal, an f-string, or text glued with ``+``."""
    if isinstance(node, (ast.JoinedStr,)) or (isinstance(node, ast.Constant) and isinstance(node.value, str)):
        return True
    return isinstance(node, ast.BinOp) and (english_literal(node.left) or english_literal(node.right))


def plain_refusals(source: str) -> list[int]:
    """The lines of ``source`` that refuse with a plain English message."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
            if node.func.id in REFUSING and english_literal(node.args[0]):
                lines.append(node.lineno)
            elif node.func.id == "Refusal" and len(node.args) == 2 and english_literal(node.args[1]):
                lines.append(node.lineno)
    return lines


def test_no_refusal_of_the_rules_core_is_plain_english():
    found = []
    for path in sorted((ROOT / "larp/rules").rglob("*.py")):
        module = path.relative_to(ROOT).as_posix()
        if module not in NOT_HERE:
            found += [f"{module}:{line}" for line in plain_refusals(path.read_text(encoding="utf-8"))]
    assert not found, "refusals in plain English (write them as phrases): " + ", ".join(found)


def test_the_check_finds_each_way_of_writing_english():
    source = '''
raise RulesError("Give a number.", field="n")
raise RulesError(f"{name}: give a number.")
raise NumberError("Give " + "a number.")
refusals.append(Refusal("unknown", f"Name the {label}."))
raise RulesError(Phrase.message(N_("%(name)s: give a number."), name=name), field="n")
raise RulesError(exc.message)
refusals.append(Refusal("unknown", Phrase.message(N_("Name the Merit."))))
'''
    assert plain_refusals(source) == [2, 3, 4, 5]
