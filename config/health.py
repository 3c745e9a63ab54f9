"""GET /health/: 200 when the database and the cache answer, 503 naming what does not (for load balancers)."""

from __future__ import annotations

import logging
import uuid

from django.core.cache import cache
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache

logger = logging.getLogger("django.request")


def _database() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        return cursor.fetchone() == (1,)


def _cache() -> bool:
    key, value = f"health-{uuid.uuid4().hex}", uuid.uuid4().hex
    cache.set(key, value, timeout=10)
    try:
        return cache.get(key) == value
    finally:
        cache.delete(key)


@never_cache
def health(request):
    answers = {}
    for name, check in (("database", _database), ("cache", _cache)):
        try:
            answers[name] = "ok" if check() else "wrong answer"
        except Exception as error:  # whatever the backend raises: the point is to say it does not answer
            logger.error("health check: the %s does not answer: %s", name, error)
            answers[name] = "unavailable"
    healthy = all(answer == "ok" for answer in answers.values())
    return JsonResponse({"status": "ok" if healthy else "unavailable", **answers}, status=200 if healthy else 503)
