"""Benchmark: what live state costs (issue 18): 50 open screens polling every 5 s.

Run it (it prints figures; it is not a test and asserts nothing):

    .venv/bin/python tests/benchmarks/bench_live.py [--clients 50] [--seconds 30]

It starts ``larp serve`` (waitress, its default 8 threads, the demo chronicle on SQLite) and opens
``--clients`` keep-alive connections that each poll like an open page: the player's card page
(``/c/<token>/live?v=...``) in the first run, the narrator's character page
(``/characters/<id>/live?v=...``, logged in) in the second, every 5 s with the phases spread out, with
the headers htmx sends. Meanwhile a narrator changes one character every 10 s (a blood point, written
straight into the database), so some polls find a change. It prints the server process's CPU seconds
per second of wall time (from /proc), the polls answered, and the bytes each poll costs on the wire
(request and response, headers included) for "nothing changed" (204) and "changed" (200).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import socket
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.servers import ServedApp  # noqa: E402

INTERVAL = 5.0


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of process ``pid`` (Linux /proc), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Poller:
    """One open page: a keep-alive connection asking "still this?" every few seconds."""

    def __init__(self, port: int, first_url: str, cookie: str | None, referer: str):
        self.port, self.url, self.cookie, self.referer = port, first_url, cookie, referer
        self.sock: socket.socket | None = None
        self.results: list[tuple[int, int, int]] = []  # (status, bytes sent, bytes received)
        self.reconnects = 0

    def _connect(self) -> None:
        self.sock = socket.create_connection(("127.0.0.1", self.port), timeout=10)

    def poll(self) -> None:
        if self.sock is None:
            self._connect()
        lines = [f"GET {self.url} HTTP/1.1", f"Host: 127.0.0.1:{self.port}", "HX-Request: true",
                 f"HX-Current-URL: {self.referer}", "Accept: */*", "Accept-Encoding: gzip, deflate",
                 "User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36",
                 f"Referer: {self.referer}", "Connection: keep-alive"]
        if self.cookie:
            lines.append(f"Cookie: {self.cookie}")
        request = ("\r\n".join(lines) + "\r\n\r\n").encode()
        self.sock.sendall(request)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        length = re.search(rb"(?im)^content-length:\s*(\d+)", head)
        need = int(length.group(1)) if length else 0
        while len(body) < need:
            body += self.sock.recv(65536)
        self.results.append((status, len(request), len(head) + 4 + len(body)))
        if re.search(rb"(?im)^connection:\s*close", head):
            self.sock.close()  # the server closes after this answer: the next poll opens a new connection
            self.sock = None
            self.reconnects += 1
        if status == 200:
            import gzip

            text = gzip.decompress(body).decode() if re.search(rb"(?im)^content-encoding:\s*gzip", head) else body.decode()
            found = re.search(r'<div id="(?:tonight-live|live-poll)"[^>]*hx-get="([^"]+)"', text)
            if found:
                self.url = found.group(1).replace("&amp;", "&")


def run(served: ServedApp, pollers: list[Poller], seconds: float, change) -> None:
    stop = time.monotonic() + seconds

    def client(poller: Poller, phase: float) -> None:
        time.sleep(phase)
        while time.monotonic() < stop:
            started = time.monotonic()
            poller.poll()
            time.sleep(max(0.0, INTERVAL - (time.monotonic() - started)))

    def changer() -> None:
        while time.monotonic() < stop - 1:
            time.sleep(10)
            change()

    threads = [threading.Thread(target=client, args=(p, i * INTERVAL / len(pollers)), daemon=True)
               for i, p in enumerate(pollers)]
    threads.append(threading.Thread(target=changer, daemon=True))
    cpu0, wall0 = cpu_seconds(served.process.pid), time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    cpu1, wall1 = cpu_seconds(served.process.pid), time.monotonic()
    results = [r for p in pollers for r in p.results]
    quiet = [r for r in results if r[0] == 204]
    changed = [r for r in results if r[0] == 200]
    others = [r for r in results if r[0] not in (200, 204)]
    print(f"  {len(pollers)} clients for {wall1 - wall0:.0f} s: {len(results)} polls "
          f"({len(results) / (wall1 - wall0):.1f} a second), {len(changed)} found a change"
          + (f", {len(others)} other answers" if others else ""))
    reconnects = sum(p.reconnects for p in pollers)
    if reconnects:
        print(f"  the server closed the connection after {reconnects} answers (waitress does after a 204): "
              "each such poll opens a new TCP connection")
    print(f"  server CPU: {(cpu1 - cpu0) / (wall1 - wall0):.3f} s per second of wall time "
          f"({(cpu1 - cpu0) / max(len(results), 1) * 1000:.2f} ms a poll)")
    for label, rows in (("nothing changed (204)", quiet), ("changed (200)", changed)):
        if rows:
            print(f"  {label:<22} {statistics.mean(r[1] for r in rows):6.0f} B sent, "
                  f"{statistics.mean(r[2] for r in rows):6.0f} B received a poll")
    for p in pollers:
        if p.sock:
            p.sock.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        served = ServedApp(Path(folder) / "instance")
        database = served.instance / "larp.sqlite3"
        try:
            with sqlite3.connect(database) as con:
                characters = con.execute("select id, card_token from character order by id").fetchall()

            def change() -> None:
                target = random.choice(characters)[0]
                with sqlite3.connect(database, timeout=10) as con:
                    con.execute("update character set blood_current = max(blood_current - 1, 0), "
                                "version = version + 1 where id = ?", (target,))

            import urllib.request

            def first_url(page_url: str, element: str, cookie: str | None = None) -> str:
                request = urllib.request.Request(page_url, headers={"Cookie": cookie} if cookie else {})
                html = urllib.request.urlopen(request).read().decode()
                return re.search(rf'<div id="{element}"[^>]*hx-get="([^"]+)"', html).group(1).replace("&amp;", "&")

            print(f"larp serve (waitress, 8 threads) at {served.base_url}; polls every {INTERVAL:.0f} s")
            print("Players' card pages (/c/<token>/live):")
            pollers = []
            for i in range(args.clients):
                _, token = characters[i % len(characters)]
                page = f"{served.base_url}/C/{token}"
                pollers.append(Poller(served.port, first_url(page, "tonight-live"), None, page))
            run(served, pollers, args.seconds, change)

            opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
            opener.open(served.login_link())
            cookie = None
            for handler in opener.handlers:
                if isinstance(handler, urllib.request.HTTPCookieProcessor):
                    cookie = "; ".join(f"{c.name}={c.value}" for c in handler.cookiejar)
            print("Narrators' character pages (/characters/<id>/live, logged in):")
            pollers = []
            for i in range(args.clients):
                character_id, _ = characters[i % len(characters)]
                page = f"{served.base_url}/characters/{character_id}"
                pollers.append(Poller(served.port, first_url(page, "live-poll", cookie), cookie, page))
            run(served, pollers, args.seconds, change)
        finally:
            served.stop()


if __name__ == "__main__":
    main()
