"""Benchmark: a ruling through the API, and the SQL a stored ruling costs (issues 3 and 15).

Run it (it prints figures; it is not a test and asserts nothing):

    .venv/bin/python tests/benchmarks/bench_rulings.py [--requests 300]

1. The median time of ``POST /api/v1/challenges/rule`` (a stateless ruling with
   a retest, met-reference T5) against a bare Flask route on the same server
   that returns a body of the same size, and their ratio. Both go over real
   HTTP (waitress in a thread, one keep-alive connection).
2. The number of SQL statements one stored ruling makes, with 10 and with 1,000
   characters in the chronicle, for each kind: a one-on-one challenge
   (``POST /api/v1/challenges``, a Trait lost and a blow landing), a two-on-one mass
   challenge (``/api/v1/mass-challenges``), a missed shot into two bystanders
   (``/api/v1/firing-into-groups``), damage by hand (``/api/v1/characters/<id>/damage``), a vampire
   feeding on a victim (``.../feed-on``) and blood called for (``.../blood``, issue 17).
   Every statement of the request counts (the user's session, the chronicle, its
   settings...), except PRAGMA, BEGIN, COMMIT and savepoints.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from larp import create_app  # noqa: E402
from larp.db import db, sqlite_url  # noqa: E402

T5 = {
    "category": "physical", "action": "weapon",
    "challenger": {"name": "Daron", "traits": 7, "bid": ["Wily"], "category": "mental",
                   "weapon": {"name": "pistol", "bonus": 2, "damage_type": "lethal", "levels": 2},
                   "abilities": {"Firearms": 2}},
    "defender": {"name": "Michael", "traits": 8, "bid": ["Quick"]},
    "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "paper"},
              {"call": "retest", "by": "challenger", "source": "ability:Firearms",
               "challenger_throw": "scissors", "defender_throw": "paper"}],
}


def make_app(folder: Path):
    return create_app({
        "TESTING": False, "SECRET_KEY": "bench", "DATABASE_URL": sqlite_url(folder / "bench.db"),
        "INSTANCE_PATH": folder / "instance", "WTF_CSRF_ENABLED": False, "LOAD_DEMO": True,
        "CREATE_DATABASE": True,  # only `larp serve` (and this benchmark's fresh folder) makes a database
        "RANDOM_SOURCE": lambda: random.Random(1),
    })


def login_cookie(app) -> str:
    from larp.services.accounts import create_user

    with app.app_context(), db.connection_context():
        create_user("bench", "Bench", "narrator", "benchmark-password")
    client = app.test_client()
    client.post("/login", data={"username": "bench", "password": "benchmark-password"})
    return client.get_cookie("session").value


def serve(app) -> tuple[int, object]:
    import waitress.server

    server = waitress.server.create_server(app, host="127.0.0.1", port=0, threads=4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    return server.effective_port, server


def timed(conn, method: str, path: str, body: bytes | None, headers: dict) -> tuple[float, bytes]:
    start = time.perf_counter()
    conn.request(method, path, body=body, headers=headers)
    response = conn.getresponse()
    data = response.read()
    elapsed = time.perf_counter() - start
    if response.status >= 400:
        raise SystemExit(f"{method} {path} answered {response.status}: {data[:300]!r}")
    return elapsed, data


def bench_http(requests: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="larp-bench-"))
    app = make_app(folder)
    payload = bytearray()

    @app.post("/bench/bare")
    def bare():  # the baseline: parse nothing, decide nothing, same body size
        return app.response_class(bytes(payload), mimetype="application/json")

    cookie = login_cookie(app)
    body = json.dumps(T5).encode()
    sample = app.test_client()
    sample.set_cookie("session", cookie)
    size = len(sample.post("/api/v1/challenges/rule", json=T5).data)
    payload.extend(b"x" * size)

    port, server = serve(app)
    conn = http.client.HTTPConnection("127.0.0.1", port)
    headers = {"Content-Type": "application/json", "Cookie": f"session={cookie}"}
    for _ in range(20):  # warm up both paths
        timed(conn, "POST", "/api/v1/challenges/rule", body, headers)
        timed(conn, "POST", "/bench/bare", body, headers)
    ruling, baseline = [], []
    for _ in range(requests):
        ruling.append(timed(conn, "POST", "/api/v1/challenges/rule", body, headers)[0])
        baseline.append(timed(conn, "POST", "/bench/bare", body, headers)[0])
    conn.close()
    time.sleep(0.2)
    server.close()
    med_r, med_b = statistics.median(ruling), statistics.median(baseline)
    print(f"Stateless ruling through the API (met-reference T5, {size} bytes), {requests} requests each:")
    print(f"  ruling   median {med_r * 1000:7.2f} ms   p90 {sorted(ruling)[int(requests * 0.9)] * 1000:7.2f} ms")
    print(f"  bare     median {med_b * 1000:7.2f} ms   p90 {sorted(baseline)[int(requests * 0.9)] * 1000:7.2f} ms")
    print(f"  ratio    {med_r / med_b:5.1f}x the bare Flask route (same server, same body size)")


def count_queries(app, cookie: str, path: str, body: dict) -> int:
    """The SQL statements of one request (an SQLite trace on every connection it opens)."""
    import sqlite3

    statements: list[str] = []
    real_connect = sqlite3.connect

    def counting_connect(*args, **kwargs):
        conn = real_connect(*args, **kwargs)
        conn.set_trace_callback(statements.append)
        return conn

    client = app.test_client()
    client.set_cookie("session", cookie)
    if not db.is_closed():
        db.close()
    sqlite3.connect = counting_connect
    try:
        response = client.post(path, json=body)
    finally:
        sqlite3.connect = real_connect
    if response.status_code != 201:
        raise SystemExit(f"stored ruling {path} failed: {response.get_json()}")
    return len([s for s in statements if not s.upper().startswith(("PRAGMA", "BEGIN", "COMMIT", "SAVEPOINT", "RELEASE"))])


def stored_rulings(ids: dict[str, int]) -> list[tuple[str, str, dict]]:
    """One stored ruling of each kind, on the demo characters."""
    return [
        ("one-on-one challenge", "/api/v1/challenges", {
            "category": "physical", "challenger": {"character_id": ids["Vivienne Ashcombe"], "bid": "Quick"},
            "defender": {"character_id": ids["Konrad Vale"], "bid": "Brawny"},
            "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "scissors"}]}),
        ("mass challenge, two on one", "/api/v1/mass-challenges", {
            "target": {"character_id": ids["Teodor Brandt"], "throw": "scissors"},
            "attackers": [{"character_id": ids["Lys Moreau"], "throw": "rock"},
                          {"character_id": ids["Sister Agathe"], "throw": "rock"}]}),
        ("missed shot, two bystanders", "/api/v1/firing-into-groups", {
            "firer": {"character_id": ids["Marcus Hale"], "weapon": "pistol"}, "target_id": ids["Konrad Vale"],
            "bystanders": [{"character_id": ids["Ines Castellano"], "throw": "scissors", "firer_throw": "rock"},
                           {"character_id": ids["Aldous Whitmore"], "throw": "rock", "firer_throw": "paper"}]}),
        ("damage by hand", f"/api/v1/characters/{ids['Lys Moreau']}/damage",
         {"damage_type": "lethal", "levels": 1, "armor": "ballistic_vest", "armor_left": 0}),
        # Vivienne's pool starts full, and a vampire drinks no more than it holds: she calls for blood first.
        ("blood called for", f"/api/v1/characters/{ids['Vivienne Ashcombe']}/blood", {"blood": 2, "reason": "rising"}),
        ("feeding on a victim", f"/api/v1/characters/{ids['Vivienne Ashcombe']}/feed-on",
         {"victim": ids["Ruth Calder"], "blood": 1}),
    ]


def bench_queries() -> None:
    from larp.models import Character
    from larp.services.sheet_store import create_character, sheet_of

    folder = Path(tempfile.mkdtemp(prefix="larp-bench-"))
    app = make_app(folder)
    cookie = login_cookie(app)
    with app.app_context(), db.connection_context():
        ids = {c.name: c.id for c in Character.select()}
        count = len(ids)
    small = [(label, count_queries(app, cookie, path, body)) for label, path, body in stored_rulings(ids)]
    with app.app_context(), db.connection_context():
        sheets = [sheet_of(c) for c in Character.select()]
        chronicle = Character.get_by_id(ids["Vivienne Ashcombe"]).chronicle
        with db.atomic():
            for index in range(1000 - count):
                sheet = sheets[index % len(sheets)]
                sheet.name = f"{sheet.name.split(' #')[0]} #{index}"
                create_character(chronicle, sheet)
        total = Character.select().count()
    large = [(label, count_queries(app, cookie, path, body)) for label, path, body in stored_rulings(ids)]
    print("SQL statements in one stored ruling (the whole request; PRAGMA/BEGIN/COMMIT not counted):")
    print(f"  {'':30s} {count:5d} characters  {total:5d} characters")
    for (label, a), (_l, b) in zip(small, large):
        print(f"  {label:30s} {a:5d}             {b:5d}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300)
    args = parser.parse_args()
    bench_http(args.requests)
    bench_queries()


if __name__ == "__main__":
    main()
