"""Posting one message to a webhook, safely (issue 35, item 4), and reading its answer.

Python's standard library only (``http.client``): it follows no redirect and reads no proxy from
the environment, which is what a webhook sender wants; a third-party client would need both
turned off. What is checked, at every delivery:

- the URL is ``http`` or ``https`` with a host, and no user name or password in it;
- the host is resolved, and the address used must be a public internet address: loopback,
  private, link-local, shared (CGNAT) and other non-public addresses are refused unless the
  webhook allows the local network (an event laptop posting to a bot on its LAN); multicast,
  unspecified and cloud-metadata addresses (169.254.169.254 and its kin) always;
- the connection goes to the address that was checked (the host name is still sent for TLS and
  ``Host``), so a name that resolves to a public address for the check and a private one a moment
  later (DNS rebinding) cannot redirect it;
- a redirect is an answer like any other, never followed;
- every socket operation has a timeout, and the whole exchange a deadline;
- the answer is read up to a bound and the rest dropped.

The URL is a secret: no message made here contains its path or query (a Discord webhook's token).
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
import time
from dataclasses import dataclass, field
from typing import Callable, Mapping
from urllib.parse import urlsplit

#: Cloud metadata and platform addresses, refused even on the local network (AWS, GCP, Azure,
#: OpenStack: 169.254.169.254; AWS ECS 169.254.170.2; AWS IPv6 fd00:ec2::254; Alibaba
#: 100.100.100.200; Azure's platform address 168.63.129.16).
METADATA_ADDRESSES = frozenset(ipaddress.ip_address(a) for a in (
    "169.254.169.254", "169.254.170.2", "fd00:ec2::254", "100.100.100.200", "168.63.129.16"))

#: The user agent sent with every delivery.
USER_AGENT = "larp-webhooks/1"

Resolver = Callable[..., list]


class AddressRefused(Exception):
    """A webhook URL that may not be posted to; ``message`` says why (never the URL's path or query)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Target:
    """A webhook URL taken apart: ``scheme`` (http or https), ``host``, ``port`` and ``path`` (with its query)."""

    scheme: str
    host: str
    port: int
    path: str


@dataclass
class Answer:
    """What a delivery got back.

    Attributes:
        status: the HTTP status, or ``None`` when no answer came (then ``error`` says why).
        reason: the status's words ("Not Found").
        headers: the answer's headers, names in lower case.
        body: the start of its body (at most the bound given to :func:`post`).
        seconds: how long the exchange took.
        error: why there was no answer (refused address, name not found, timeout...).
        address: the address connected to.
    """

    status: int | None
    reason: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    seconds: float = 0.0
    error: str | None = None
    address: str = ""


def parse_target(url: str) -> Target:
    """``url`` taken apart, when it can be a webhook's.

    Raises:
        AddressRefused: not http(s), no host, a user name or password in it, a bad port, or spaces.
    """
    text = (url or "").strip()
    if not text or any(ch.isspace() or ord(ch) < 0x20 for ch in text):
        raise AddressRefused("Paste the webhook's whole address, starting with https:// (no spaces).")
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        raise AddressRefused("That is not a web address: paste the webhook's whole address, starting with https://.") from None
    if parts.scheme.lower() not in ("http", "https"):
        raise AddressRefused("Only http:// and https:// addresses can be webhooks.")
    if not parts.hostname:
        raise AddressRefused("The address has no host: paste the webhook's whole address, starting with https://.")
    if parts.username is not None or parts.password is not None:
        raise AddressRefused("An address with a user name or password in it is not taken: the webhook's own "
                             "address carries what it needs.")
    scheme = parts.scheme.lower()
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(scheme, parts.hostname, port or (443 if scheme == "https" else 80), path)


def address_refusal(address: str, local_network: bool) -> str | None:
    """Why a webhook may not be posted to at ``address`` (an IP address as text), or ``None``.

    Args:
        local_network: whether the webhook allows addresses that are not public (loopback,
            private, link-local, shared): an event's LAN.
    """
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return f"{address} is not an address"
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip in METADATA_ADDRESSES:
        return f"{ip} is a cloud metadata address, never a webhook"
    if ip.is_multicast or ip.is_unspecified:
        return f"{ip} is not an address a webhook can have"
    if ip.is_global or local_network:
        return None
    what = ("this computer itself (loopback)" if ip.is_loopback else
            "a link-local address" if ip.is_link_local else
            "a private address" if ip.is_private else "not a public internet address")
    return (f"{ip} is {what}: tick “Local network” for a bot on the event's own network")


def resolve(target: Target, local_network: bool, resolver: Resolver | None = None) -> str:
    """The address to connect to for ``target``: its host resolved, the first address that may be
    posted to (:func:`address_refusal`).

    Raises:
        AddressRefused: the name is not found, or no address it has may be posted to.
    """
    resolver = resolver or socket.getaddrinfo
    try:
        found = resolver(target.host, target.port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, OSError):
        raise AddressRefused(f"The name {target.host} was not found (DNS).") from None
    addresses = list(dict.fromkeys(info[4][0] for info in found))
    if not addresses:
        raise AddressRefused(f"The name {target.host} has no address.")
    reasons = []
    for address in addresses:
        reason = address_refusal(address, local_network)
        if reason is None:
            return address
        reasons.append(reason)
    raise AddressRefused(f"Not sent: {target.host} resolves to {reasons[0]}.")


def _connection(target: Target, address: str, timeout: float) -> http.client.HTTPConnection:
    """A connection to ``target`` that connects to ``address`` (checked) and still speaks to the host
    name (TLS server name and certificate, ``Host`` header)."""
    if target.scheme == "https":
        conn: http.client.HTTPConnection = http.client.HTTPSConnection(
            target.host, target.port, timeout=timeout, context=ssl.create_default_context())
    else:
        conn = http.client.HTTPConnection(target.host, target.port, timeout=timeout)

    def pinned(_address, timeout=None, source_address=None, *args, **kwargs):
        return socket.create_connection((address, target.port), timeout, source_address)

    conn._create_connection = pinned  # type: ignore[attr-defined]
    return conn


def _words(exc: BaseException, target: Target, timeout: float) -> str:
    if isinstance(exc, ssl.SSLCertVerificationError):
        return f"The TLS certificate of {target.host} was refused ({exc.verify_message or 'not valid'})."
    if isinstance(exc, ssl.SSLError):
        return f"The TLS connection to {target.host} failed ({exc.reason or 'handshake'})."
    if isinstance(exc, (socket.timeout, TimeoutError)):
        return f"No answer from {target.host} within {timeout:g} s."
    if isinstance(exc, ConnectionRefusedError):
        return f"{target.host} refused the connection."
    if isinstance(exc, http.client.HTTPException):
        return f"{target.host} did not answer in HTTP ({type(exc).__name__})."
    if isinstance(exc, OSError):
        return f"Network error reaching {target.host}: {exc.strerror or type(exc).__name__}."
    return f"Error reaching {target.host}: {type(exc).__name__}."


def post(url: str, body: bytes, headers: Mapping[str, str], *, local_network: bool, timeout: float = 5.0,
         max_answer: int = 65536, resolver: Resolver | None = None) -> Answer:
    """POST ``body`` to ``url`` as this module's docstring says, and return the answer (never raises
    for the network: a refused address, a name not found or a timeout is an :class:`Answer` without
    a status).

    Args:
        headers: the request's headers (``Content-Type`` and the like; ``Host`` comes from the URL).
        local_network: whether addresses that are not public may be posted to.
        timeout: seconds for each socket operation; the whole exchange gets twice that.
        max_answer: the most bytes of the answer's body read.
        resolver: ``socket.getaddrinfo`` or a stand-in (tests).
    """
    start = time.monotonic()
    try:
        target = parse_target(url)
        address = resolve(target, local_network, resolver)
    except AddressRefused as exc:
        return Answer(None, error=exc.message, seconds=time.monotonic() - start)
    deadline = start + 2 * timeout
    conn = _connection(target, address, timeout)
    try:
        conn.request("POST", target.path, body=body, headers={"User-Agent": USER_AGENT, **headers})
        response = conn.getresponse()
        chunks, size = [], 0
        while size < max_answer:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            if conn.sock is not None:
                conn.sock.settimeout(min(timeout, left))
            chunk = response.read1(min(8192, max_answer - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return Answer(response.status, response.reason or "", {k.lower(): v for k, v in response.getheaders()},
                      b"".join(chunks), time.monotonic() - start, None, address)
    except Exception as exc:  # noqa: BLE001 - whatever the network did, it is said in words, not raised
        return Answer(None, error=_words(exc, target, timeout), seconds=time.monotonic() - start, address=address)
    finally:
        conn.close()
