"""Benchmark: how long a wrong login takes to refuse, for a real and for a made-up user name (issue 19 item 6).

Run it (it prints figures; it is not a test and asserts nothing):

    .venv/bin/python tests/benchmarks/bench_login.py [--tries 20]

Both must cost one scrypt check, so the two medians should be within a few milliseconds:
the time of a refusal tells nobody which names exist. Each try comes from its own address,
so the address back-off never starts.
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tries", type=int, default=20)
    args = parser.parse_args()
    app = make_test_app(Path(tempfile.mkdtemp(prefix="larp-bench-login-")), LOGIN_LOCKOUT_FAILURES=10**6)
    with db.connection_context():
        from larp.services.accounts import create_user

        create_user("realname", "Real", "narrator", "the right password")
    client = app.test_client()
    times: dict[str, list[float]] = {"real name, wrong password": [], "made-up name": []}
    for i in range(args.tries):
        for label, name in (("real name, wrong password", "realname"), ("made-up name", f"nobody{i}")):
            start = time.perf_counter()
            response = client.post("/login", data={"username": name, "password": "wrong password"},
                                   environ_base={"REMOTE_ADDR": f"10.1.{i // 250}.{i % 250}"})
            times[label].append(time.perf_counter() - start)
            assert response.status_code == 401
    for label, values in times.items():
        print(f"{label:28} median {statistics.median(values) * 1000:6.1f} ms over {len(values)} tries")
    gap = abs(statistics.median(times["real name, wrong password"]) - statistics.median(times["made-up name"]))
    print(f"{'difference':28} {gap * 1000:6.1f} ms")


if __name__ == "__main__":
    main()
