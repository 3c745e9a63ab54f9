"""Real processes for the deployment tests: a database of their own, `make serve`'s gunicorn, a job worker.

The database is a file (SQLite) or, when DATABASE_URL names PostgreSQL, a database of its own on that
server (`<name>_server`), created and dropped here: the test run's own database lives inside
transactions the processes could not see.
"""

from __future__ import annotations

import contextlib
import http.client
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from tests.deploy.environment import ROOT, manage, production_env


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def server_database(folder: Path, base_url: str | None) -> Iterator[str]:
    """A fresh database URL: a SQLite file in `folder`, or `<name>_server` next to a PostgreSQL `base_url`."""
    if not base_url or not base_url.startswith(("postgres://", "postgresql://")):
        yield f"sqlite:///{folder / 'server.sqlite3'}"
        return
    import psycopg

    name = base_url.rsplit("/", 1)[1].split("?")[0] + "_server"
    admin = base_url.rsplit("/", 1)[0] + "/postgres"

    def run(sql: str) -> None:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(sql)

    run(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    run(f'CREATE DATABASE "{name}"')
    try:
        yield base_url.rsplit("/", 1)[0] + "/" + name
    finally:
        run(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def prepared_env(database_url: str, static_root: Path, **extra: str) -> dict[str, str]:
    """The production environment on that database, migrated, with the demo club and collected static files."""
    env = production_env(DATABASE_URL=database_url, STATIC_ROOT=str(static_root), **extra)
    manage("migrate", "--noinput", "-v0", env=env)
    manage("demo", env=env)
    manage("collectstatic", "--noinput", "-v0", env=env)
    return env


def wait_for(port: int, process: subprocess.Popen, seconds: float = 60) -> None:
    """Until the server answers at all (a redirect to https included)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server stopped: exit code {process.returncode}")
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        try:
            connection.request("GET", "/")
            connection.getresponse().read()
            return
        except OSError:
            time.sleep(0.2)
        finally:
            connection.close()
    raise TimeoutError(f"port {port} did not answer within {seconds} s")


@contextlib.contextmanager
def gunicorn(env: dict[str, str], log: Path) -> Iterator[str]:
    """`make serve`'s server (gunicorn.conf.py) on a free port; yields its base URL."""
    port = free_port()
    with log.open("w") as out:
        process = subprocess.Popen(
            [str(Path(sys.executable).parent / "gunicorn")], cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
            env={**env, "BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": "2"},
        )  # fmt: skip
        try:
            wait_for(port, process)
            yield f"http://127.0.0.1:{port}"
        finally:
            stop(process)


@contextlib.contextmanager
def runserver(env: dict[str, str], log: Path) -> Iterator[str]:
    """`make run`'s development server (threaded, one process) on a free port; yields its base URL."""
    port = free_port()
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"], cwd=ROOT, stdout=out,
            stderr=subprocess.STDOUT, env=env,
        )  # fmt: skip
        try:
            wait_for(port, process)
            yield f"http://127.0.0.1:{port}"
        finally:
            stop(process)


@contextlib.contextmanager
def worker(env: dict[str, str], log: Path) -> Iterator[subprocess.Popen]:
    """`manage.py worker`, as `make run` and `make serve` start it beside the web server."""
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "manage.py", "worker"], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT
        )
        try:
            yield process
        finally:
            stop(process)


def stop(process: subprocess.Popen, sig: int = signal.SIGTERM) -> None:
    if process.poll() is None:
        process.send_signal(sig)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
