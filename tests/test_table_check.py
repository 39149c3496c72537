"""Every rules table under ``data/`` is loaded and checked when the app starts (issue 29 item 5):
each file is read by a loader of :data:`larp.table_check.TABLE_LOADERS`, and a malformed file stops
``larp serve`` with the file's name instead of failing a ruling at the table."""

from __future__ import annotations

import shutil
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

READ_AT_START = """
import json
import larp.tables as tables
read = []
original = tables.data_path
def spy(*parts):
    read.append("/".join(parts))
    return original(*parts)
tables.data_path = spy
from larp.table_check import load_all_tables
load_all_tables()
print(json.dumps(read))
"""


def test_every_rules_table_is_read_at_start_up():
    """A fresh process that runs only :func:`load_all_tables` reads every ``*.toml`` under ``data/``
    but the demo chronicle (read when the demo is made): a table added without a loader in the list
    fails here."""
    out = subprocess.run([sys.executable, "-c", READ_AT_START], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout
    read = {p for p in json.loads(out) if p.endswith(".toml")}
    files = {str(p.relative_to(ROOT / "data")) for p in (ROOT / "data").rglob("*.toml")}
    files -= {"demo/chronicle.toml"}
    assert files - read == set(), f"rules tables no loader reads at start-up: {sorted(files - read)}"


def test_a_malformed_table_stops_the_start_with_its_name(tmp_path):
    """``larp serve`` on a copy of the app whose ``data/senses.toml`` (a table no start-up work reads
    otherwise, only a challenge that depends on a sense) lacks a value refuses to start, naming the
    file and the entry, with no traceback."""
    copy = tmp_path / "app"
    (copy / "larp").mkdir(parents=True)
    shutil.copytree(ROOT / "data", copy / "data")
    for name in ("templates", "static"):
        (copy / name).symlink_to(ROOT / name)
    senses = copy / "data" / "senses.toml"
    text = senses.read_text(encoding="utf-8")
    assert "\nbonus = 2" in text
    senses.write_text(text.replace("\nbonus = 2", "\nbonus = \"two\"", 1), encoding="utf-8")
    script = (f"import larp.paths as p, pathlib; p.PACKAGE_DIR = pathlib.Path({str(copy / 'larp')!r}); "
              "from larp.cli import main; main()")
    run = subprocess.run([sys.executable, "-c", script, "--instance", str(tmp_path / "instance"), "serve",
                          "--port", "0"], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert run.returncode != 0
    assert "a rules table is broken: data/senses.toml" in run.stderr
    assert "Traceback" not in run.stderr
