"""Benchmark: a light request (issue 29, item 6), our app beside a plain Flask app on one server.

Run it (it prints figures against the goals; it is not a test and asserts nothing):

    .venv/bin/python tests/benchmarks/bench_request.py [--seconds 2] [--rounds 5] [--phones 1000]
        [--night 30] [--postgres URL | --no-postgres]

One server process (this script with ``--serve``) runs, on the one waitress server and the threads
``larp serve`` uses (:data:`larp.cli.SERVE_THREADS`), our app as ``larp serve`` builds it (SQLite in
its instance folder, the demo chronicle grown to ``--phones`` characters, CSRF on) with one route added,
``/bench/bare`` (logged in, in the chronicle, does nothing), and beside it, under ``/plain``, a plain
Flask app (no database, no session, no hooks). The client is this process: keep-alive connections on
raw sockets, 8 at a time (one per waitress thread), as fast as the server answers, in rounds that take
turns so that a neighbour's load on the shared machine falls on every figure alike.

Printed, each as the time per request (wall time / answers; the server process is one Python
process, so that is its CPU per request) and as requests a second, and the ratio against its goal:

1. the plain Flask route (``GET /plain/``) and our bare route with its session (``GET /bench/bare``):
   goal at most 2x;
2. a stateless ruling (``POST /api/v1/challenges/rule``, met-reference T5, the session cookie) against
   our bare route taking the same body and answering as many bytes (``POST /bench/bare``): goal at most
   1.15x. Beside it, the floor under that goal: a route that reads the body as the API does and answers
   the ruling's own answer, kept from one call (``POST /bench/answer``: serialized and compressed as the
   ruling's is, no ruling made), against the same bare route;
3. the player's live poll that finds nothing changed (``GET /c/<token>/live?v=...`` as htmx sends it,
   no cookie, answered 204) against a plain route answering 204 (``GET /plain/204``): goal at most 2x.
   waitress closes the connection after every 204 (it does after any answer without a length; an
   upstream change is pending), so both open a new connection for each poll, as the phones do;
4. a game night: ``--phones`` phones (default 1,000), each with its own character's card page open,
   polling every 5 s with their phases spread (200 polls a second), for ``--night`` seconds, while a
   narrator records a damage ruling every second through the API; the latency of each poll from
   the moment it was due (p50, p95, p99; goal p95 under 100 ms), the polls that found a change, and
   the server's CPU seconds per second (from /proc);
5. the SQL statements of one tap, the whole request counted (the session, the chronicle, its
   settings...; BEGIN, COMMIT, savepoints and PRAGMA not counted) for each kind of stored ruling the API
   makes, and for the challenge screen's taps (the one that resolves and shows the retests left, the one
   that records it as it stands, and the two that end a challenge: a resolve tap with nothing left to
   call, a retest's call tap): goal at most 12. On SQLite by the connection's trace (a statement a connection makes
   when it opens counts too: the app keeps its connections as ``larp serve`` does, so a tap opens none),
   on PostgreSQL by wrapping ``execute_sql`` (the pool's ``SELECT 1`` when it hands a connection out is
   not counted).

PostgreSQL is printed beside SQLite: with ``--postgres URL`` (emptied first) or, without it, inside
a throwaway cluster of its own (Debian's ``pg_virtualenv``) if installed; ``--no-postgres`` skips it.
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import random
import re
import selectors
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

try:
    from larp.cli import SERVE_THREADS  # noqa: E402
except ImportError:  # a commit before it was named (the same 8), so that before and after can be measured alike
    SERVE_THREADS = 8
from tests.benchmarks.bench_rulings import T5  # noqa: E402  (met-reference T5: a pistol shot, a tie, a retest)

POLL_SECONDS = 5.0
#: waitress's worker threads, as ``larp serve`` runs it.
WAITRESS_THREADS = SERVE_THREADS
USER_AGENT = ("Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 "
              "Mobile Safari/537.36")


# --- the server process ----------------------------------------------------------------------------

def serve(instance: Path, port: int, database_url: str | None, phones: int) -> None:
    """Build the app as ``larp serve`` does, grow the chronicle, print what the client needs, serve."""
    import waitress
    from flask import Flask, jsonify, request
    from werkzeug.middleware.dispatcher import DispatcherMiddleware

    from larp import create_app
    from larp.db import db, keep_wal_index

    os.environ["LARP_INSTANCE_PATH"] = str(instance)
    if database_url:
        os.environ["LARP_DATABASE_URL"] = database_url
    app = create_app(create_database=True, database_pool=WAITRESS_THREADS)
    app.extensions["larp.wal_keeper"] = keep_wal_index(app.config["DATABASE_URL"])
    from larp.csrf import csrf
    from larp.web.api import json_body as api_body
    from larp.web.auth import login_required

    payload = bytearray()
    answer: dict = {}

    @app.route("/bench/bare", methods=["GET", "POST"])
    @csrf.exempt
    @login_required
    def bare():
        """Logged in, in the chronicle; does nothing. POST answers as many bytes as the ruling."""
        if request.method == "POST":
            request.get_json(silent=True)
            return app.response_class(bytes(payload), mimetype="application/json")
        return "ok"

    @app.route("/bench/answer", methods=["POST"])
    @csrf.exempt
    @login_required
    def answer_only():
        """The floor under the ruling: reads the body as the API does and answers the ruling's own JSON
        answer (kept from one call), serialized and compressed as the ruling's is, with no ruling made."""
        api_body()
        return jsonify(answer)

    plain = Flask("plain")

    @plain.route("/")
    def plain_ok():
        return "ok"

    @plain.route("/204")
    def plain_204():
        return "", 204

    with app.app_context(), db.connection_context():
        info = prepare(app, phones)
    client = app.test_client()
    client.set_cookie("session", info["cookie"])
    ruled = client.post("/api/v1/challenges/rule", json=T5)
    size = len(ruled.data)
    payload.extend(b"x" * size)
    answer.update(ruled.get_json())
    info["ruling_bytes"] = size
    info["pid"] = os.getpid()
    print("READY " + json.dumps(info), flush=True)
    waitress.serve(DispatcherMiddleware(app, {"/plain": plain}), host="127.0.0.1", port=port, ident="larp",
                   threads=WAITRESS_THREADS)


