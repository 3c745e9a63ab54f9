"""The health endpoint: 200 when the database and the cache answer, 503 naming the one that does not;
REDIS_URL moves the cache and the sessions to Redis."""

from __future__ import annotations

import json
from unittest import mock

import pytest
from django.db import OperationalError, connection

from tests.deploy.environment import manage, production_env
from tests.deploy.test_worker import redis_answers

pytestmark = pytest.mark.django_db

BROKEN_REDIS = {
    "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://127.0.0.1:1/0"}
}


def test_healthy(client):
    response = client.get("/health/")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "cache": "ok"}
    assert "no-cache" in response["Cache-Control"]


def test_a_database_that_does_not_answer_is_a_503(client):
    with mock.patch.object(connection, "cursor", side_effect=OperationalError("connection refused")):
        response = client.get("/health/")
    assert response.status_code == 503
    assert response.json() == {"status": "unavailable", "database": "unavailable", "cache": "ok"}


def test_a_cache_that_does_not_answer_is_a_503(client, settings):
    settings.CACHES = BROKEN_REDIS
    response = client.get("/health/")
    assert response.status_code == 503
    assert response.json() == {"status": "unavailable", "database": "ok", "cache": "unavailable"}


def test_redis_as_the_cache_answers(client, settings):
    if not redis_answers():
        pytest.skip("no Redis server on 127.0.0.1:6379")
    settings.CACHES = {**BROKEN_REDIS, "default": {**BROKEN_REDIS["default"], "LOCATION": "redis://127.0.0.1:6379/7"}}
    assert client.get("/health/").json()["cache"] == "ok"


def test_redis_url_moves_cache_sessions_and_jobs_to_redis():
    show = "import json; from django.conf import settings as s; print(json.dumps([s.CACHES['default']['BACKEND'], s.SESSION_ENGINE, s.TASKS['default']['BACKEND']]))"  # noqa: E501
    plain = json.loads(manage("shell", "-c", show, env=production_env()).stdout.splitlines()[-1])
    assert plain == [
        "config.cache.BoundedLocMemCache",
        "django.contrib.sessions.backends.db",
        "django_tasks_db.DatabaseBackend",
    ]
    redis = json.loads(
        manage("shell", "-c", show, env=production_env(REDIS_URL="redis://127.0.0.1:6379/7")).stdout.splitlines()[-1]
    )
    assert redis == [
        "django.core.cache.backends.redis.RedisCache",
        "django.contrib.sessions.backends.cached_db",
        "django_tasks_rq.RQBackend",
    ]


def test_redis_prefix_names_the_keys_of_the_cache_and_of_the_job_queue():
    """Several sites (or test runs) on one Redis database: REDIS_PREFIX keeps each to keys of its own."""
    show = (
        "import json; from django.conf import settings as s; import rq.defaults as d; "
        "print(json.dumps([s.CACHES['default']['KEY_PREFIX'], d.RQ_KEY_PREFIX]))"
    )
    env = production_env(REDIS_URL="redis://127.0.0.1:6379/7")
    prefixes = lambda env: json.loads(manage("shell", "-c", show, env=env).stdout.splitlines()[-1])  # noqa: E731
    assert prefixes(env) == ["clubavond", "rq"]
    assert prefixes({**env, "REDIS_PREFIX": "club-b"}) == ["club-b", "club-b:rq"]
    refused = manage("check", env={**env, "REDIS_PREFIX": "club b"}, check=False)
    assert refused.returncode != 0 and "REDIS_PREFIX may hold letters" in refused.stderr
