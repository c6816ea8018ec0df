"""Which internet addresses the service may send to: the one test behind both the
webhooks' and the push devices' refusal of private networks (server-side request
forgery: an address given by a user must not aim the service's requests inside the
operator's own network)."""

from __future__ import annotations

import ipaddress

IP = ipaddress.IPv4Address | ipaddress.IPv6Address


def carried(ip: IP) -> list[IP]:
    """``ip`` and, first, any IPv4 address an IPv6 one carries (IPv4-mapped, 6to4,
    Teredo): ``2002:7f00:1::`` counts as global in Python's table, yet reaches
    127.0.0.1 through a 6to4 relay."""
    inner: list[IP] = []
    if isinstance(ip, ipaddress.IPv6Address):
        inner = [a for a in (ip.ipv4_mapped, ip.sixtofour,
                             ip.teredo[1] if ip.teredo else None) if a is not None]
    return [*inner, ip]