def prepare(app, phones: int) -> dict:
    """A narrator's session cookie, and ``phones`` characters with a card each (the demo's sheets again)."""
    from larp.db import db
    from larp.models import Character, Chronicle, User
    from larp.services.accounts import create_user
    from larp.services.sheet_store import create_character, sheet_of

    create_user("bench", "Bench", "narrator", "benchmark-password")
    chronicle = Chronicle.get()
    characters = list(Character.select().where(Character.chronicle == chronicle).order_by(Character.id))
    sheets = [sheet_of(c) for c in characters]
    with db.atomic():
        for index in range(max(phones - len(characters), 0)):
            sheet = sheets[index % len(sheets)]
            sheet.name = f"{sheet.name.split(' #')[0]} #{index}"
            create_character(chronicle, sheet)
    user = User.get(User.username == "bench")
    client = app.test_client()
    with client.session_transaction() as session:  # what /login leaves (larp.web.auth.start_session)
        session["user_id"] = user.id
        session["generation"] = user.session_generation
        session.permanent = True
    cookie = client.get_cookie("session").value
    rows = list(Character.select(Character.id, Character.card_token).where(Character.chronicle == chronicle)
                .order_by(Character.id).tuples())
    return {"cookie": cookie, "characters": [[i, t] for i, t in rows][:phones]}


# --- the client ------------------------------------------------------------------------------------

class Answer:
    """One parsed HTTP answer."""

    __slots__ = ("status", "body", "close")

    def __init__(self, status: int, body: bytes, close: bool):
        self.status, self.body, self.close = status, body, close


def parse(buffer: bytearray) -> tuple[Answer | None, int]:
    """The first whole answer in ``buffer`` and its length, or ``(None, 0)`` while it is incomplete."""
    end = buffer.find(b"\r\n\r\n")
    if end < 0:
        return None, 0
    head = bytes(buffer[:end]).decode("latin-1")
    lines = head.split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    start = end + 4
    close = headers.get("connection", "").lower() == "close"
    if status == 204 or status == 304 or 100 <= status < 200:
        return Answer(status, b"", close), start
    if "content-length" in headers:
        stop = start + int(headers["content-length"])
        if len(buffer) < stop:
            return None, 0
        return Answer(status, bytes(buffer[start:stop]), close), stop
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body, at = bytearray(), start
        while True:
            line_end = buffer.find(b"\r\n", at)
            if line_end < 0:
                return None, 0
            length = int(bytes(buffer[at:line_end]).split(b";")[0], 16)
            if len(buffer) < line_end + 2 + length + 2:
                return None, 0
            body += buffer[line_end + 2:line_end + 2 + length]
            at = line_end + 2 + length + 2
            if length == 0:
                return Answer(status, bytes(body), close), at
    return None, 0  # the body ends when the server closes: not used by these answers


def request_bytes(method: str, path: str, port: int, headers: dict[str, str], body: bytes = b"") -> bytes:
    """The request as a browser or a program sends it."""
    lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Connection: keep-alive",
             *(f"{k}: {v}" for k, v in headers.items())]
    if body:
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


