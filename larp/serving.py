"""How ``larp serve`` keeps its connections, so that no one address can hold the server (issue 28 item 2).

waitress serves at most ``connection_limit`` open connections (its default is 100); past that it
stops accepting, and every other client waits. A connection that sends nothing keeps its place
until ``channel_timeout`` (120 s) has passed, checked every ``cleanup_interval`` (30 s), and
there is no timeout for a request's first bytes and no cap per address (stack-notes 8.4): 150
silent connections from one phone on the event network stopped every other client. A higher
limit alone fixes nothing (the phone opens more), and a short timeout alone only shortens the
wait (it opens them again at once).

What :func:`create_server` does instead:

- **a cap per address** (:data:`PER_ADDRESS` connections): at the cap, a new connection from that
  address first closes that address's own longest-idle connection (one with no request being
  answered: silent, half-sent, or kept alive after its last answer), and is refused only when
  every one of its connections is busy. So one address holds at most its cap, whatever it
  opens, while a browser (at most six connections to a host) or a few players behind one NAT
  only ever lose idle keep-alive connections, which browsers open again without a word;
- a **larger limit** (:data:`CONNECTION_LIMIT`, ``poll()`` instead of ``select()``, which stops at
  1,024 file descriptors) so that many phones fit, each within its cap;
- **shorter idle timeouts** (:data:`CHANNEL_TIMEOUT` s, checked every :data:`CLEANUP_INTERVAL` s),
  so the idle connections of many addresses give their places back soon.

Worker threads are not at stake: waitress hands a request to a thread only once it has arrived
whole. Behind a reverse proxy every connection comes from the proxy, so there the cap is off
(``larp serve`` with ``LARP_BEHIND_PROXY``), and the proxy limits each client.
"""

from __future__ import annotations

import logging
from typing import Any

from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import MultiSocketServer, TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher

#: Open connections the server keeps at most (waitress's default is 100).
CONNECTION_LIMIT = 400
#: Open connections one client address keeps at most (0: no cap).
PER_ADDRESS = 24
#: Seconds a connection with no request being answered stays open.
CHANNEL_TIMEOUT = 30
#: Seconds between the checks for such connections.
CLEANUP_INTERVAL = 5


class FairChannel(HTTPChannel):
    """waitress's connection, leaving its address's count (:attr:`FairServer.by_address`) when it closes."""

    #: The client address it counts against (set when it is accepted).
    host: Any = None

    def del_channel(self, map=None) -> None:
        """Close as waitress does, and leave the address's count."""
        own = self.server.by_address.get(self.host)
        if own is not None:
            own.pop(id(self), None)
            if not own:
                self.server.by_address.pop(self.host, None)
        super().del_channel(map)


class FairServer(TcpWSGIServer):
    """waitress's TCP server, keeping at most :attr:`per_address` connections per client address
    (see the module docstring)."""

    channel_class = FairChannel
    #: The cap per address (0: none).
    per_address: int = PER_ADDRESS

    def __init__(self, *args: Any, **kwargs: Any):
        #: Each client address's open connections (``id(channel)`` to the channel).
        self.by_address: dict[Any, dict[int, FairChannel]] = {}
        super().__init__(*args, **kwargs)

    def handle_accept(self) -> None:
        """Accept a connection, making room for it within its address's cap (or refusing it)."""
        try:
            accepted = self.accept()
            if accepted is None:
                return
            conn, addr = accepted
            self.set_socket_options(conn)
        except OSError:  # as waitress: a bogus socket, or one closed before it was accepted
            if self.adj.log_socket_errors:
                self.logger.warning("server accept() threw an exception", exc_info=True)
            return
        addr = self.fix_addr(addr)
        host = addr[0] if isinstance(addr, tuple) and addr else addr
        if self.per_address and not self._room_for(host):
            conn.close()
            return
        channel = self.channel_class(self, conn, addr, self.adj, map=self._map)
        channel.host = host
        self.by_address.setdefault(host, {})[id(channel)] = channel

    def _room_for(self, host: Any) -> bool:
        """Whether a new connection from ``host`` fits its address's cap, closing that address's
        longest-idle connection if it must. Runs in the server's one event-loop thread, where
        connections are accepted and closed, so the count does not change meanwhile."""
        own = self.by_address.get(host, {})
        if len(own) < self.per_address:
            return True
        idle = [channel for channel in list(own.values())
                if not channel.requests and not channel.total_outbufs_len and not channel.will_close]
        if not idle:
            return False
        min(idle, key=lambda channel: channel.last_activity).handle_close()
        return True


def create_server(app: Any, *, host: str, port: int, threads: int, per_address: int = PER_ADDRESS,
                  connection_limit: int = CONNECTION_LIMIT, channel_timeout: int = CHANNEL_TIMEOUT,
                  cleanup_interval: int = CLEANUP_INTERVAL, **options: Any):
    """A waitress server for ``app`` on ``host``:``port`` (every address it resolves to) with
    ``threads`` worker threads, keeping its connections as the module docstring says.

    Args:
        per_address: open connections one client address keeps at most (0: no cap).
        connection_limit: open connections in all.
        channel_timeout: seconds an idle connection stays open.
        cleanup_interval: seconds between the checks for idle connections.
        options: more waitress adjustments (``ident``...).

    Returns:
        The server; ``run()`` serves until interrupted.
    """
    adj = Adjustments(host=host, port=port, threads=threads, connection_limit=connection_limit,
                      channel_timeout=channel_timeout, cleanup_interval=cleanup_interval,
                      asyncore_use_poll=True, **options)
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(adj.threads)
    sockets: dict[int, Any] = {}
    servers = []
    for sockinfo in adj.listen:
        server = FairServer(app, sockets, dispatcher=dispatcher, adj=adj, sockinfo=sockinfo)
        server.per_address = per_address
        servers.append(server)
    if len(servers) == 1:
        return servers[0]
    return MultiSocketServer(sockets, adj, [(s.effective_host, s.effective_port) for s in servers], dispatcher,
                             servers[-1].log_info)


def serve(app: Any, **kwargs: Any) -> None:
    """Serve ``app`` until interrupted (:func:`create_server`'s arguments), as ``waitress.serve`` does."""
    logging.basicConfig()  # waitress's warnings on the console (idempotent)
    server = create_server(app, **kwargs)
    server.print_listen("Serving on http://{}:{}")
    server.run()
