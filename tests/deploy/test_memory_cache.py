"""The in-memory cache of a web process is bounded in bytes: the least recently used pages make way."""

from __future__ import annotations

import pickle

import pytest
from django.conf import settings

from config.cache import BoundedLocMemCache


def bounded(max_bytes: int, location: str) -> BoundedLocMemCache:
    cache = BoundedLocMemCache(location, {"OPTIONS": {"MAX_BYTES": max_bytes, "MAX_ENTRIES": 1000}})
    cache.clear()
    return cache


def stored_bytes(cache: BoundedLocMemCache) -> int:
    return sum(len(v) for v in cache._cache.values())


def test_the_pickled_values_never_exceed_the_bound_and_the_least_recently_used_go_first():
    page = b"x" * 1000
    size = len(pickle.dumps(page, pickle.HIGHEST_PROTOCOL))
    cache = bounded(5 * size, "bounded-lru")
    for n in range(5):
        cache.set(f"page:{n}", page)
    assert stored_bytes(cache) == 5 * size
    assert cache.get("page:0") == page  # read: now the most recently used
    cache.set("page:5", page)
    assert stored_bytes(cache) <= 5 * size
    assert cache.get("page:1") is None  # the least recently used made way
    assert all(cache.get(f"page:{n}") == page for n in (0, 2, 3, 4, 5))


def test_a_value_larger_than_the_bound_is_not_kept_nor_its_older_copy():
    cache = bounded(2000, "bounded-large")
    cache.set("page", b"small")
    cache.set("page", b"y" * 5000)
    assert cache.get("page") is None and stored_bytes(cache) == 0
    cache.set("other", b"small")
    assert cache.get("other") == b"small"


@pytest.mark.skipif(bool(getattr(settings, "REDIS_URL", None)), reason="the cache is Redis here")
def test_without_redis_the_default_cache_is_bounded_in_bytes():
    assert settings.CACHES["default"]["BACKEND"] == "config.cache.BoundedLocMemCache"
    assert settings.CACHES["default"]["OPTIONS"]["MAX_BYTES"] > 0