class Connection:
    """One keep-alive connection (opened again when the server closes it)."""

    def __init__(self, port: int):
        self.port = port
        self.sock: socket.socket | None = None
        self.buffer = bytearray()
        self.reconnects = 0

    def open(self, selector: selectors.BaseSelector) -> None:
        self.sock = socket.create_connection(("127.0.0.1", self.port), timeout=10)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.setblocking(False)
        self.buffer = bytearray()
        selector.register(self.sock, selectors.EVENT_READ, self)

    def close(self, selector: selectors.BaseSelector) -> None:
        if self.sock is not None:
            selector.unregister(self.sock)
            self.sock.close()
            self.sock = None

    def send(self, selector: selectors.BaseSelector, data: bytes) -> None:
        if self.sock is None:
            self.open(selector)
        self.sock.sendall(data)  # small requests: the kernel takes them at once

    def receive(self) -> list[Answer] | None:
        """The answers that arrived (``None`` when the server closed the connection)."""
        try:
            chunk = self.sock.recv(262144)
        except BlockingIOError:
            return []
        if not chunk:
            return None
        self.buffer += chunk
        answers = []
        while True:
            answer, used = parse(self.buffer)
            if answer is None:
                return answers
            del self.buffer[:used]
            answers.append(answer)


def closed_loop(port: int, request: bytes, seconds: float, connections: int = 8,
                expect: int = 200) -> tuple[int, float, list[float]]:
    """``connections`` clients each sending ``request`` again as soon as its answer is in, for
    ``seconds``. Returns the answers, the wall time and each answer's latency (s).

    Raises:
        SystemExit: an answer other than ``expect`` (the benchmark measures nothing then).
    """
    selector = selectors.DefaultSelector()
    conns = [Connection(port) for _ in range(connections)]
    sent_at: dict[Connection, float] = {}
    latencies: list[float] = []
    start = time.perf_counter()
    stop = start + seconds
    for conn in conns:
        sent_at[conn] = time.perf_counter()
        conn.send(selector, request)
    pending = len(conns)
    while pending:
        for key, _ in selector.select(timeout=5):
            conn = key.data
            answers = conn.receive()
            if answers is None:  # closed by the server before answering: a refusal
                raise SystemExit(f"the server closed the connection without answering {request[:60]!r}")
            for answer in answers:
                now = time.perf_counter()
                if answer.status != expect:
                    raise SystemExit(f"{request.split(b' ', 2)[:2]} answered {answer.status}: {answer.body[:300]!r}")
                latencies.append(now - sent_at[conn])
                if answer.close:
                    conn.close(selector)
                    conn.reconnects += 1
                if now < stop:
                    sent_at[conn] = time.perf_counter()
                    conn.send(selector, request)
                else:
                    pending -= 1
    wall = time.perf_counter() - start
    for conn in conns:
        conn.close(selector)
    return len(latencies), wall, latencies


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of process ``pid`` (Linux /proc), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def game_night(port: int, pid: int, cookie: str, characters: list[list], seconds: float) -> dict:
    """``len(characters)`` phones polling their card every 5 s (phases spread), a narrator recording a
    damage ruling each second; latencies from the moment each poll was due."""
    selector = selectors.DefaultSelector()
    phones = len(characters)
    # Each phone opens its card page first (as a player does), which gives the poll's address.
    urls: list[str] = []
    page_conn = Connection(port)
    for _, token in characters:
        page_conn.send(selector, request_bytes("GET", f"/C/{token}", port, {"User-Agent": USER_AGENT}))
        answer = None
        while answer is None:
            selector.select(timeout=10)
            answers = page_conn.receive()
            if answers is None:
                page_conn.close(selector)
                raise SystemExit("the server closed a card page's connection")
            answer = answers[0] if answers else None
        if answer.close:
            page_conn.close(selector)
        found = re.search(rb'<div id="tonight-live"[^>]*hx-get="([^"]+)"', answer.body)
        if answer.status != 200 or not found:
            raise SystemExit(f"card page {token} answered {answer.status}")
        urls.append(found.group(1).decode().replace("&amp;", "&"))
    page_conn.close(selector)

    class Phone(Connection):
        def __init__(self, index: int):
            super().__init__(port)
            self.index, self.due, self.busy = index, 0.0, False

    start = time.perf_counter() + 0.5
    heap = []
    all_phones = []
    for i in range(phones):
        phone = Phone(i)
        phone.due = start + i * POLL_SECONDS / phones
        all_phones.append(phone)
        heapq.heappush(heap, (phone.due, i))
    narrator = Connection(port)
    narrator.due, narrator.busy = start + 1.0, False  # type: ignore[attr-defined]
    latencies: list[float] = []
    changed = dropped = narrator_rulings = 0
    statuses: dict[int, int] = {}
    stop = start + seconds
    cpu0, wall0 = cpu_seconds(pid), time.perf_counter()

    def poll_request(phone: Phone) -> bytes:
        return request_bytes("GET", urls[phone.index], port, {
            "HX-Request": "true", "HX-Current-URL": f"http://127.0.0.1:{port}/C/{characters[phone.index][1]}",
            "HX-Trigger": "tonight-live", "HX-Target": "tonight-live", "Accept": "*/*",
            "Accept-Encoding": "gzip, deflate", "User-Agent": USER_AGENT})

    while True:
        now = time.perf_counter()
        if now >= stop and not any(p.busy for p in all_phones):
            break
        while heap and heap[0][0] <= now and now < stop:
            _, i = heapq.heappop(heap)
            phone = all_phones[i]
            if phone.busy:  # htmx drops a poll while the last one is in flight
                dropped += 1
            else:
                phone.busy = True
                phone.send(selector, poll_request(phone))
            phone.due += POLL_SECONDS
            heapq.heappush(heap, (phone.due, i))
        if narrator.due <= now < stop and not narrator.busy:  # type: ignore[attr-defined]
            target = random.choice(characters)[0]
            body = json.dumps({"damage_type": "bashing", "levels": 1}).encode()
            narrator.send(selector, request_bytes("POST", f"/api/v1/characters/{target}/damage", port, {
                "Cookie": f"session={cookie}", "Content-Type": "application/json"}, body))
            narrator.busy = True  # type: ignore[attr-defined]
            narrator.due += 1.0  # type: ignore[attr-defined]
        next_due = min(heap[0][0] if heap else now + 0.05, narrator.due)  # type: ignore[attr-defined]
        timeout = max(0.0, next_due - time.perf_counter())
        for key, _ in selector.select(timeout=min(timeout, 0.05)):
            conn = key.data
            answers = conn.receive()
            if answers is None:
                conn.close(selector)
                conn.reconnects += 1
                if conn.busy:  # type: ignore[attr-defined]
                    statuses[0] = statuses.get(0, 0) + 1
                    conn.busy = False  # type: ignore[attr-defined]
                continue
            for answer in answers:
                if conn is narrator:
                    narrator.busy = False  # type: ignore[attr-defined]
                    narrator_rulings += answer.status == 201
                else:
                    latencies.append(time.perf_counter() - (conn.due - POLL_SECONDS))
                    statuses[answer.status] = statuses.get(answer.status, 0) + 1
                    if answer.status == 200:
                        changed += 1
                        found = re.search(rb'hx-get="([^"]+)"', answer.body)
                        if found:
                            urls[conn.index] = found.group(1).decode().replace("&amp;", "&")
                    conn.busy = False
                if answer.close:
                    conn.close(selector)
                    conn.reconnects += 1
    cpu1, wall1 = cpu_seconds(pid), time.perf_counter()
    for phone in all_phones:
        phone.close(selector)
    narrator.close(selector)
    latencies.sort()
    return {"polls": len(latencies), "seconds": wall1 - wall0, "changed": changed, "dropped": dropped,
            "statuses": statuses, "rulings": narrator_rulings,
            "p50": percentile(latencies, 50), "p95": percentile(latencies, 95), "p99": percentile(latencies, 99),
            "max": latencies[-1] if latencies else 0.0, "cpu": (cpu1 - cpu0) / (wall1 - wall0)}


