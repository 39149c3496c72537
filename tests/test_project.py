"""Project hygiene: the README's commands, packaging, vendored assets, the pure rules core."""

from __future__ import annotations

import hashlib
import base64
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ci_runs_exactly_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text()
    command = [line for line in ci.splitlines() if line.startswith("python3 -m venv")]
    assert len(command) == 1
    assert f"\n{command[0]}\n" in (ROOT / "README.md").read_text()


def test_vendored_htmx_is_the_pinned_release():
    """stack-notes 1.3: htmx 2.0.11, sha384 as published."""
    data = (ROOT / "static" / "vendor" / "htmx-2.0.11.min.js").read_bytes()
    assert b'version:"2.0.11"' in data
    digest = base64.b64encode(hashlib.sha384(data).digest()).decode()
    assert digest == "2OatzQy1H+Zd/IIrjr1TcuDGqLXeHhbooAyJY1KdQMKnr4LZ22k31GBLdYKHmVjg"


def test_no_asset_comes_from_the_internet():
    pattern = re.compile(r"""(src|href)\s*=\s*["']https?://""")
    offenders = [
        str(p.relative_to(ROOT))
        for folder in ("templates", "static")
        for p in (ROOT / folder).rglob("*")
        if p.suffix in (".html", ".css", ".js") and "vendor" not in p.parts and pattern.search(p.read_text())
    ]
    assert offenders == []


def test_rules_core_imports_neither_flask_nor_peewee():
    pattern = re.compile(r"^\s*(from|import)\s+(flask|peewee|playhouse|werkzeug|htmx_flask)\b", re.M)
    offenders = [str(p) for p in (ROOT / "larp" / "rules").rglob("*.py") if pattern.search(p.read_text())]
    assert offenders == []


def test_templates_have_no_inline_script_or_style():
    """The Content-Security-Policy forbids inline scripts and styles."""
    offenders = []
    for path in (ROOT / "templates").rglob("*.html"):
        text = path.read_text()
        if re.search(r"<script(?![^>]*\bsrc=)", text) or re.search(r"\sstyle\s*=", text) or re.search(r"\son[a-z]+\s*=", text):
            offenders.append(path.name)
    assert offenders == []


def test_wheel_carries_templates_static_and_data():
    """A plain `pip install .` must carry the templates, static files and data."""
    text = (ROOT / "pyproject.toml").read_text()
    for folder in ("templates", "static", "data"):
        assert f'"{folder}" = "larp/{folder}"' in text
