"""Benchmark: what a personal API token costs a call, against the session cookie (issue 21).

Run it (it prints figures; it is not a test and asserts nothing):

    .venv/bin/python tests/benchmarks/bench_api_tokens.py [--calls 300]

On the demo chronicle in a temporary SQLite file, through Flask's test client (no network):
the median and 95th percentile of ``GET /api/v1/game-sessions`` with the session cookie and with
``Authorization: Bearer`` (a SHA-256 and one indexed read of ``apitoken``, plus the owner's row;
``last_used_at`` is written at most once a minute), and of ``POST /api/v1/challenges/rule``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from larp.db import db  # noqa: E402
from tests.support import make_test_app  # noqa: E402

RULE = {"kind": "static", "category": "mental", "difficulty": 6,
        "challenger": {"name": "Favian", "traits": 6, "bid": ["Clever"]},
        "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "rock"}]}


def timed(send, calls: int) -> tuple[float, float]:
    """Median and 95th percentile of ``send()``, in milliseconds."""
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        reply = send()
        times.append((time.perf_counter() - start) * 1000)
        assert reply.status_code == 200, reply.get_data(as_text=True)[:200]
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.95) - 1]


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=300)
    calls = parser.parse_args().calls
    app = make_test_app(Path(tempfile.mkdtemp(prefix="bench-tokens-")))
    from larp.services.accounts import create_user
    from larp.services.api_tokens import create_token

    with db.connection_context():
        owner = create_user("bench", "Bench", "organiser", "benchmark password")
        _, token = create_token(owner, "Bench bot", "organiser")
    cookie, bearer = app.test_client(), app.test_client()
    cookie.post("/login", data={"username": "bench", "password": "benchmark password"})
    headers = {"Authorization": f"Bearer {token}"}
    print(f"{calls} calls each, ms (median / 95th percentile):")
    for label, send in (
        ("GET game-sessions, session cookie", lambda: cookie.get("/api/v1/game-sessions")),
        ("GET game-sessions, bearer token", lambda: bearer.get("/api/v1/game-sessions", headers=headers)),
        ("POST challenges/rule, session cookie", lambda: cookie.post("/api/v1/challenges/rule", json=RULE)),
        ("POST challenges/rule, bearer token", lambda: bearer.post("/api/v1/challenges/rule", json=RULE, headers=headers)),
    ):
        median, p95 = timed(send, calls)
        print(f"  {label:40} {median:6.2f} / {p95:6.2f}")


if __name__ == "__main__":
    main()
