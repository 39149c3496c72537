"""Project hygiene: the README's commands, packaging, vendored assets, the pure rules core."""

from __future__ import annotations

import hashlib
import base64
import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ci_runs_exactly_the_readme_test_commands():
    """CI runs the README's test command, then its PostgreSQL test command (issue 13), each
    exactly as written there, and fails when pg_virtualenv is missing rather than skipping."""
    ci = (ROOT / ".ci" / "run").read_text()
    readme = (ROOT / "README.md").read_text()
    lines = ci.splitlines()
    sqlite = [line for line in lines if line.startswith("python3 -m venv")]
    postgres = [line for line in lines if "pg_virtualenv" in line and "LARP_TEST_DATABASE_URL=" in line
                and not line.lstrip().startswith("#")]
    assert len(sqlite) == 1 and len(postgres) == 1
    assert lines.index(sqlite[0]) < lines.index(postgres[0])
    for command in (sqlite[0], postgres[0]):
        assert f"\n{command}\n" in readme
    assert "LARP_TEST_DATABASE_URL=" in postgres[0] and "--ignore=tests/e2e" in postgres[0]
    assert "command -v pg_virtualenv" in ci and "exit 1" in ci


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


def test_the_rules_tests_run_without_the_database_stack():
    """Issue 29 item 5: the root conftest and every module of tests/rules import neither Flask nor
    peewee nor larp's database (the web fixtures are in tests/web/conftest.py, tests/support.py)."""
    script = (
        "import importlib.util, json, pathlib, sys\n"
        "root = pathlib.Path(sys.argv[1])\n"
        "for i, path in enumerate([root / 'tests' / 'conftest.py', *sorted((root / 'tests' / 'rules').glob('*.py'))]):\n"
        "    spec = importlib.util.spec_from_file_location(f'checked_{i}', path)\n"
        "    spec.loader.exec_module(importlib.util.module_from_spec(spec))\n"
        "print(json.dumps(sorted(sys.modules)))\n")
    env = {k: v for k, v in os.environ.items() if k != "LARP_TEST_DATABASE_URL"}
    run = subprocess.run([sys.executable, "-c", script, str(ROOT)], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    loaded = json.loads(run.stdout.splitlines()[-1])
    stack = ("flask", "peewee", "playhouse", "werkzeug", "htmx_flask", "larp.db", "larp.models", "larp.app",
             "larp.web", "larp.services", "tests.support")
    assert [m for m in loaded if m in stack or m.startswith(tuple(f"{s}." for s in stack))] == []


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


def test_browser_tests_without_chromium_skip_but_fail_in_ci():
    """Issue 28: without Chromium the browser tests are skipped with a message, which hid in CI that they
    never ran; with ``CI=true`` the run fails instead, saying why."""
    import os
    import subprocess
    import sys

    def run(**env: str) -> subprocess.CompletedProcess:
        environ = {k: v for k, v in os.environ.items() if k != "CI"} | {"CHROMIUM": "/nonexistent/chromium", **env}
        return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly",
                               "tests/e2e/test_walking_skeleton.py"], cwd=ROOT, env=environ,
                              capture_output=True, text=True, timeout=120)

    locally = run()
    assert locally.returncode == 0 and "skipped" in locally.stdout and "failed" not in locally.stdout
    in_ci = run(CI="true")
    assert in_ci.returncode != 0
    assert "CI is set and Chromium was not found at /nonexistent/chromium" in in_ci.stdout + in_ci.stderr