def percentile(values: list[float], p: float) -> float:
    """The ``p``-th percentile of sorted ``values`` (nearest rank)."""
    if not values:
        return 0.0
    return values[min(len(values) - 1, max(0, int(round(p / 100 * len(values))) - 1))]


# --- SQL statements per tap ------------------------------------------------------------------------

def statements_per_tap(url: str | None) -> list[tuple[str, int]]:
    """The SQL statements of one stored ruling of each kind, through the test client on a fresh
    database (SQLite in a temporary folder, or the PostgreSQL ``url`` emptied first), the app
    keeping its connections between requests as ``larp serve`` does."""
    import sqlite3

    import peewee

    from larp import create_app
    from larp.db import db, sqlite_url
    from larp.models import Character
    from larp.services.accounts import create_user
    from tests.benchmarks.bench_rulings import stored_rulings

    folder = Path(tempfile.mkdtemp(prefix="larp-bench-request-"))
    if url:
        from tests.support import empty_postgres

        empty_postgres(url)
    statements: list[list[str]] = [[]]
    real_connect, real_execute = sqlite3.connect, peewee.Database.execute_sql

    def counting_connect(*args, **kwargs):  # SQLite: every statement of every connection, as it runs
        conn = real_connect(*args, **kwargs)
        conn.set_trace_callback(lambda sql: statements[0].append(sql))
        return conn

    def counting_execute(self, sql, params=None, *args, **kwargs):  # PostgreSQL: what peewee sends
        statements[0].append(sql)
        return real_execute(self, sql, params, *args, **kwargs)

    if url:
        peewee.Database.execute_sql = counting_execute  # type: ignore[method-assign]
    else:
        sqlite3.connect = counting_connect
    try:
        app = create_app({"TESTING": False, "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False, "LOAD_DEMO": True,
                          "DATABASE_URL": url or sqlite_url(folder / "bench.db"), "INSTANCE_PATH": folder / "instance",
                          "CREATE_DATABASE": True, "RANDOM_SOURCE": lambda: random.Random(1)},
                         database_pool=SERVE_THREADS)
        with app.app_context(), db.connection_context():
            create_user("bench", "Bench", "narrator", "benchmark-password")
            ids = {c.name: c.id for c in Character.select()}
        client = app.test_client()
        client.post("/login", data={"username": "bench", "password": "benchmark-password"})
        client.get("/bench-warm-up")  # a first request opens the connection the others reuse
        kinds = stored_rulings(ids) + [
            ("healing with blood", f"/api/v1/characters/{ids['Lys Moreau']}/heal", {"kind": "lethal", "levels": 1}),
        ]
        counts = []

        def counted() -> int:
            return len([sql for sql in statements[0] if not sql.strip().upper().startswith(
                ("PRAGMA", "BEGIN", "COMMIT", "SAVEPOINT", "RELEASE", "ROLLBACK"))])

        for label, path, body in kinds:
            statements[0] = []
            response = client.post(path, json=body)
            if response.status_code != 201:
                raise SystemExit(f"stored ruling {path} failed: {response.get_data(as_text=True)[:300]}")
            counts.append((label, counted()))
        # The challenge screen: the tap that resolves (its preview), then the tap that records it as it stands.
        client.get("/challenge")
        form = {"challenger": ids["Vivienne Ashcombe"], "defender": ids["Konrad Vale"], "category": "physical",
                "challenger_bid": "Quick", "defender_bid": "Brawny", "challenger_throw": "rock",
                "defender_throw": "scissors", "action": "strike", "request_token": "bench-resolve"}
        statements[0] = []
        resolved = client.post("/challenge", data=form, headers={"HX-Request": "true"})
        counts.append(("challenge screen: resolve tap", counted()))
        if os.environ.get("BENCH_SHOW_SQL"):
            print("challenge screen: resolve tap", *statements[0], sep="\n   ")
        script = re.search(r"name=\"tests_json\" value='([^']*)'", resolved.get_data(as_text=True))
        if script:
            import html

            statements[0] = []
            client.post("/challenge", data={**form, "step": "record", "tests_json": html.unescape(script.group(1)),
                                            "request_token": "bench-record"}, headers={"HX-Request": "true"})
            counts.append(("challenge screen: record tap", counted()))
            if os.environ.get("BENCH_SHOW_SQL"):
                print("challenge screen: record tap", *statements[0], sep="\n   ")
        # Issue 29 item 1: the taps that end a challenge, one service call each. Ruth's static Mental challenge
        # against 2 Traits: won at once (the resolve tap records it); lost, then won on a retest (the call tap).
        static = {"challenger": ids["Ruth Calder"], "kind": "static", "category": "mental", "action": "other",
                  "difficulty": "2", "challenger_bid": "Shrewd", "challenger_throw": "paper", "defender_throw": "rock",
                  "request_token": "bench-static"}
        statements[0] = []
        client.post("/challenge", data=static, headers={"HX-Request": "true"})
        counts.append(("challenge screen: resolve tap, ends", counted()))
        if os.environ.get("BENCH_SHOW_SQL"):
            print("challenge screen: resolve tap, ends", *statements[0], sep="\n   ")
        lost = {**static, "defender_throw": "scissors", "request_token": "bench-retest"}
        shown = client.post("/challenge", data=lost, headers={"HX-Request": "true"}).get_data(as_text=True)
        script = re.search(r"name=\"tests_json\" value='([^']*)'", shown)
        if script:
            import html

            statements[0] = []
            client.post("/challenge", data={**lost, "step": "call", "tests_json": html.unescape(script.group(1)),
                                            "next_by": "challenger", "next_source": "ability:Investigation",
                                            "next_challenger_throw": "rock", "next_defender_throw": "scissors"},
                        headers={"HX-Request": "true"})
            counts.append(("challenge screen: call tap, ends", counted()))
            if os.environ.get("BENCH_SHOW_SQL"):
                print("challenge screen: call tap, ends", *statements[0], sep="\n   ")
        # Issue 29 item 1 on the combat board and the stray-shot screen: Konrad against Vivienne and Lys (he
        # may retest Vivienne's pair: the resolve tap shows the result so far), then the record tap; Ruth's
        # stray round past Konrad into Lys and Pim, resolved (recorded at once unless a retest is open).
        fight = {"target": ids["Konrad Vale"], "a": [ids["Vivienne Ashcombe"], ids["Lys Moreau"]],
                 "target_throw": "rock", f"a{ids['Vivienne Ashcombe']}_throw": "paper",
                 f"a{ids['Lys Moreau']}_throw": "scissors", "request_token": "bench-combat"}
        settled = {"target": ids["Pim Halloran"], "a": [ids["Ruth Calder"], ids["Marcus Hale"]], "target_throw": "paper",
                   f"a{ids['Ruth Calder']}_throw": "scissors", f"a{ids['Marcus Hale']}_throw": "scissors",
                   "request_token": "bench-combat-ends"}
        statements[0] = []
        shown = client.post("/combat", data={**settled, "step": "resolve"}, headers={"HX-Request": "true"})
        ended = "Recorded as ruling" in shown.get_data(as_text=True)
        counts.append((f"combat board: resolve tap{', ends' if ended else ''}", counted()))
        if os.environ.get("BENCH_SHOW_SQL"):
            print("board", *statements[0], sep="\n   ")
        statements[0] = []
        shown = client.post("/combat", data={**fight, "step": "resolve"}, headers={"HX-Request": "true"})
        counts.append(("combat board: resolve tap, retest left", counted()))
        script = re.search(r"name=\"tests_json\" value='([^']*)'", shown.get_data(as_text=True))
        if script:
            import html

            statements[0] = []
            client.post("/combat", data={**fight, "step": "record", "tests_json": html.unescape(script.group(1))},
                        headers={"HX-Request": "true"})
            counts.append(("combat board: record tap", counted()))
            if os.environ.get("BENCH_SHOW_SQL"):
                print("board record", *statements[0], sep="\n   ")
        # Issue 29 item 1's single shots on the character page (one service call each: larp.services.adjudicate),
        # the panel redrawn after them as the narrator sees it.
        for label, path, form in [
            ("character page: damage by hand", f"/characters/{ids['Lys Moreau']}/damage",
             {"damage_type": "lethal", "levels": "1"}),
            ("character page: healing", f"/characters/{ids['Lys Moreau']}/heal", {"kind": "lethal", "levels": "1"}),
            ("character page: feeding", f"/characters/{ids['Vivienne Ashcombe']}/feed-on",
             {"victim": ids["Ruth Calder"], "blood": "1"}),
            ("character page: blood called for", f"/characters/{ids['Pim Halloran']}/act",
             {"action": "blood", "blood": "1", "reason": "rising"}),
            ("character page: blood given", f"/characters/{ids['Pim Halloran']}/act", {"action": "feed", "blood": "1"}),
            ("character page: stake", f"/characters/{ids['Konrad Vale']}/act", {"action": "stake"}),
        ]:
            statements[0] = []
            response = client.post(path, data=form, headers={"HX-Request": "true"})
            if response.status_code != 200 or "error-box" in response.get_data(as_text=True):
                raise SystemExit(f"{label} failed: {response.get_data(as_text=True)[:300]}")
            counts.append((label, counted()))
            if os.environ.get("BENCH_SHOW_SQL"):
                print(label, *statements[0], sep="\n   ")
        # The tabletop screen's healing (a fighter spends blood, 004 "Preliminaries"): one service call on the
        # combat's one load of its fighters.
        from larp.models import TabletopCombat

        client.post("/tabletop/start", data={"characters": [str(ids["Lys Moreau"]), str(ids["Vivienne Ashcombe"])]})
        with app.app_context(), db.connection_context():
            row = TabletopCombat.select().order_by(TabletopCombat.id.desc()).get()
        statements[0] = []
        response = client.post(f"/tabletop/{row.id}/heal", data={"version": row.version, "fighter": str(ids["Lys Moreau"]),
                                                                "kind": "lethal", "levels": "1"},
                               headers={"HX-Request": "true"})
        counts.append(("tabletop screen: healing", counted()))
        statements[0] = []
        response = client.post(f"/api/v1/characters/{ids['Konrad Vale']}/destroy", json={"means": "beheading"})
        counts.append(("destroyed by the narrator (API)", counted()))
        stray = {"firer": ids["Ruth Calder"], "target": ids["Konrad Vale"], "b": [ids["Lys Moreau"], ids["Pim Halloran"]],
                 "firer_weapon": "pistol", "request_token": "bench-stray"}
        for pid in stray["b"]:
            stray.update({f"b{pid}_throw": "scissors", f"b{pid}_firer_throw": "rock"})
        statements[0] = []
        shown = client.post("/combat/bystanders", data={**stray, "step": "resolve"}, headers={"HX-Request": "true"})
        ended = "Recorded as ruling" in shown.get_data(as_text=True)
        counts.append((f"stray-shot screen: resolve tap{', ends' if ended else ''}", counted()))
        if os.environ.get("BENCH_SHOW_SQL"):
            print("stray", *statements[0], sep="\n   ")
    finally:
        sqlite3.connect, peewee.Database.execute_sql = real_connect, real_execute  # type: ignore[method-assign]
    close_all = getattr(db.obj, "close_all", None)
    if close_all is not None:
        close_all()
    elif not db.is_closed():
        db.close()
    return counts


