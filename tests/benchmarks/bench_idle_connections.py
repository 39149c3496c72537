"""Benchmark: one address holding idle connections against everyone else (issue 28 item 2).

Run it (it prints figures; it is not a test and asserts nothing):

    .venv/bin/python tests/benchmarks/bench_idle_connections.py [--seconds 20] [--limit N]

It starts ``larp serve`` with its default options (the demo chronicle on SQLite, 8 threads) and
times ordinary requests (``GET /login`` on a new connection each, as a phone opening a page does)
from 127.0.0.2, first with nothing else going on, then while 127.0.0.1 holds twice the server's
connection limit of idle connections (``larp.serving.CONNECTION_LIMIT``; waitress's 100 on a larp
without it): silent ones, then ones that sent half a request, then silent ones that the holder opens
again as soon as the server closes one (a flood of new connections, thousands a second: the hardest
case, beyond the issue's). The holder runs in its own process. It prints each phase's requests,
p50, p95 and worst time, the requests that got no answer within 5 s, and how many of the held
connections are still open to the holder (those waiting in the server's accept queue count), against
the goal (p95 under 100 ms).

On one machine "another address" is 127.0.0.2 (all of 127/8 is the machine itself on Linux).
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing
import resource
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.servers import Server  # noqa: E402

GOAL_P95 = 0.100
HOLDER, OTHER = "127.0.0.1", "127.0.0.2"


def limit_in_use() -> int:
    """The connection limit ``larp serve`` uses by default."""
    try:
        from larp.serving import CONNECTION_LIMIT
    except ImportError:  # a larp from before larp/serving.py: waitress's own default
        return 100
    return CONNECTION_LIMIT


def _closed(sock: socket.socket | None) -> bool:
    if sock is None:
        return True
    try:
        return sock.recv(1) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def _hold(port: int, count: int, first_bytes: bytes, reopen: bool, asked, answers, stop) -> None:
    """The holder's own process (so that its work does not slow the timing of ordinary requests in
    this one): open ``count`` connections, then, until ``stop``, open again those the server closed
    (when ``reopen``), and answer each question on ``asked`` with (connections open, reopened)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    def connect() -> socket.socket | None:
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(HOLDER, 0))
            if first_bytes:
                sock.sendall(first_bytes)
            sock.setblocking(False)
            return sock
        except OSError:
            return None

    sockets = [connect() for _ in range(count)]
    reopened = 0
    answers.put("ready")
    while not stop.is_set():
        if reopen:
            for i, sock in enumerate(sockets):
                if _closed(sock):
                    if sock is not None:
                        sock.close()
                    sockets[i] = connect()
                    reopened += 1
        while not asked.empty():
            asked.get()
            answers.put((sum(not _closed(sock) for sock in sockets), reopened))
        stop.wait(0.05)
    for sock in sockets:
        if sock is not None:
            sock.close()


class Holder:
    """``count`` connections from 127.0.0.1 that send ``first_bytes`` and then nothing, held by another
    process; with ``reopen``, each is opened again as soon as the server closes it (a flood of connections)."""

    def __init__(self, port: int, count: int, first_bytes: bytes, reopen: bool):
        self.count = count
        self._asked, self._answers, self._stop = (multiprocessing.Queue(), multiprocessing.Queue(),
                                                  multiprocessing.Event())
        self._process = multiprocessing.Process(
            target=_hold, args=(port, count, first_bytes, reopen, self._asked, self._answers, self._stop), daemon=True)

    def start(self) -> None:
        self._process.start()
        assert self._answers.get(timeout=60) == "ready"

    def state(self) -> tuple[int, int]:
        """(connections the server keeps open now, connections opened again so far)."""
        self._asked.put("count")
        return self._answers.get(timeout=30)

    def stop(self) -> None:
        self._stop.set()
        self._process.join(timeout=10)


def ordinary(port: int) -> float | None:
    """Seconds one ordinary request from 127.0.0.2 takes (a new connection), or None: no answer in 5 s."""
    start = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5, source_address=(OTHER, 0))
    try:
        conn.request("GET", "/login")
        response = conn.getresponse()
        response.read()
        return time.perf_counter() - start if response.status == 200 else None
    except OSError:
        return None
    finally:
        conn.close()


def phase(name: str, port: int, seconds: float, holder: Holder | None) -> None:
    times, failed = [], 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        took = ordinary(port)
        if took is None:
            failed += 1
        else:
            times.append(took)
        time.sleep(0.05)
    times.sort()
    p95 = times[max(int(len(times) * 0.95) - 1, 0)] if times else float("inf")
    if holder is not None:
        still, reopened = holder.state()
        held = f"; the server kept {still} of the {holder.count} held open" + (f" ({reopened} opened again)"
                                                                                if reopened else "")
    else:
        held = ""
    verdict = "meets" if p95 < GOAL_P95 and not failed else "MISSES"
    print(f"{name:44} {len(times):4} answered, {failed} unanswered in 5 s; "
          f"p50 {statistics.median(times) * 1000 if times else float('inf'):6.1f} ms, "
          f"p95 {p95 * 1000:6.1f} ms, worst {max(times) * 1000 if times else float('inf'):7.1f} ms "
          f"({verdict} the goal: p95 < {GOAL_P95 * 1000:.0f} ms){held}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20, help="How long each phase sends requests.")
    parser.add_argument("--limit", type=int, default=None,
                        help="The server's connection limit (default: larp serve's own); twice it are held.")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # twice the limit of sockets, and the server's
    limit = args.limit or limit_in_use()
    with tempfile.TemporaryDirectory() as folder:
        server = Server(Path(folder) / "instance")
        server.wait()
        try:
            print(f"larp serve on port {server.port}; connection limit {limit}, holding {2 * limit} idle "
                  f"connections from {HOLDER}, timing GET /login from {OTHER}")
            phase("nothing else going on", server.port, args.seconds / 2, None)
            half = b"GET /login HTTP/1.1\r\nHost: larp\r\n"
            for name, first, reopen in (("silent connections held", b"", False),
                                        ("half-sent requests held", half, False),
                                        ("silent, each reopened when closed", b"", True)):
                holder = Holder(server.port, 2 * limit, first, reopen)
                holder.start()
                try:
                    phase(f"{2 * limit} {name}", server.port, args.seconds, holder)
                finally:
                    holder.stop()
                time.sleep(1)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
