"""One address cannot hold ``larp serve`` (issue 28 item 2; larp/serving.py).

150 connections that sent nothing filled waitress's connection limit (100) and every other client
timed out while they stayed open. Here ``larp serve`` runs with a small limit (40 connections) so
the test stays light; ``tests/benchmarks/bench_idle_connections.py`` measures the default (400) and
prints the ordinary requests' times.

Another address on one machine: the client binds 127.0.0.2 (all of 127/8 is this machine on Linux).
"""

from __future__ import annotations

import http.client
import socket
import time

import pytest

from tests.servers import Server

LIMIT = 40


@pytest.fixture
def server(tmp_path_factory):
    """``larp serve`` with a limit of 40 connections, one for each test: what another test held open is
    not still closing when it starts."""
    served = Server(tmp_path_factory.mktemp("serving") / "instance", threads=4,
                    args=("--empty", "--connection-limit", str(LIMIT)))
    try:
        served.wait()
        yield served
    finally:
        served.stop()


def open_idle(server: Server, count: int, first_bytes: bytes = b"", source: str = "127.0.0.1") -> list[socket.socket]:
    """``count`` connections from ``source`` that send ``first_bytes`` (nothing, or half a request)."""
    held = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=5, source_address=(source, 0))
        if first_bytes:
            sock.sendall(first_bytes)
        held.append(sock)
    return held


def still_open(sockets: list[socket.socket]) -> int:
    """How many of ``sockets`` the server has not closed."""
    count = 0
    for sock in sockets:
        sock.setblocking(False)
        try:
            count += sock.recv(1) != b""
        except BlockingIOError:
            count += 1
        except OSError:
            pass
    return count


def ordinary_request(server: Server, source: str = "127.0.0.2") -> int:
    """A plain page asked from ``source`` (another address) on a new connection: its status, or a
    timeout error after 10 s."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10, source_address=(source, 0))
    try:
        conn.request("GET", "/login")
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


@pytest.mark.parametrize("first_bytes", [b"", b"GET /login HTTP/1.1\r\nHost: larp\r\n"], ids=["silent", "half-sent"])
def test_twice_the_limit_of_idle_connections_from_one_address_hold_nobody_up(server, first_bytes):
    """Issue 28 item 2: twice the connection limit of idle connections (silent, or a request's first
    line and no more) from one address: another address's requests are answered, each taking the
    place of one of the idle ones, and the server never holds more than its limit."""
    held = open_idle(server, 2 * LIMIT, first_bytes)
    try:
        time.sleep(0.5)  # the server has taken them all in (those past the limit gave way to later ones)
        assert still_open(held) <= LIMIT
        assert [ordinary_request(server) for _ in range(5)] == [200] * 5
        assert still_open(held) < LIMIT  # a newcomer took an idle connection's place (each closes after it)
    finally:
        for sock in held:
            sock.close()


def test_below_the_limit_nothing_is_closed(server):
    """A burst from one address below the limit (players behind one router, a proxy) is never cut:
    its idle connections all stay open, and its requests are answered."""
    held = open_idle(server, LIMIT // 2, source="127.0.0.3")
    try:
        assert [ordinary_request(server, "127.0.0.3") for _ in range(5)] == [200] * 5
        assert still_open(held) == LIMIT // 2
    finally:
        for sock in held:
            sock.close()


def test_at_the_limit_the_address_holding_the_most_gives_way(server):
    """At the limit the newcomer takes the place of an idle connection of the address holding the most,
    not of a smaller holder: 127.0.0.4 keeps its few while 127.0.0.1 holds the rest."""
    few = open_idle(server, 3, source="127.0.0.4")
    many = open_idle(server, 2 * LIMIT)
    try:
        time.sleep(0.5)
        assert [ordinary_request(server) for _ in range(5)] == [200] * 5
        assert still_open(few) == 3
    finally:
        for sock in few + many:
            sock.close()


@pytest.mark.parametrize("options, expected", [([], 400), (["--connection-limit", "50"], 50)])
def test_larp_serve_passes_its_connection_limit(tmp_path, monkeypatch, options, expected):
    """Issue 28 item 2: ``larp serve`` serves through larp/serving.py with its connection limit (400 by
    default, ``--connection-limit``)."""
    from click.testing import CliRunner

    from larp import serving
    from larp.cli import main
    from tests.support import fresh_database_url

    served = []
    monkeypatch.setattr(serving, "serve", lambda app, **kw: served.append(kw))
    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / "config.py").write_text("SECRET_KEY = 'x'\n")
    result = CliRunner().invoke(main, ["serve", "--port", "1", *options], catch_exceptions=False,
                                env={"LARP_INSTANCE_PATH": str(instance),
                                     "LARP_DATABASE_URL": fresh_database_url(tmp_path / "db")})
    assert result.exit_code == 0, result.output
    assert served[0]["connection_limit"] == expected
