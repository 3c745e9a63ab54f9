"""The in-memory cache of a web process, bounded in bytes as well as in entries.

Django's LocMemCache counts entries (`MAX_ENTRIES`), whatever their size: 300 pages of a 3000-player
competition fill hundreds of megabytes. This one also keeps the pickled size of what it holds under
`MAX_BYTES` (an option, default 64 MB): a value larger than that is not kept, and the least recently
used entries make way for a new one. With `REDIS_URL` the cache is Redis, bounded by its own
`maxmemory` (README, Deploying).
"""

from __future__ import annotations

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache

DEFAULT_MAX_BYTES = 64 * 1024 * 1024


class BoundedLocMemCache(LocMemCache):
    """LocMemCache whose pickled values take at most `OPTIONS["MAX_BYTES"]` bytes in all."""

    def __init__(self, name, params):
        super().__init__(name, params)
        self._max_bytes = int(params.get("OPTIONS", {}).get("MAX_BYTES", DEFAULT_MAX_BYTES))

    def _set(self, key, value, timeout=DEFAULT_TIMEOUT):
        """Called with the lock held and `value` pickled. LocMemCache keeps the most recently used entry first."""
        if len(value) > self._max_bytes:
            self._delete(key)  # too large to keep: neither it nor an older copy stays
            return
        super()._set(key, value, timeout)
        total = sum(len(pickled) for pickled in self._cache.values())
        while total > self._max_bytes:
            oldest, pickled = self._cache.popitem()  # the least recently used
            del self._expire_info[oldest]
            total -= len(pickled)
