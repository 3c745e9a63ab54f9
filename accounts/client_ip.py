"""The client's address for login throttling (django-axes' AXES_CLIENT_IP_CALLABLE).

Without a reverse proxy (TRUSTED_PROXIES=0, the default) it is the connection's address, REMOTE_ADDR;
X-Forwarded-For is ignored, since any client can send it. Behind N reverse proxies that each append the
address they were connected from to X-Forwarded-For (nginx's `$proxy_add_x_forwarded_for`, Caddy), the
client is the N-th address from the right: the ones further left were sent by the client and are not trusted.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings


def client_ip(request) -> str:
    remote = request.META.get("REMOTE_ADDR", "") or ""
    proxies = settings.TRUSTED_PROXIES
    if proxies <= 0:
        return remote
    chain = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
    if len(chain) < proxies:  # not sent through the proxies as configured
        return remote
    candidate = chain[-proxies]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote
