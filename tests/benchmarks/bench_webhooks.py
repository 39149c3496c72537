"""Benchmark: what webhooks cost the narrator's tap, and how soon an event arrives (issue 35).

Run it (it prints figures; it is not a test and asserts nothing):

    .venv/bin/python tests/benchmarks/bench_webhooks.py [--taps 60]

The issue's goal: "the narrator's tap never waits for the network". Printed, on SQLite:

1. In the app (Flask's test client, no worker): the median time and the SQL statements of one stored
   ruling (``POST /api/v1/characters/{id}/damage``) with no webhook, and with three webhooks that
   want it (the outbox rows written in the tap's transaction), and the part of it spent in
   :func:`larp.webhooks.outbox.emit` (the two apps differ by more than that from run to run).
2. Through a real ``larp serve`` whose worker sends to a local receiver: the median and 95th
   percentile of a tap (one every 0.2 s) while the receiver answers at once, and while three
   receivers hang past the timeout on every delivery (the hard case: dead bots); and the time from
   the tap's answer to the event's arrival at the receiver.
3. The worker's poll with a backlog: the time of finding each webhook's next delivery
   (:func:`larp.webhooks.outbox.heads`) with 5,000 events waiting for a webhook that is down.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from larp.db import bind, db, sqlite_url  # noqa: E402
from tests.servers import Server, call, log_in  # noqa: E402
from tests.web.webhook_receiver import Receiver, Reply  # noqa: E402

PASSWORD = "benchmark password"


def long_lived(chronicle) -> int:
    """A mortal whose track takes a few hundred bashing levels (so the taps never kill him)."""
    from larp.models import Character
    from larp.services.sheet_store import create_character
    from larp.sheet import CharacterSheet

    made = create_character(chronicle, CharacterSheet.from_dict({"name": "Bench Target", "creature": "mortal"}))
    Character.update(health_levels=["Healthy"] * 300 + ["Incapacitated"]).where(Character.id == made.id).execute()
    return made.id


def hooks(chronicle, url: str, count: int, local: bool = True) -> None:
    from larp.services.webhooks import create_webhook

    for i in range(count):
        create_webhook(chronicle, None, {"name": f"Bench {i}", "url": url + f"/{i}", "events": ["ruling_recorded"],
                                         "local_network": local, "format": "json"})


def in_app(taps: int) -> None:
    from larp.models import Chronicle
    from tests.support import AuthActions, make_test_app

    for count in (0, 3):
        folder = Path(tempfile.mkdtemp(prefix="bench-hooks-"))
        app = make_test_app(folder)
        client = app.test_client()
        AuthActions(client).login("bench", "narrator")
        with db.connection_context():
            target = long_lived(Chronicle.get())
            hooks(Chronicle.get(), "http://127.0.0.1:9", count)
        import larp.webhooks.outbox as outbox

        emitting = []
        emit = outbox.emit

        def timed_emit(*args, **kwargs):
            start = time.perf_counter()
            try:
                return emit(*args, **kwargs)
            finally:
                emitting.append(time.perf_counter() - start)

        outbox.emit = timed_emit
        real = db.obj
        statements = []
        original = real.execute_sql

        def counted(sql, params=None, *args, **kwargs):
            statements.append(sql)
            return original(sql, params, *args, **kwargs)

        times = []
        for i in range(taps):
            statements.clear()
            real.execute_sql = counted
            start = time.perf_counter()
            reply = client.post(f"/api/v1/characters/{target}/damage", json={"damage_type": "bashing", "levels": 1})
            times.append(time.perf_counter() - start)
            real.execute_sql = original
            assert reply.status_code == 201, reply.json
        outbox.emit = emit
        print(f"  {count} webhooks: median {statistics.median(times) * 1000:.1f} ms a tap, of which the outbox "
              f"{statistics.median(emitting) * 1000:.2f} ms; {len(statements)} SQL statements a tap")


def served(taps: int) -> None:
    receiver = Receiver()
    folder = Path(tempfile.mkdtemp(prefix="bench-hooks-serve-"))
    instance = folder / "instance"
    instance.mkdir()
    (instance / "config.py").write_text('SECRET_KEY = "bench"\nWEBHOOK_TIMEOUT_SECONDS = 2.0\n', encoding="utf-8")
    server = Server(instance, None, threads=8)
    server.wait()
    try:
        bind(sqlite_url(instance / "larp.sqlite3"))
        from larp.models import Chronicle
        from larp.services.accounts import create_user

        with db.connection_context():
            create_user("bench", "Bench", "narrator", PASSWORD)
            target = long_lived(Chronicle.get())
            hooks(Chronicle.get(), receiver.url("/fast"), 1)
        session = log_in(server, "bench", PASSWORD)
        body = json.dumps({"damage_type": "bashing", "levels": 1}).encode()
        headers = session.headers(**{"Content-Type": "application/json"})

        def tap() -> tuple[float, float]:
            time.sleep(0.2)  # a narrator's pace, far quicker than a real one's
            start = time.perf_counter()
            reply = call(server, "POST", f"/api/v1/characters/{target}/damage", body=body, headers=headers)
            assert reply.status == 201
            return time.perf_counter() - start, time.monotonic()

        answered = [tap() for _ in range(taps)]
        receiver.wait_for("/fast/0", taps, timeout=120)
        arrivals = {r.json["ruling"]["id"]: r.at for r in receiver.on("/fast/0")}
        waits = sorted(a - done for (_, done), a in zip(answered, [arrivals[k] for k in sorted(arrivals)]))
        fast = sorted(t for t, _ in answered)
        print(f"  receiver answering at once: tap median {statistics.median(fast) * 1000:.1f} ms, "
              f"p95 {fast[int(len(fast) * 0.95) - 1] * 1000:.1f} ms; tap answered → event arrived: median "
              f"{statistics.median(waits) * 1000:.0f} ms, p95 {waits[int(len(waits) * 0.95) - 1] * 1000:.0f} ms")
        with db.connection_context():
            from larp.models import Webhook

            Webhook.delete().execute()
            hooks(Chronicle.get(), receiver.url("/dead"), 3)
        for i in range(3):
            receiver.script(f"/dead/{i}", *[Reply(204, hang=10)] * 1000)
        slow = sorted(tap()[0] for _ in range(taps))
        print(f"  three receivers hanging past the timeout: tap median {statistics.median(slow) * 1000:.1f} ms, "
              f"p95 {slow[int(len(slow) * 0.95) - 1] * 1000:.1f} ms")
    finally:
        server.stop()
        receiver.close()


def backlog() -> None:
    from larp.models import Chronicle, Webhook, WebhookDelivery, WebhookEvent, utcnow
    from larp.webhooks.outbox import heads
    from tests.support import make_test_app

    app = make_test_app(Path(tempfile.mkdtemp(prefix="bench-hooks-backlog-")))
    with app.app_context(), db.connection_context():
        chronicle = Chronicle.get()
        hooks(chronicle, "http://127.0.0.1:9", 10)
        ids = [w.id for w in Webhook.select()]
        now = utcnow()
        with db.atomic():
            for i in range(5000):
                event = WebhookEvent.create(chronicle=chronicle, kind="ruling_recorded", uuid=f"bench-{i}",
                                            payload={}, created_at=now)
                WebhookDelivery.insert_many([dict(webhook=ids[0], event=event.id, next_attempt_at=now, created_at=now)]
                                            + [dict(webhook=w, event=event.id, state="delivered", next_attempt_at=now,
                                                    created_at=now) for w in ids[1:]]).execute()
        times = []
        for _ in range(20):
            start = time.perf_counter()
            found = heads(now)
            times.append(time.perf_counter() - start)
        print(f"  5,000 events waiting for one webhook (45,000 sent to nine others): finding the next delivery "
              f"takes {statistics.median(times) * 1000:.1f} ms a poll ({len(found)} head)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--taps", type=int, default=60)
    args = parser.parse_args()
    print("1. One stored ruling in the app (SQLite, no worker):")
    in_app(args.taps)
    print("2. Through larp serve with its worker (SQLite):")
    served(args.taps)
    print("3. The worker's poll with a backlog (SQLite):")
    backlog()


if __name__ == "__main__":
    main()
