"""Benchmark: one chronicle against fifty on one server (issue 22). Goal: both stay flat.

Run it (it prints figures; it is not a test and asserts nothing):

    .venv/bin/python tests/benchmarks/bench_chronicles.py [--requests 30] [--database-url URL]

``--database-url`` (or ``LARP_TEST_DATABASE_URL``) runs it on that PostgreSQL database, which it
empties first (with a pool of 4 connections, as ``larp serve`` has); without either it runs on SQLite
files in a temporary folder.

The narrator is a member of the first chronicle only. Each chronicle holds 200 characters with
their Traits, a game session open and a recorded ruling on each, made by bulk inserts (not through
the web). Printed for 1 chronicle (200 characters) and for 50 (10,000 characters), side by side with the ratio:

(a) the SQL statements of one stored ruling, the whole request counted (the user's session, the
    chronicle, its settings...; BEGIN, COMMIT, savepoints and PRAGMA not counted), by wrapping
    the database's ``execute_sql``: a one-on-one challenge (``POST /api/v1/challenges``, a Trait
    lost and a blow landing) and damage by hand (``POST /api/v1/characters/<id>/damage``);
(b) the time of the character list (``GET /characters``, all 200 of the chronicle's characters)
    through the test client, median and 95th percentile;
(c) the card-code box (``GET /code?code=...``, the redirect to the character), the same way.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from larp import create_app  # noqa: E402
from larp.db import db, sqlite_url  # noqa: E402

PER_CHRONICLE = 200
PASSWORD = "benchmark-password"
#: Not counted: transaction control and connection set-up, as in bench_rulings.py.
UNCOUNTED = ("PRAGMA", "BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE", "SET ")


def make_app(url: str | None):
    folder = Path(tempfile.mkdtemp(prefix="larp-bench-chronicles-"))
    if url:
        from tests.support import empty_postgres

        empty_postgres(url)
        db.close()
    return create_app({
        "TESTING": False, "SECRET_KEY": "bench", "DATABASE_URL": url or sqlite_url(folder / "bench.db"),
        "INSTANCE_PATH": folder / "instance", "WTF_CSRF_ENABLED": False, "LOAD_DEMO": False,
        "CREATE_DATABASE": True, "RANDOM_SOURCE": lambda: random.Random(1),
    }, database_pool=4 if url else 0)  # PostgreSQL keeps its connections open, as `larp serve` does


def add_chronicles(first: int, count: int) -> list[int]:
    """Chronicles ``Bench first`` .. ``Bench first+count-1``, each with game session 1 open,
    :data:`PER_CHRONICLE` characters (Physical, Social and Mental Traits) and a recorded ruling on
    each of them (so that the record of the other chronicles is not empty), by bulk inserts."""
    from larp.models import Character, Chronicle, GameSession, Ruling, RulingCharacter, Trait

    ids = []
    with db.atomic():
        for number in range(first, first + count):
            chronicle = Chronicle.create(name=f"Bench {number}")
            session = GameSession.create(chronicle=chronicle, number=1, date=date.today())
            Character.insert_many([{
                "chronicle": chronicle.id, "name": f"Character {i:03d} of {number}", "creature": "mortal",
                "short_code": f"B{i:03d}", "willpower_permanent": 3, "willpower_current": 3,
            } for i in range(PER_CHRONICLE)]).execute()
            people = [c.id for c in Character.select(Character.id).where(Character.chronicle == chronicle)]
            rows = []
            for cid in people:
                rows += [{"character": cid, "category": "physical", "name": "Quick", "count": 400},
                         {"character": cid, "category": "physical", "name": "Brawny", "count": 400},
                         {"character": cid, "category": "social", "name": "Charming", "count": 3},
                         {"character": cid, "category": "mental", "name": "Clever", "count": 3}]
            for start in range(0, len(rows), 500):
                Trait.insert_many(rows[start:start + 500]).execute()
            Ruling.insert_many([{"chronicle": chronicle.id, "game_session": session.id, "kind": "damage",
                                 "summary": f"Character {i:03d} takes 1 bashing", "narrator_name": "Bench"}
                                for i in range(PER_CHRONICLE)]).execute()
            rulings = [r.id for r in Ruling.select(Ruling.id).where(Ruling.chronicle == chronicle).order_by(Ruling.id)]
            RulingCharacter.insert_many([{"ruling": r, "character": c, "role": "target"}
                                         for r, c in zip(rulings, people)]).execute()
            ids.append(chronicle.id)
    return ids


def count_statements(client, method: str, path: str, body: dict | None = None) -> int:
    """The SQL statements one request runs (the database's ``execute_sql`` wrapped)."""
    database = db.obj
    real = database.execute_sql
    seen: list[str] = []

    def counting(sql, *args, **kwargs):
        seen.append(sql)
        return real(sql, *args, **kwargs)

    database.execute_sql = counting
    try:
        response = client.open(path, method=method, json=body)
    finally:
        database.execute_sql = real
    if response.status_code >= 400:
        raise SystemExit(f"{method} {path} answered {response.status_code}: {response.data[:300]!r}")
    return len([s for s in seen if not s.lstrip().upper().startswith(UNCOUNTED)])


class Install:
    """One install under test: its app, its database, the narrator's logged-in client and the
    chronicle he works in. Several may live in one process: :meth:`use` points the database proxy
    at this one's database (the app factory binds the proxy to the last app made)."""

    def __init__(self, url: str | None, chronicles: int):
        from larp.models import Character, Chronicle
        from larp.services.accounts import create_user

        self.app = make_app(url)
        self.database = db.obj
        with self.app.app_context(), db.connection_context():
            (self.home,) = add_chronicles(1, 1)
            create_user("bench", "Bench", "narrator", PASSWORD, chronicle=Chronicle.get_by_id(self.home))
            self.mine = list(Character.select(Character.id, Character.short_code)
                             .where(Character.chronicle == self.home).order_by(Character.name).limit(3))
        self.chronicles = 1
        self.grow(chronicles)
        self.client = self.app.test_client()
        if self.client.post("/login", data={"username": "bench", "password": PASSWORD}).status_code >= 400:
            raise SystemExit("the benchmark's narrator could not log in")

    def grow(self, chronicles: int) -> float:
        """Add chronicles until there are ``chronicles``; returns the seconds it took."""
        self.use()
        start = time.perf_counter()
        if chronicles > self.chronicles:
            with self.app.app_context(), db.connection_context():
                add_chronicles(self.chronicles + 1, chronicles - self.chronicles)
            self.chronicles = chronicles
        return time.perf_counter() - start

    def use(self) -> None:
        if db.obj is not self.database:
            if not db.is_closed():
                db.close()
            db.initialize(self.database)

    def get(self, path: str, status: int) -> float:
        """Seconds of one ``GET path`` answered with ``status``."""
        self.use()
        start = time.perf_counter()
        response = self.client.get(path)
        elapsed = time.perf_counter() - start
        if response.status_code != status:
            raise SystemExit(f"GET {path} answered {response.status_code}, not {status}")
        return elapsed


def home(install: Install) -> str:
    """The narrator's chronicle's prefix: on a server of several chronicles every page's URL names
    its chronicle (a short path is redirected there), so the pages are timed at those URLs."""
    return f"/chronicles/{install.home}"


def statements(install: Install) -> dict[str, float]:
    """(a): the statements of a stored challenge and of damage by hand, and how many characters the list shows."""
    install.use()
    mine = install.mine
    challenge = {"category": "physical", "challenger": {"character_id": mine[0].id, "bid": "Quick"},
                 "defender": {"character_id": mine[1].id, "bid": "Brawny"},
                 "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "scissors"}]}
    if not db.is_closed():
        db.close()
    return {
        "challenge POST (statements)": count_statements(install.client, "POST", "/api/v1/challenges", challenge),
        "damage POST (statements)": count_statements(install.client, "POST",
                                                     f"/api/v1/characters/{mine[2].id}/damage",
                                                     {"damage_type": "bashing", "levels": 1}),
        "characters listed": install.client.get(f"{home(install)}/characters").data.count(b'<li><a href="'),
    }


def timings(installs: list[Install], requests: int) -> list[dict[str, float]]:
    """(b) and (c): median and 95th percentile (ms) of the character list and the code box over
    ``requests`` requests each, after 3 to warm up; with several installs, their requests take turns
    (so that the load of a shared machine falls on each alike)."""
    pages = (("/characters", 200, lambda i: f"{home(i)}/characters"),
             ("/code", 303, lambda i: f"{home(i)}/code?code={i.mine[2].short_code}"))
    rows: list[dict[str, float]] = [{} for _ in installs]
    for label, status, path in pages:
        times: list[list[float]] = [[] for _ in installs]
        for n in range(requests + 3):
            for k, install in enumerate(installs):
                elapsed = install.get(path(install), status)
                if n >= 3:
                    times[k].append(elapsed * 1000)
        for k, row in enumerate(rows):
            ordered = sorted(times[k])
            row[f"{label} median (ms)"] = statistics.median(ordered)
            row[f"{label} p95 (ms)"] = ordered[min(len(ordered) - 1, int(round(len(ordered) * 0.95)) - 1)]
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=30)
    parser.add_argument("--chronicles", type=int, default=50)
    parser.add_argument("--database-url", default=os.environ.get("LARP_TEST_DATABASE_URL"),
                        help="a PostgreSQL database to use (it is emptied); default: SQLite in a temporary folder")
    args = parser.parse_args()
    url = args.database_url
    if url:
        # One database: the figures for 1 chronicle, then the same install grown to 50.
        install = Install(url, 1)
        one = {**statements(install), **timings([install], args.requests)[0]}
        built = install.grow(args.chronicles)
        many = {**statements(install), **timings([install], args.requests)[0]}
        how = "measured one after the other on one database"
    else:
        # Two SQLite files side by side, their timed requests taking turns.
        small = Install(None, 1)
        start = time.perf_counter()
        large = Install(None, args.chronicles)
        built = time.perf_counter() - start
        one, many = statements(small), statements(large)
        for row, timed_row in zip((one, many), timings([small, large], args.requests)):
            row.update(timed_row)
        how = "two databases, their requests taking turns"

    engine = "PostgreSQL" if url else "SQLite"
    total = args.chronicles * PER_CHRONICLE
    print(f"Several chronicles on one server ({engine}); the narrator is in the first one only.")
    print(f"  The {args.chronicles} chronicles of {PER_CHRONICLE} characters (and a ruling each) built by bulk inserts "
          f"in {built:.1f} s; {args.requests} timed requests per page through the test client ({how}).")
    print(f"  {'':30s} {'1 chronicle':>12s} {f'{args.chronicles} chronicles':>14s} {'ratio':>7s}")
    print(f"  {'':30s} {f'{PER_CHRONICLE} chars':>12s} {f'{total} chars':>14s}")
    order = ["challenge POST (statements)", "damage POST (statements)", "/characters median (ms)",
             "/characters p95 (ms)", "/code median (ms)", "/code p95 (ms)", "characters listed"]
    for key in order:
        a, b = one[key], many[key]
        fmt = "{:12.0f} {:14.0f}" if "statements" in key or "listed" in key else "{:12.2f} {:14.2f}"
        print(f"  {key:30s} " + fmt.format(a, b) + f" {b / a if a else float('nan'):6.2f}x")
    print("  Goal: both stay flat (ratio about 1.00x; times within the noise of a shared machine).")


if __name__ == "__main__":
    main()