# --- the run ---------------------------------------------------------------------------------------

def start_server(folder: Path, url: str | None, phones: int) -> tuple[subprocess.Popen, int, dict]:
    from tests.servers import free_port

    port = free_port()
    command = [sys.executable, str(Path(__file__).resolve()), "--serve", str(folder / "instance"), "--port", str(port),
               "--phones", str(phones)]
    if url:
        command += ["--database", url]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    for line in process.stdout:  # type: ignore[union-attr]
        if line.startswith("READY "):
            info = json.loads(line[len("READY "):])
            break
    else:
        raise SystemExit("the benchmark server did not start")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process, port, info
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the benchmark server does not answer")


def run(label: str, url: str | None, args) -> None:
    folder = Path(tempfile.mkdtemp(prefix="larp-bench-request-"))
    if url:
        from larp.db import db
        from tests.support import empty_postgres

        empty_postgres(url)
        db.close()
    print(f"== {label}: preparing {args.phones} characters... (load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores: other work on the machine slows every figure, ours more than the plain app's)",
          flush=True)
    process, port, info = start_server(folder, url, args.phones)
    try:
        cookie = info["cookie"]
        token = info["characters"][0][1]
        browser = {"User-Agent": USER_AGENT, "Accept": "text/html", "Accept-Encoding": "gzip, deflate",
                   "Cookie": f"session={cookie}"}
        api = {"User-Agent": "python-requests/2.32", "Accept": "application/json", "Accept-Encoding": "gzip, deflate",
               "Cookie": f"session={cookie}", "Content-Type": "application/json"}
        body = json.dumps(T5).encode()
        # The poll's address as the card page gives it.
        conn = Connection(port)
        selector = selectors.DefaultSelector()
        conn.send(selector, request_bytes("GET", f"/C/{token}", port, {"User-Agent": USER_AGENT}))
        answers: list = []
        while not answers:
            selector.select(timeout=10)
            answers = conn.receive() or []
        conn.close(selector)
        live = re.search(rb'<div id="tonight-live"[^>]*hx-get="([^"]+)"', answers[0].body).group(1).decode()
        live = live.replace("&amp;", "&")
        phone = {"HX-Request": "true", "HX-Current-URL": f"http://127.0.0.1:{port}/C/{token}",
                 "HX-Trigger": "tonight-live", "HX-Target": "tonight-live", "Accept": "*/*",
                 "Accept-Encoding": "gzip, deflate", "User-Agent": USER_AGENT}
        targets = {
            "plain": (request_bytes("GET", "/plain/", port, browser), 200),
            "bare": (request_bytes("GET", "/bench/bare", port, browser), 200),
            "bare POST": (request_bytes("POST", "/bench/bare", port, api, body), 200),
            "ruling": (request_bytes("POST", "/api/v1/challenges/rule", port, api, body), 200),
            "answer": (request_bytes("POST", "/bench/answer", port, api, body), 200),
            "plain 204": (request_bytes("GET", "/plain/204", port, phone), 204),
            "live 204": (request_bytes("GET", live, port, phone), 204),
        }
        for name, (data, expect) in targets.items():  # warm up every path
            closed_loop(port, data, 0.3, expect=expect)
        wall_per: dict[str, list[float]] = {name: [] for name in targets}
        cpu_per: dict[str, list[float]] = {name: [] for name in targets}
        for _ in range(args.rounds):
            for name, (data, expect) in targets.items():
                cpu0 = cpu_seconds(info["pid"])
                count, wall, _lat = closed_loop(port, data, args.seconds, expect=expect)
                cpu_per[name].append((cpu_seconds(info["pid"]) - cpu0) / count)
                wall_per[name].append(wall / count)

        def ratio(per: dict[str, list[float]], a: str, b: str) -> float:
            return statistics.median(x / y for x, y in zip(per[a], per[b]))

        print(f"Time per request (median of {args.rounds} rounds of {args.seconds:g} s each, 8 keep-alive "
              f"connections, waitress {WAITRESS_THREADS} threads): the server process's CPU per answer (from "
              "/proc; what a busy neighbour on the machine disturbs least) and the wall time per answer:")
        for name in targets:
            cpu, wall = statistics.median(cpu_per[name]) * 1000, statistics.median(wall_per[name]) * 1000
            print(f"  {name:<10} CPU {cpu:6.3f} ms   wall {wall:6.3f} ms  ({1000 / wall:5.0f} a second)")
        goals = [("authenticated bare route / plain Flask", "bare", "plain", 2.0),
                 ("stateless ruling / our bare route (same body)", "ruling", "bare POST", 1.15),
                 ("live poll, nothing changed / plain 204", "live 204", "plain 204", 2.0)]
        for text, a, b, goal in goals:
            by_cpu, by_wall = ratio(cpu_per, a, b), ratio(wall_per, a, b)
            print(f"  {text:<46} {by_cpu:5.2f}x CPU  {by_wall:5.2f}x wall  goal <= {goal:g}x  "
                  f"{'ok' if max(by_cpu, by_wall) <= goal else 'OVER'}")
        print(f"  (stateless ruling / bare GET: {ratio(cpu_per, 'ruling', 'bare'):.2f}x CPU)")
        print(f"  (the floor under the ruling goal: the ruling's answer alone, no ruling made / bare POST: "
              f"{ratio(cpu_per, 'answer', 'bare POST'):.2f}x CPU; the ruling / that answer alone: "
              f"{ratio(cpu_per, 'ruling', 'answer'):.2f}x CPU)")

        night = game_night(port, info["pid"], cookie, info["characters"][:args.phones], args.night)
        print(f"Game night: {args.phones} phones polling every {POLL_SECONDS:g} s for {night['seconds']:.0f} s "
              f"({night['polls'] / night['seconds']:.0f} polls a second), a damage ruling a second "
              f"({night['rulings']} recorded):")
        print(f"  latency p50 {night['p50'] * 1000:6.1f} ms  p95 {night['p95'] * 1000:6.1f} ms  "
              f"p99 {night['p99'] * 1000:6.1f} ms  max {night['max'] * 1000:6.1f} ms   goal p95 < 100 ms  "
              f"{'ok' if night['p95'] < 0.1 else 'OVER'}")
        print(f"  answers {dict(sorted(night['statuses'].items()))}, {night['changed']} found a change, "
              f"{night['dropped']} dropped (still in flight when due); server CPU {night['cpu']:.2f} s a second")
    finally:
        process.terminate()
        process.wait(timeout=20)
    print_statements_per_tap(url)


