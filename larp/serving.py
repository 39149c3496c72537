"""How ``larp serve`` keeps its connections, so that no one address can hold the server (issue 28 item 2).

waitress serves at most ``connection_limit`` open connections (its default is 100); past that it
stops accepting, and every other client waits. A connection that sends nothing keeps its place
until ``channel_timeout`` (120 s) has passed, checked every ``cleanup_interval`` (30 s), and there
is no timeout for a request's first bytes and no cap per address (stack-notes 8.4): 150 silent
connections from one phone on the event network stopped every other client. A higher limit alone
fixes nothing (the phone opens more), and a short timeout alone only shortens the wait (it opens
them again at once).

What :func:`create_server` does instead: **when the server is full, a new connection takes the
place of an idle one of the address that holds the most** (:meth:`FairServer.handle_accept`).
Idle means no request being answered: silent, half-sent, or kept alive after its last answer. So
whoever holds connections open without using them gives them up first, one for each newcomer,
however many he opens and from however many addresses; a newcomer is turned away only when every
open connection is answering a request (the server is busy, not held). Below the limit nothing is
closed, so a burst from one address (many players behind one router, a reverse proxy, a load
test) is never cut, which a fixed cap per address would do; a browser that loses an idle
keep-alive connection opens another without a word.

Besides, a larger limit (:data:`CONNECTION_LIMIT`, with ``poll()`` instead of ``select()``, which
stops at 1,024 file descriptors) so that many phones fit, and shorter idle timeouts
(:data:`CHANNEL_TIMEOUT` s, checked every :data:`CLEANUP_INTERVAL` s) so that idle connections give
their places back soon anyway. Worker threads are not at stake: waitress hands a request to a
thread only once it has arrived whole.
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
#: Seconds a connection with no request being answered stays open.
CHANNEL_TIMEOUT = 30
#: Seconds between the checks for such connections.
CLEANUP_INTERVAL = 5


class FairChannel(HTTPChannel):
    """waitress's connection, counted against its client address (:attr:`FairServer.by_address`)."""

    #: The client address it counts against (set when it is accepted).
    host: Any = None

    def idle(self) -> bool:
        """Whether no request of it is being answered (nothing received whole, nothing left to send)."""
        return not self.requests and not self.total_outbufs_len and not self.will_close

    def del_channel(self, map=None) -> None:
        """Close as waitress does, and leave the address's count."""
        own = self.server.by_address.get(self.host)
        if own is not None:
            own.pop(id(self), None)
            if not own:
                self.server.by_address.pop(self.host, None)
        super().del_channel(map)


class FairServer(TcpWSGIServer):
    """waitress's TCP server, making room for a newcomer when full (see the module docstring)."""

    channel_class = FairChannel
    #: Open connections at most (waitress's own limit is set above it, so that it never stops accepting).
    limit: int = CONNECTION_LIMIT

    def __init__(self, *args: Any, **kwargs: Any):
        #: Each client address's open connections (``id(channel)`` to the channel).
        self.by_address: dict[Any, dict[int, FairChannel]] = {}
        super().__init__(*args, **kwargs)

    def readable(self) -> bool:
        """Always ready to accept (the limit is kept by :meth:`handle_accept`); waitress's periodic
        closing of idle connections runs here as before."""
        super().readable()
        return self.accepting

    def handle_accept(self) -> None:
        """Accept the connections waiting (up to :attr:`ACCEPT_AT_ONCE`: a flood of new connections
        from one address then does not keep others waiting behind it for a turn of the event loop
        each); at the limit, first close an idle connection of the address holding the most, or turn
        the newcomer away when no connection is idle."""
        for _ in range(self.ACCEPT_AT_ONCE):
            if not self._accept_one():
                return

    #: Connections accepted at most in one turn of the event loop.
    ACCEPT_AT_ONCE = 64

    def _accept_one(self) -> bool:
        """Accept one waiting connection (see :meth:`handle_accept`); ``False`` when none was waiting."""
        try:
            accepted = self.accept()
            if accepted is None:
                return False
            conn, addr = accepted
            self.set_socket_options(conn)
        except OSError:  # as waitress: a bogus socket, or one closed before it was accepted
            if self.adj.log_socket_errors:
                self.logger.warning("server accept() threw an exception", exc_info=True)
            return True
        addr = self.fix_addr(addr)
        if len(self.active_channels) >= self.limit and not self._make_room():
            conn.close()
            return True
        channel = self.channel_class(self, conn, addr, self.adj, map=self._map)
        channel.host = addr[0] if isinstance(addr, tuple) and addr else addr
        self.by_address.setdefault(channel.host, {})[id(channel)] = channel
        return True

    def _make_room(self) -> bool:
        """Close one idle connection of the address holding the most open connections (its oldest one
        that is idle), and say whether one was closed. Runs in the server's one event-loop thread,
        where connections are accepted and closed, so the counts do not change meanwhile."""
        for host in sorted(self.by_address, key=lambda h: len(self.by_address[h]), reverse=True):
            # In the order they were accepted: the first idle one is the oldest, found without a full scan.
            for channel in list(self.by_address[host].values()):
                if channel.idle():
                    channel.handle_close()
                    return True
        return False


def create_server(app: Any, *, host: str, port: int, threads: int, connection_limit: int = CONNECTION_LIMIT,
                  channel_timeout: int = CHANNEL_TIMEOUT, cleanup_interval: int = CLEANUP_INTERVAL,
                  **options: Any):
    """A waitress server for ``app`` on ``host``:``port`` (every address it resolves to) with
    ``threads`` worker threads, keeping its connections as the module docstring says.

    Args:
        connection_limit: open connections at most (on each address listened on).
        channel_timeout: seconds an idle connection stays open.
        cleanup_interval: seconds between the checks for idle connections.
        options: more waitress adjustments (``ident``...).

    Returns:
        The server; ``run()`` serves until interrupted.
    """
    # waitress's own limit above ours (its listener and wake-up sockets count in it), so that it never
    # stops accepting: the newcomer is then the one who decides what gives way.
    adj = Adjustments(host=host, port=port, threads=threads, connection_limit=connection_limit + 16,
                      channel_timeout=channel_timeout, cleanup_interval=cleanup_interval,
                      asyncore_use_poll=True, **options)
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(adj.threads)
    sockets: dict[int, Any] = {}
    servers = []
    for sockinfo in adj.listen:
        server = FairServer(app, sockets, dispatcher=dispatcher, adj=adj, sockinfo=sockinfo)
        server.limit = connection_limit
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
