"""Measure what a Grapevine file keeps through larp (issue 27): every XML file of
``../shared/real-data/grapevine/`` (or the files named) goes through ``larp import-grapevine``,
``larp export``, ``larp import`` on a fresh install and ``larp export-grapevine``, and the file
that comes back is compared with the original, thing by thing (``tests/grapevine_trip.py``).

Run it (it prints figures; it is not a test and asserts nothing):

    .venv/bin/python tests/benchmarks/grapevine_round_trip.py [FILE ...] [--details]

Printed per file: the records imported (vampires, ghouls and mortals; other creatures are skipped
by design), then how many attributes, experience entries, list entries, lists in their order,
texts (biography, notes, boons) and characters of text came back the same, and whether the two
chronicle exports were equal. ``--details`` lists every difference.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

GRAPEVINE = ROOT.parent / "shared" / "real-data" / "grapevine"


def xml_files() -> list[Path]:
    """The Grapevine XML files of the shared real data (the binary one is not XML)."""
    return sorted(p for p in GRAPEVINE.glob("*.gex") if not p.read_bytes().startswith(b"\x04\x00"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--details", action="store_true", help="list every difference")
    args = parser.parse_args()
    from tests.grapevine_trip import TripFailed, compare, round_trip

    print(f"{'file':32} {'records':>9} {'skipped':>8} {'attributes':>11} {'experience':>10} {'entries':>11} "
          f"{'in order':>9} {'texts':>7} {'characters':>15} exports")
    for path in args.files or xml_files():
        try:
            trip = round_trip(Path(tempfile.mkdtemp(prefix="larp-trip-")), path.name, path.read_bytes())
        except TripFailed as failed:
            print(f"{path.name:32} FAILED at {failed.step}: {failed.output}")
            continue
        result = compare(trip.original, trip.returned)

        def cell(tally, width):
            return f"{tally.same}/{tally.total}".rjust(width)

        skipped = sum(result.skipped.values())
        print(f"{path.name:32} {cell(result.records, 9)} {skipped:>8} {cell(result.attributes, 11)} "
              f"{cell(result.experience, 10)} {cell(result.entries, 11)} {cell(result.order, 9)} "
              f"{cell(result.texts, 7)} {cell(result.characters, 15)} "
              f"{'equal' if trip.first_export == trip.second_export else 'DIFFER'}")
        if args.details:
            for line in result.differences():
                print(f"    {line}")


if __name__ == "__main__":
    main()
