"""The site run as a PostgreSQL role that does not own the tables (README, "Deploying"): the owner migrates
and runs `grant_site_role`; the site's role then does its work, audit rows included, but can neither
change, delete, empty, alter nor drop the audit log. The owner cannot empty it either (a trigger)."""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator

import pytest

from tests.deploy.environment import manage, production_env

pytestmark = pytest.mark.server

BASE = os.environ.get("DATABASE_URL", "")
TABLE = "audit_auditentry"


@contextlib.contextmanager
def roles_and_database() -> Iterator[tuple[str, str]]:
    """A database owned by a role of its own, and the site's role; the URLs of both, dropped after."""
    import psycopg

    name = f"clubavond_{uuid.uuid4().hex[:10]}"
    server = BASE.rsplit("/", 1)[0]  # postgres://user@host:port, a superuser (the test run's)
    admin = server + "/postgres"
    host = server.split("@", 1)[1]

    def run(sql: str) -> None:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(sql)

    run(f"CREATE ROLE {name}_owner LOGIN")
    run(f"CREATE ROLE {name}_site LOGIN")
    run(f"CREATE DATABASE {name} OWNER {name}_owner")
    try:
        yield f"postgres://{name}_owner@{host}/{name}", f"postgres://{name}_site@{host}/{name}"
    finally:
        run(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        run(f"DROP ROLE IF EXISTS {name}_site")
        run(f"DROP ROLE IF EXISTS {name}_owner")


def refused(url: str, statement: str) -> str:
    """The database's refusal of `statement` run as the role of `url` (the test fails if it runs)."""
    import psycopg

    with psycopg.connect(url) as connection:
        try:
            connection.execute(statement)
        except psycopg.Error as error:
            return str(error)
    raise AssertionError(f"{statement!r} ran as {url.split('@')[0]}")


def count(url: str) -> int:
    import psycopg

    with psycopg.connect(url) as connection:
        return connection.execute(f"SELECT count(*) FROM {TABLE}").fetchone()[0]


def test_the_site_runs_as_a_role_that_cannot_empty_change_or_drop_the_log():
    if not BASE.startswith(("postgres://", "postgresql://")):
        pytest.skip("database roles need PostgreSQL (DATABASE_URL)")
    with roles_and_database() as (owner, site):
        as_owner, as_site = production_env(DATABASE_URL=owner), production_env(DATABASE_URL=site)
        site_role = site.split("//", 1)[1].split("@", 1)[0]
        assert "must not own" not in manage("migrate", "--noinput", "-v0", env=as_owner).stderr
        refusal = manage("grant_site_role", site_role, env=as_site, check=False)
        assert refusal.returncode != 0 and "owner of the tables" in refusal.stderr
        manage("grant_site_role", site_role, env=as_owner)

        manage("migrate", "--noinput", "-v0", env=as_site)  # `make serve` migrates: nothing left to do
        manage("demo", env=as_site)  # the site's own writes, every one recorded
        written = count(site)
        assert written > 100
        for statement in (
            f"UPDATE {TABLE} SET action = 'forged'",
            f"DELETE FROM {TABLE}",
            f"TRUNCATE {TABLE}",
            f"ALTER TABLE {TABLE} DISABLE TRIGGER ALL",
            f"DROP TABLE {TABLE}",
        ):
            assert any(word in refused(site, statement) for word in ("permission denied", "must be owner")), statement
        assert "permission denied" in refused(site, "TRUNCATE clubs_club CASCADE")
        assert "permission denied" in refused(site, "DELETE FROM django_migrations")

        for statement in (f"TRUNCATE {TABLE}", f"DELETE FROM {TABLE}", f"UPDATE {TABLE} SET action = 'forged'"):
            assert "append-only" in refused(owner, statement), statement
        flush = manage("flush", "--noinput", "--traceback", env=as_owner, check=False)
        assert flush.returncode != 0 and "append-only" in flush.stderr
        assert count(owner) == written
