"""Shared fixtures: a club with members, its TD, a member who may only view, and helpers to play rounds."""

from __future__ import annotations

import pytest

# Django is imported inside the fixtures, so the pure engine tests also run without it (-p no:django).


@pytest.fixture(autouse=True)
def _default_language():
    """Every test ends in the site's default language: a request with Accept-Language leaves its language
    active in the thread, and the next test would read its messages in it."""
    yield
    from django.conf import settings

    if settings.configured:
        from django.utils import translation

        translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _empty_cache():
    """Every test starts with an empty cache: a competition of an earlier test, rolled back, may have had
    the same address, and its cached stamp and pages must not answer for the new one."""
    from django.conf import settings

    if settings.configured:
        from django.apps import apps
        from django.core.cache import caches

        for alias in settings.CACHES:
            caches[alias].clear()
        if apps.ready:
            from tournaments import live

            live.forget()  # the competitions' data kept between versions
    yield


@pytest.fixture(scope="session", autouse=True)
def _teardown_flush_empties_the_audit_log():
    """Transactional tests (live servers, threads) end with Django's flush, which empties every table. The
    database refuses to empty the audit log, `manage.py flush` included (audit migration 0003): the test
    run's own teardown flush lifts that guard inside its transaction and puts it back before it commits.
    Nothing else does, and a site's database keeps it."""
    from django.conf import settings

    if not settings.configured:
        yield
        return
    from unittest import mock

    from django.core.management.commands import flush
    from django.test import TransactionTestCase

    def lifting_the_guard(sql_flush):
        def statements(style, connection, **options):
            found = sql_flush(style, connection, **options)
            if not any("audit_auditentry" in statement for statement in found):
                return found
            lift, restore = _audit_guard(connection.vendor)
            return [*lift, *found, *restore]

        return statements

    original = TransactionTestCase._fixture_teardown

    def teardown(self):
        with mock.patch.object(flush, "sql_flush", lifting_the_guard(flush.sql_flush)):
            return original(self)

    with mock.patch.object(TransactionTestCase, "_fixture_teardown", teardown):
        yield


def _audit_guard(vendor: str) -> tuple[list[str], list[str]]:
    """The statements that lift the audit log's guard against being emptied, and those that restore it."""
    import importlib

    migration = importlib.import_module("audit.migrations.0003_cannot_be_emptied")
    if vendor == "postgresql":
        trigger = "ALTER TABLE audit_auditentry {} TRIGGER audit_cannot_be_emptied"
        return [trigger.format("DISABLE")], [trigger.format("ENABLE")]
    if vendor == "sqlite":
        return migration.SQLITE_REVERSE, migration.SQLITE
    return [], []


@pytest.fixture
def club(db):
    from clubs.models import Club

    return Club.objects.create(name="SV Testclub", slug="testclub", city="Delft")


@pytest.fixture
def td(club):
    from django.contrib.auth import get_user_model

    from clubs.models import ClubRole

    user = get_user_model().objects.create_user("director", password="secret-pass-1")
    ClubRole.objects.create(club=club, user=user, role=ClubRole.Role.DIRECTOR)
    return user


@pytest.fixture
def viewer(club):
    from django.contrib.auth import get_user_model

    from clubs.models import ClubRole

    user = get_user_model().objects.create_user("member", password="secret-pass-2")
    ClubRole.objects.create(club=club, user=user, role=ClubRole.Role.VIEWER)
    return user


@pytest.fixture
def td_client(client, td):
    client.force_login(td)
    return client


@pytest.fixture
def other_td(club):
    """Jan Tweede, a second TD of the club, logged in on his own client (the guard tests, `tests.guard`)."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from clubs.models import ClubRole

    user = get_user_model().objects.create_user("jan", password="secret-pass-5", first_name="Jan", last_name="Tweede")
    ClubRole.objects.create(club=club, user=user, role=ClubRole.Role.DIRECTOR)
    client = Client()
    client.force_login(user)
    return user, client


def make_members(club, count: int, base: int = 2100):
    from clubs.models import Member

    return Member.objects.bulk_create(
        Member(club=club, first_name=f"Player{i:03d}", last_name=f"Surname{i:03d}", national_rating=base - 10 * i,
               sex="m" if i % 2 else "w", birth_date=None)
        for i in range(1, count + 1)
    )  # fmt: skip


@pytest.fixture
def members(club):
    return make_members(club, 8)


def make_competition(club, td, members, system="roundrobin", rounds=None, slug="rr"):
    """A competition created as the TD creates one: through `pairing.services`, with its entries."""
    from pairing import services as adapter
    from tournaments.models import Competition

    competition = Competition(club=club, name=f"Test {system}", slug=slug, system=system, rounds=rounds)
    return adapter.create_competition(competition, list(members), td)


def play_round(competition, td, results=None):
    """Pair, publish and finish the next round; results by board (default: white wins)."""
    from pairing import services as adapter

    rnd = adapter.pair_next_round(competition, td)
    adapter.publish(rnd, td)
    for game in rnd.games.all():
        if not game.result:
            adapter.set_result(game, (results or {}).get(game.board, "1-0"), td)
    adapter.finish(rnd, td)
    return rnd


# The production deployment (gunicorn, DEBUG off) for tests/deploy and the browser tests in tests/e2e.
from tests.deploy.fixtures import deployment, http_server, https_server  # noqa: E402,F401