def print_statements_per_tap(url: str | None) -> None:
    """Print :func:`statements_per_tap` against the goal (at most 12 a tap)."""
    counts = statements_per_tap(url)
    print("SQL statements per tap (the whole request: a stored ruling of each kind through the API, and the taps "
          "of the challenge screen, the combat board, the stray-shot screen, the character page and the tabletop "
          "screen), goal <= 12:")
    for name, count in counts:
        print(f"  {name:<40} {count:3d}  {'ok' if count <= 12 else 'OVER'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per target per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--phones", type=int, default=1000)
    parser.add_argument("--night", type=float, default=30.0, help="seconds of the game night")
    parser.add_argument("--postgres", help="a PostgreSQL database URL (emptied first)")
    parser.add_argument("--no-postgres", action="store_true")
    parser.add_argument("--only-postgres", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--serve", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--database", help=argparse.SUPPRESS)
    parser.add_argument("--taps-only", action="store_true",
                        help="print only the SQL statements per tap (SQLite, or --postgres URL)")
    args = parser.parse_args()
    if args.taps_only:
        print_statements_per_tap(args.postgres)
        return
    if args.serve:
        serve(Path(args.serve), args.port, args.database, args.phones)
        return
    if not args.only_postgres:
        run("SQLite", None, args)
    if args.no_postgres:
        return
    if args.postgres:
        run("PostgreSQL", args.postgres, args)
    elif shutil.which("pg_virtualenv"):
        inner = (f'"{sys.executable}" "{Path(__file__).resolve()}" --only-postgres --seconds {args.seconds} '
                 f'--rounds {args.rounds} --phones {args.phones} --night {args.night} '
                 f'--postgres "postgresql://$PGUSER:$PGPASSWORD@$PGHOST:$PGPORT/$PGDATABASE"')
        subprocess.run(["pg_virtualenv", "-t", "sh", "-c", inner], check=False, stderr=subprocess.DEVNULL)
    else:
        print("PostgreSQL: skipped (give --postgres URL, or install postgresql for pg_virtualenv)")


if __name__ == "__main__":
    main()
