"""Benchmark: a Grapevine import of a real chronicle's size, 1,000 characters (issue 19 item 3).

Run it (it prints figures; it is not a test and asserts nothing):

    .venv/bin/python tests/benchmarks/bench_import.py [--characters 1000] [--database URL]

The file is made from the three NPC-library files in ../shared/real-data/grapevine/ (216
vampires), repeated under new names until it holds the count asked for. Printed: the file's
size, then the time of each stage through the services (parse and preview, the one
transaction that creates every character, the total), and how long that transaction held the
database's write lock, which is how long a narrator's ruling may wait during an import; then the
Grapevine export of every character (issue 20: reads only, no lock) and the size of its file.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from larp.db import db  # noqa: E402

GRAPEVINE = ROOT.parent / "shared" / "real-data" / "grapevine"
NPC_FILES = ("vampires_camarilla.gex", "vampires_sabbat.gex", "vampires_other.gex")


def chronicle_file(count: int) -> bytes:
    """A Grapevine exchange file of ``count`` vampires, from the NPC library's records."""
    records = []
    for name in NPC_FILES:
        text = (GRAPEVINE / name).read_bytes().decode("cp1252")
        records += re.findall(r"<vampire\b.*?</vampire>", text, re.S)
    out = []
    for i in range(count):
        record = records[i % len(records)]
        out.append(re.sub(r'name="([^"]*)"', lambda m: f'name="{m.group(1)} {i // len(records) + 1}"', record, count=1))
    return ('<?xml version="1.0"?>\n<grapevine version="3">\n' + "\n".join(out) + "\n</grapevine>\n").encode("cp1252")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--characters", type=int, default=1000)
    parser.add_argument("--database", default=None, help="a PostgreSQL URL (emptied); default: a new SQLite file")
    args = parser.parse_args()
    from tests.support import empty_postgres, make_test_app

    if args.database:
        empty_postgres(args.database)
    overrides = {"DATABASE_URL": args.database} if args.database else {}
    app = make_test_app(Path(tempfile.mkdtemp(prefix="larp-bench-import-")), **overrides)
    data = chronicle_file(args.characters)
    print(f"file: {args.characters} characters, {len(data) / 1048576:.1f} MB")
    from larp.services.chronicles import get_chronicle
    from larp.services.imports import apply_import, preview_file

    with app.app_context(), db.connection_context():
        chronicle = get_chronicle()
        start, cpu_start = time.perf_counter(), time.process_time()
        preview = preview_file(chronicle, "chronicle.gex", data)
        parsed, cpu_parsed = time.perf_counter(), time.process_time()
        record = apply_import(chronicle, None, preview)
        applied, cpu_applied = time.perf_counter(), time.process_time()
        again = preview_file(chronicle, "chronicle.gex", data)
        updating, cpu_updating = time.perf_counter(), time.process_time()
        apply_import(chronicle, None, again)
        updated, cpu_updated = time.perf_counter(), time.process_time()
        from larp.services.grapevine_export import export_grapevine

        exported = export_grapevine(chronicle)
        written, cpu_written = time.perf_counter(), time.process_time()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (wall time grows with it, CPU time less)")
    print(f"parse and preview      {parsed - start:6.2f} s wall {cpu_parsed - cpu_start:6.2f} s CPU "
          f"({preview.count('create')} to create)")
    print(f"import transaction     {applied - parsed:6.2f} s wall {cpu_applied - cpu_parsed:6.2f} s CPU "
          "(the write lock is held this long)")
    print(f"total                  {applied - start:6.2f} s wall {cpu_applied - cpu_start:6.2f} s CPU   {record.summary}")
    print(f"the same file again: its transaction updating all {again.count('update')}: "
          f"{updated - updating:.2f} s wall {cpu_updated - cpu_updating:.2f} s CPU")
    print(f"Grapevine export of the whole chronicle: {written - updated:.2f} s wall {cpu_written - cpu_updated:.2f} s CPU, "
          f"{len(exported) / 1048576:.1f} MB")


if __name__ == "__main__":
    main()
