"""One production deployment for the whole run (tests/conftest.py): database, demo club, static files, gunicorn."""

from __future__ import annotations

import os

import pytest

from tests.deploy.server import gunicorn, prepared_env, server_database


@pytest.fixture(scope="session")
def deployment(tmp_path_factory):
    """The prepared production environment (DEBUG off, HTTPS switch on) and its folder."""
    folder = tmp_path_factory.mktemp("deployment")
    with server_database(folder, os.environ.get("DATABASE_URL")) as url:
        yield prepared_env(url, folder / "static"), folder


@pytest.fixture(scope="session")
def https_server(deployment):
    """The server as behind a TLS proxy (HTTPS=1): requests must say X-Forwarded-Proto: https."""
    env, folder = deployment
    with gunicorn(env, folder / "https-server.log") as url:
        yield url


@pytest.fixture(scope="session")
def http_server(deployment):
    """The same site over plain HTTP (HTTPS=0), for the browser on the loopback."""
    env, folder = deployment
    with gunicorn({**env, "HTTPS": "0"}, folder / "http-server.log") as url:
        yield url
