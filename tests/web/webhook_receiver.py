"""A local webhook receiver for the tests (issue 35): an HTTP server in a thread that answers as
scripted (a failure, a 429 with ``retry_after``, a redirect, a hang...) and keeps what it got."""

from __future__ import annotations

import json
import threading
import time
from collections import defaultdict, deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Received:
    """One request the receiver got: its path, headers (as sent), body, and when."""

    path: str
    headers: dict[str, str]
    body: bytes
    at: float
    answered: int | None = None  # the status the sender was given (None: its connection was gone)

    @property
    def json(self) -> Any:
        """The body as JSON."""
        return json.loads(self.body)

    @property
    def event_id(self) -> str | None:
        """The event id header."""
        return self.headers.get("X-Larp-Event-Id")


@dataclass
class Reply:
    """A scripted answer: ``status``, a JSON or bytes ``body``, ``headers``; ``hang`` seconds before it."""

    status: int = 204
    body: Any = b""
    headers: dict[str, str] = field(default_factory=dict)
    hang: float = 0.0


class Receiver:
    """An HTTP server on 127.0.0.1 that takes POSTs on any path.

    ``script(path, *replies)`` queues answers for a path; once they are used up it answers
    ``default`` (204). ``requests`` lists what came, in order; ``overlap`` is the most requests of one
    path it ever had in flight at once (a webhook must get one delivery at a time)."""

    def __init__(self, default: Reply | None = None):
        self.default = default or Reply()
        self.requests: list[Received] = []
        self._scripts: dict[str, deque[Reply]] = defaultdict(deque)
        self._lock = threading.Lock()
        self._in_flight: dict[str, int] = defaultdict(int)
        self.overlap = 0
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - http.server's name
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                path = self.path
                with receiver._lock:
                    receiver._in_flight[path] += 1
                    receiver.overlap = max(receiver.overlap, receiver._in_flight[path])
                    received = Received(path, dict(self.headers), body, time.monotonic())
                    receiver.requests.append(received)
                    script = receiver._scripts[path]
                    reply = script.popleft() if script else receiver.default
                done = False
                try:
                    if reply.hang:
                        time.sleep(reply.hang)
                    data = reply.body if isinstance(reply.body, bytes) else json.dumps(reply.body).encode()
                    # No longer in flight once the answer is on its way: the sender may send the next delivery
                    # the moment it reads it, before this thread runs again (a loaded machine counted two).
                    with receiver._lock:
                        receiver._in_flight[path] -= 1
                        done = True
                    self.send_response(reply.status)
                    for name, value in reply.headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                    self.wfile.flush()
                    received.answered = reply.status
                except OSError:
                    pass  # the sender gave up (a timeout): nothing more to say
                finally:
                    if not done:
                        with receiver._lock:
                            receiver._in_flight[path] -= 1

            def log_message(self, *args):  # quiet
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_port
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._thread.start()

    def url(self, path: str = "/hook") -> str:
        """The address of ``path`` on this receiver."""
        return f"http://127.0.0.1:{self.port}{path}"

    def script(self, path: str, *replies: Reply) -> None:
        """Answer the next requests on ``path`` with ``replies``, in order."""
        with self._lock:
            self._scripts[path].extend(replies)

    def on(self, path: str) -> list[Received]:
        """What came on ``path``, in order."""
        with self._lock:
            return [r for r in self.requests if r.path == path]

    def wait_for(self, path: str, count: int, timeout: float = 30.0, distinct: bool = True) -> list[Received]:
        """Wait until ``path`` got ``count`` requests (``distinct``: with different event ids); what it got.

        Raises:
            AssertionError: not within ``timeout`` seconds.
        """
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            got = self.on(path)
            if len({r.event_id for r in got} if distinct else got) >= count:
                return got
            time.sleep(0.05)
        raise AssertionError(f"{path} got {len(self.on(path))} requests, not {count}, within {timeout} s")

    def close(self) -> None:
        """Stop the server."""
        self.server.shutdown()
        self.server.server_close()


def first_arrivals(requests: list[Received]) -> list[str]:
    """The event ids in the order each first arrived (a repeat is a second delivery of the same event)."""
    return list(dict.fromkeys(r.event_id for r in requests if r.event_id))
