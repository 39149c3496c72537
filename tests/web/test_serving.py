"""One address cannot hold ``larp serve`` (issue 28 item 2; larp/serving.py).

150 connections that sent nothing filled waitress's connection limit (100) and every other client
timed out while they stayed open. Here ``larp serve`` runs with a small limit (40 connections, 4 per
address) so the test stays light; ``tests/benchmarks/bench_idle_connections.py`` measures the
defaults (400, 24) and prints the ordinary requests' times.

Another address on one machine: the client binds 127.0.0.2 (all of 127/8 is this machine on Linux).
"""

from __future__ import annotations

import http.client
import socket
import time

import pytest

from tests.servers import Server

LIMIT, PER_ADDRESS = 40, 4


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    served = Server(tmp_path_factory.mktemp("serving") / "instance", threads=4,
                    args=("--connection-limit", str(LIMIT), "--connections-per-address", str(PER_ADDRESS)))
    try:
        served.wait()
        yield served
    finally:
        served.stop()


def open_idle(server: Server, count: int, first_bytes: bytes = b"") -> list[socket.socket]:
    """``count`` connections from 127.0.0.1 that send ``first_bytes`` (nothing, or half a request)."""
    held = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=5, source_address=("127.0.0.1", 0))
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


def ordinary_request(server: Server) -> int:
    """A plain page asked from another address (127.0.0.2) on a new connection: its status, or a
    timeout error after 10 s."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10, source_address=("127.0.0.2", 0))
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
    line and no more) from one address: another address's requests are answered, and the idle
    address keeps at most its cap of connections open."""
    held = open_idle(server, 2 * LIMIT, first_bytes)
    try:
        assert [ordinary_request(server) for _ in range(5)] == [200] * 5
        deadline = time.monotonic() + 5
        while still_open(held) > PER_ADDRESS and time.monotonic() < deadline:
            time.sleep(0.1)
        assert still_open(held) == PER_ADDRESS
    finally:
        for sock in held:
            sock.close()


def test_a_browsers_keep_alive_connection_is_given_up_before_its_request_is(server):
    """The cap closes the address's longest-idle connection to make room, never one whose request is
    being answered: an address at its cap that opens one more still gets every answer."""
    held = open_idle(server, PER_ADDRESS)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10, source_address=("127.0.0.1", 0))
        conn.request("GET", "/login")
        response = conn.getresponse()
        assert response.status == 200 and response.read()
        conn.close()
        assert still_open(held) == PER_ADDRESS - 1  # the oldest idle one made room
    finally:
        for sock in held:
            sock.close()


@pytest.mark.parametrize("env, options, expected", [
    ({}, [], {"per_address": 24, "connection_limit": 400}),
    ({"LARP_BEHIND_PROXY": "1"}, [], {"per_address": 0, "connection_limit": 400}),
    ({}, ["--connections-per-address", "6", "--connection-limit", "50"], {"per_address": 6, "connection_limit": 50}),
])
def test_larp_serve_caps_each_address_unless_behind_a_proxy(tmp_path, monkeypatch, env, options, expected):
    """Issue 28 item 2: ``larp serve`` keeps 24 connections per address by default; behind a reverse proxy
    (LARP_BEHIND_PROXY, where every connection comes from the proxy) the cap is off unless asked for."""
    from click.testing import CliRunner

    from larp import serving
    from larp.cli import main
    from tests.conftest import fresh_database_url

    served = []
    monkeypatch.setattr(serving, "serve", lambda app, **kw: served.append(kw))
    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / "config.py").write_text("SECRET_KEY = 'x'\n")
    result = CliRunner().invoke(main, ["serve", "--port", "1", *options], catch_exceptions=False,
                                env={"LARP_INSTANCE_PATH": str(instance),
                                     "LARP_DATABASE_URL": fresh_database_url(tmp_path / "db"), **env})
    assert result.exit_code == 0, result.output
    assert {key: served[0][key] for key in expected} == expected
