"""``larp serve`` in a subprocess: several on one database, as an organisation runs it behind a proxy
(issue 13; ``tests/web/test_concurrency.py``, ``tests/benchmarks/bench_concurrency.py``), and the one
the browser tests and browser benchmarks drive (:class:`ServedApp`)."""

from __future__ import annotations

import http.client
import os
import re
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """One ``larp serve`` subprocess (started at once; :meth:`wait` until it answers).

    ``args`` are more ``larp serve`` options (``--empty``); ``env`` more environment variables;
    ``threads`` None leaves waitress's own default."""

    def __init__(self, instance: Path, database_url: str | None = None, threads: int | None = 8,
                 host: str = "127.0.0.1", args: Sequence[str] = (), env: dict[str, str] | None = None):
        self.instance = instance
        self.port = free_port()
        self.host = "127.0.0.1"
        self.base_url = f"http://127.0.0.1:{self.port}"
        environ = {k: v for k, v in os.environ.items() if k != "LARP_DATABASE_URL"}
        environ.update(LARP_INSTANCE_PATH=str(instance), PYTHONUNBUFFERED="1", **(env or {}))
        if database_url:
            environ["LARP_DATABASE_URL"] = database_url
        command = [sys.executable, "-m", "larp", "serve", "--host", host, "--port", str(self.port), *args]
        if threads is not None:
            command += ["--threads", str(threads)]
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=environ, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def _ready(self) -> bool:
        """Whether what it printed says it serves (a subclass may wait for more)."""
        return any("serving on" in line for line in self.lines)

    def wait(self, timeout: float = 60) -> None:
        """Return once the server answers HTTP.

        Raises:
            RuntimeError: it exited or did not come up (with what it printed).
        """
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("larp serve exited:\n" + "\n".join(self.lines))
            if self._ready():
                try:
                    with socket.create_connection((self.host, self.port), timeout=1):
                        return
                except OSError:
                    pass
            time.sleep(0.1)
        raise RuntimeError("larp serve did not come up:\n" + "\n".join(self.lines))

    def login_path(self) -> str | None:
        """The path of the one-time login link it printed, if any."""
        for line in self.lines:
            match = re.search(r"http://127\.0\.0\.1:\d+(/login/link/\S+)", line)
            if match:
                return match.group(1)
        return None

    def stop(self) -> None:
        """Stop the process (and wait for it)."""
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)


def start_servers(count: int, instance: Path, database_url: str | None, threads: int = 8) -> list[Server]:
    """``count`` servers on one instance folder and database, started at the same moment."""
    servers = [Server(instance, database_url, threads) for _ in range(count)]
    try:
        for server in servers:
            server.wait()
    except Exception:
        for server in servers:
            server.stop()
        raise
    return servers


@dataclass
class Reply:
    """One HTTP answer: status, headers (lower-case names), body, and how long it took (s)."""

    status: int
    headers: dict[str, str]
    body: bytes
    seconds: float = 0.0


def call(server: Server, method: str, path: str, *, body: bytes | None = None,
         headers: dict[str, str] | None = None) -> Reply:
    """One request on a new connection (no redirect followed)."""
    start = time.perf_counter()
    conn = http.client.HTTPConnection(server.host, server.port, timeout=60)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        data = response.read()
        return Reply(response.status, {k.lower(): v for k, v in response.getheaders()}, data,
                     time.perf_counter() - start)
    finally:
        conn.close()


def at_once(count: int, servers: Sequence[Server], request: Callable[[int, Server], Reply]) -> list[Reply]:
    """Run ``request(i, server)`` for i in 0..count-1 from ``count`` threads released together,
    spread over ``servers`` in turn; the replies in order."""
    barrier = threading.Barrier(count)
    replies: list[Reply | None] = [None] * count
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=60)
            replies[i] = request(i, servers[i % len(servers)])
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return [r for r in replies if r is not None]


@dataclass
class Session:
    """A logged-in browser: its session cookie and CSRF token (valid on every server sharing the
    instance folder's secret key)."""

    cookie: str
    csrf: str = ""
    extra: dict[str, str] = field(default_factory=dict)

    def headers(self, **more: str) -> dict[str, str]:
        """Request headers carrying the cookie."""
        return {"Cookie": self.cookie, **more}


def anonymous(server: Server) -> Session:
    """A fresh visitor: the cookie and CSRF token of the login page."""
    page = call(server, "GET", "/login")
    cookie = page.headers.get("set-cookie", "").split(";", 1)[0]
    match = re.search(rb'name="csrf_token" value="([^"]+)"', page.body)
    return Session(cookie=cookie, csrf=match.group(1).decode() if match else "")


def log_in(server: Server, username: str, password: str) -> Session:
    """Log in with a password.

    Raises:
        RuntimeError: the login was refused.
    """
    visitor = anonymous(server)
    reply = call(server, "POST", "/login", body=urlencode(
        {"csrf_token": visitor.csrf, "username": username, "password": password}).encode(),
        headers=visitor.headers(**{"Content-Type": "application/x-www-form-urlencoded"}))
    if reply.status != 303:
        raise RuntimeError(f"login as {username} answered {reply.status}")
    return Session(cookie=reply.headers["set-cookie"].split(";", 1)[0])


class ServedApp(Server):
    """``larp serve`` running in a subprocess (a :class:`Server`), up once it has
    printed the one-time login link, with the console output it printed."""

    def __init__(self, instance: Path, host: str = "127.0.0.1", *args: str, env: dict[str, str] | None = None):
        super().__init__(instance, threads=None, host=host, args=args, env=env)
        self.wait()

    def _ready(self) -> bool:
        return self.login_path() is not None

    def login_link(self) -> str | None:
        """The whole one-time login link it printed, if any."""
        path = self.login_path()
        return path and self.base_url + path

    def card_codes(self, *names: str) -> list[str]:
        """The card codes of the characters called ``names`` in the served app's SQLite database."""
        import sqlite3

        with sqlite3.connect(self.instance / "larp.sqlite3") as con:
            return [con.execute("select short_code from character where name = ?", (n,)).fetchone()[0]
                    for n in names]
