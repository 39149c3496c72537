"""Benchmark: stored rulings per second with 10 simultaneous narrator clients (issue 13).

Run it (it prints figures; it is not a test and asserts nothing):

    .venv/bin/python tests/benchmarks/bench_concurrency.py [--rulings 600] [--clients 10]
        [--postgres URL | --no-postgres]

1. SQLite, one ``larp serve`` process (the event laptop).
2. PostgreSQL, two ``larp serve`` processes on one database (an organisation's server behind
   a proxy; the clients alternate between them). Without ``--postgres URL`` the script runs
   this part inside a throwaway cluster of its own (Debian's ``pg_virtualenv``), if installed.

Each client is a narrator with his own pair of characters (so that the figure is the
database's and the server's, not one character's lock), sending stateful challenges
(``POST /api/v1/challenges``, a Mental challenge the challenger loses: a Trait lost and the
ruling recorded) one after another. Printed: rulings per second over the run, and the median
and 95th percentile of one ruling's time as the client sees it.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from larp.db import bind, db, sqlite_url  # noqa: E402
from tests.servers import call, log_in, start_servers  # noqa: E402

PASSWORD = "benchmark password"


def prepare(url: str, clients: int) -> list[tuple[str, int, int]]:
    """Narrator accounts and a pair of characters for each client: (user name, challenger, defender)."""
    from larp.models import Chronicle, Trait
    from larp.services.accounts import create_user
    from larp.services.sheet_store import create_character
    from larp.sheet import CharacterSheet

    bind(url)
    plan = []
    with db.connection_context(), db.atomic():
        chronicle = Chronicle.get()
        for i in range(clients):
            create_user(f"bench{i}", f"Bench {i}", "narrator", PASSWORD)
            one = create_character(chronicle, CharacterSheet.from_dict(
                {"name": f"Bench challenger {i}", "creature": "mortal", "traits": {"mental": ["Clever"]}}))
            # More Clever than a sheet may hold (25), so that the benchmark never runs out.
            Trait.update(count=5000).where(Trait.character == one).execute()
            two = create_character(chronicle, CharacterSheet.from_dict(
                {"name": f"Bench defender {i}", "creature": "mortal", "traits": {"mental": ["Wise x5"]}}))
            plan.append((f"bench{i}", one.id, two.id))
    db.close()
    return plan


def run(label: str, url: str | None, processes: int, rulings: int, clients: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="larp-bench-concurrency-"))
    instance = folder / "instance"
    servers = start_servers(processes, instance, url)
    try:
        plan = prepare(url or sqlite_url(instance / "larp.sqlite3"), clients)
        sessions = [log_in(servers[i % processes], name, PASSWORD) for i, (name, _c, _d) in enumerate(plan)]
        times: list[float] = []
        statuses: dict[int, int] = {}
        lock = threading.Lock()
        remaining = [rulings]

        def client(i: int) -> None:
            name, challenger, defender = plan[i]
            body = json.dumps({"category": "mental", "challenger": {"character_id": challenger, "bid": "Clever"},
                               "defender": {"character_id": defender, "bid": "Wise"},
                               "tests": [{"call": "test", "challenger_throw": "rock",
                                          "defender_throw": "paper"}]}).encode()
            headers = sessions[i].headers(**{"Content-Type": "application/json"})
            server = servers[i % processes]
            while True:
                with lock:
                    if remaining[0] <= 0:
                        return
                    remaining[0] -= 1
                reply = call(server, "POST", "/api/v1/challenges", body=body, headers=headers)
                with lock:
                    times.append(reply.seconds)
                    statuses[reply.status] = statuses.get(reply.status, 0) + 1

        threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
        start = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - start
        ordered = sorted(times)
        print(f"{label}: {processes} process(es), {clients} simultaneous narrators, {len(times)} stored rulings")
        print(f"  {len(times) / wall:7.1f} rulings/s   median {statistics.median(ordered) * 1000:6.1f} ms   "
              f"p95 {ordered[int(len(ordered) * 0.95) - 1] * 1000:6.1f} ms   answers {dict(sorted(statuses.items()))}")
    finally:
        for server in servers:
            server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rulings", type=int, default=600)
    parser.add_argument("--clients", type=int, default=10)
    parser.add_argument("--postgres", metavar="URL", help="an empty PostgreSQL database (it is emptied)")
    parser.add_argument("--no-postgres", action="store_true")
    parser.add_argument("--only-postgres", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not args.only_postgres:
        run("SQLite", None, 1, args.rulings, args.clients)
    if args.no_postgres:
        return
    if args.postgres:
        from tests.support import empty_postgres

        empty_postgres(args.postgres)
        db.close()
        run("PostgreSQL", args.postgres, 2, args.rulings, args.clients)
    elif shutil.which("pg_virtualenv"):
        inner = (f'"{sys.executable}" "{Path(__file__).resolve()}" --only-postgres --rulings {args.rulings} '
                 f'--clients {args.clients} --postgres "postgresql://$PGUSER:$PGPASSWORD@$PGHOST:$PGPORT/$PGDATABASE"')
        subprocess.run(["pg_virtualenv", "-t", "sh", "-c", inner], check=False, stderr=subprocess.DEVNULL)
    else:
        print("PostgreSQL: skipped (give --postgres URL, or install postgresql for pg_virtualenv)")


if __name__ == "__main__":
    main()
