"""Where a webhook may be delivered, and the delivery itself: the host is resolved once, every
address it resolves to is checked, and the POST connects to the address checked (no second
resolution that a name's owner could turn inside), follows no redirect, and waits 5 s at most.

An address is refused when it is not a public unicast one: loopback, private, link-local,
shared, reserved, unspecified or multicast, and so is an IPv6 address that carries one of those
inside it (IPv4-mapped `::ffff:127.0.0.1`, 6to4 `2002:7f00:1::`, Teredo, NAT64 `64:ff9b::`).
The operator's `CHRONICLE_WEBHOOK_ALLOW_PRIVATE=on` admits loopback, private and link-local
addresses (a receiver on the same network); never unspecified or multicast ones.
"""

from __future__ import annotations

import concurrent.futures
import ipaddress
import socket
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

import urllib3

RESOLVE_TIMEOUT_S = 2.0
DELIVERY_TIMEOUT_S = 5.0
NAT64_PREFIXES = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


class WebhookRefused(Exception):
    """A webhook URL Chronicle will not POST to."""


@dataclass(frozen=True)
class Target:
    """Where one delivery goes: the URL's parts, and the one address checked to connect to."""

    scheme: str
    host: str
    port: int
    path: str
    address: str


_resolver: concurrent.futures.ThreadPoolExecutor | None = None


def resolve(host: str, port: int, timeout_s: float) -> list[str]:
    """The host's addresses, or WebhookRefused if they are not known within `timeout_s`: a
    name that never resolves must not hold a request (or a worker) for the resolver's minute."""
    global _resolver
    if _resolver is None:
        _resolver = concurrent.futures.ThreadPoolExecutor(4, thread_name_prefix="resolve")
    asked = _resolver.submit(socket.getaddrinfo, host, port, 0, socket.SOCK_STREAM)
    try:
        found = asked.result(timeout=timeout_s)
    except concurrent.futures.TimeoutError:
        raise WebhookRefused(f"the host {host!r} did not resolve in {timeout_s:g} s") from None
    except (OSError, UnicodeError):
        raise WebhookRefused(f"the host {host!r} cannot be resolved") from None
    return list(dict.fromkeys(str(info[4][0]) for info in found))


def carried(ip: Address) -> Iterator[Address]:
    """The address, and every IPv4 address an IPv6 one carries inside it."""
    yield ip
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            yield ip.ipv4_mapped
        if ip.sixtofour is not None:
            yield ip.sixtofour
        if ip.teredo is not None:
            yield from ip.teredo
        if any(ip in prefix for prefix in NAT64_PREFIXES):
            yield ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)


def inside(ip: Address, allow_private: bool) -> bool:
    """Whether a POST to `ip` would reach somewhere that is not the public internet."""
    for address in carried(ip):
        if address.is_unspecified or address.is_multicast:
            return True
        inner = (
            not address.is_global
            or address.is_loopback
            or address.is_link_local
            or address.is_reserved
            or address.is_private
        )
        if inner and not allow_private:
            return True
    return False


def target(
    url: str,
    own_hosts: Sequence[str],
    allow_private: bool,
    timeout_s: float = RESOLVE_TIMEOUT_S,
) -> Target:
    """The URL checked: http(s) to a named host, never this server itself, and every address
    it resolves to outside (see the module); the answer names the first of them to connect to."""
    try:
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as exc:
        raise WebhookRefused(f"not a URL: {exc}") from None
    if parts.scheme not in ("http", "https"):
        raise WebhookRefused("a webhook URL must be http:// or https://")
    host = parts.hostname
    if not host:
        raise WebhookRefused("a webhook URL must name a host")
    if parts.username or parts.password:
        raise WebhookRefused("a webhook URL may not hold credentials")
    if f"{host}:{port}".lower() in {h.lower() for h in own_hosts}:
        raise WebhookRefused("a webhook may not point at this server itself")
    addresses = resolve(host, port, timeout_s)
    for address in addresses:
        if inside(ipaddress.ip_address(address.split("%")[0]), allow_private):
            raise WebhookRefused(
                f"{host} is not a public address (loopback, private, multicast or reserved, "
                "or one of those inside an IPv6 address): refused"
            )
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(parts.scheme, host, port, path, addresses[0])


def post(where: Target, body: bytes, headers: Mapping[str, str]) -> int:
    """POST `body` to the address checked (the URL's host in `Host` and, over TLS, in SNI and
    the certificate's check); a redirect is an answer like any other, never followed. Returns
    the status; raises urllib3's errors when no answer comes."""
    sent = {**headers, "Host": host_header(where)}
    timeout = urllib3.Timeout(total=DELIVERY_TIMEOUT_S)
    pool: urllib3.HTTPConnectionPool
    if where.scheme == "https":
        pool = urllib3.HTTPSConnectionPool(
            where.address,
            where.port,
            server_hostname=where.host,
            assert_hostname=where.host,
            timeout=timeout,
            retries=False,
        )
    else:
        pool = urllib3.HTTPConnectionPool(where.address, where.port, timeout=timeout, retries=False)
    try:
        answer = pool.urlopen(
            "POST",
            where.path,
            body=body,
            headers=sent,
            redirect=False,
            retries=False,
            preload_content=False,
            assert_same_host=False,
        )
        answer.drain_conn()
        return int(answer.status)
    finally:
        pool.close()


def host_header(where: Target) -> str:
    default = 443 if where.scheme == "https" else 80
    host = f"[{where.host}]" if ":" in where.host else where.host
    return host if where.port == default else f"{host}:{where.port}"
