"""A limit on how often something may be asked for, counted in the cache per key and per window.

    if not throttle.allow("password-reset", {"address": email, "client": ip}, limits, 3600): ...

Each key (an e-mail address, a client's address) has its own count for `window` seconds from its first
attempt; an attempt over any key's limit is refused and not counted. Keys are hashed, so no address is
kept in the cache as it was typed. With REDIS_URL every web process shares the counts; without it each
process counts on its own (the cache is in its memory).
"""

from __future__ import annotations

import hashlib

from django.core.cache import cache


def _key(scope: str, kind: str, value: str) -> str:
    digest = hashlib.sha256(value.strip().lower().encode()).hexdigest()[:32]
    return f"throttle:{scope}:{kind}:{digest}"


def allow(scope: str, values: dict[str, str], limits: dict[str, int], window: int) -> bool:
    """Whether one more attempt is allowed for every value; if so it is counted under each of them."""
    keys = {kind: _key(scope, kind, value) for kind, value in values.items()}
    counts = cache.get_many(list(keys.values()))
    if any(counts.get(key, 0) >= limits[kind] for kind, key in keys.items()):
        return False
    for key in keys.values():
        if not cache.add(key, 1, timeout=window):
            try:
                cache.incr(key)
            except ValueError:  # expired between add and incr: a new window
                cache.add(key, 1, timeout=window)
    return True
