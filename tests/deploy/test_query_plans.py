"""Every list page reads the big tables through an index, on PostgreSQL (as clubs deploy).

A site of 1000 clubs and some 163,000 audit log rows (a quarter of them one busy club's, the rest spread
over the others, a year of club nights) is built and committed, the tables vacuumed and analysed as
autovacuum leaves them, and the home page, the admin's list pages and the history pages asked for;
PostgreSQL's plan (EXPLAIN) of every query they send that reads a big table must not scan that table
sequentially. The one exception is counting a whole table for a paginator, which reads every
row whatever the plan. Skipped on SQLite.

The admin's list pages also join what they show: their number of queries does not grow with the rows.
"""

from __future__ import annotations

import json
import random
import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from audit.models import AuditEntry
from clubs.models import Club, Member
from tests.conftest import make_competition, make_members

pytestmark = pytest.mark.django_db

BIG = {"clubs_club", "audit_auditentry"}
CLUBS, AUDIT_ROWS = 1000, 163_000
WHOLE_COUNT = re.compile(r'^SELECT COUNT\(\*\) AS "__count" FROM "(\w+)"$')
ACTIONS = ["result", "result_change", "pair", "publish", "finish", "member_add", "setting"]


def seq_scans(plan: dict) -> list[str]:
    """The relations a plan (EXPLAIN FORMAT JSON) scans sequentially, at any depth."""
    found = [plan["Relation Name"]] if plan.get("Node Type") == "Seq Scan" else []
    for child in plan.get("Plans", []):
        found += seq_scans(child)
    return found


def big_world(club, td) -> dict:
    """1000 clubs, a busy club with 40 competitions, 163,000 audit rows; returns the addresses to check.

    Counting a club's rows for the history's pages reads the index of those rows; for a club with most of
    the table's rows PostgreSQL reads the table itself instead, which costs the same."""
    rng = random.Random(163)
    Club.objects.bulk_create(
        Club(name=f"Schaakclub {i:04d} {rng.choice(['Oost', 'West', 'Noord', 'Zuid'])}", slug=f"sc-{i:04d}",
             city=f"Stad {i % 97}", federation="NED")
        for i in range(CLUBS - 1)
    )  # fmt: skip
    competition = make_competition(club, td, make_members(club, 6), slug="big")
    clubs = list(Club.objects.values_list("pk", "name"))
    now = timezone.now()
    rows = []
    for i in range(AUDIT_ROWS):
        busy = i % 4 == 0  # one row in four is the busy club's, over its 40 competitions
        club_id, club_name = (club.pk, club.name) if busy else rng.choice(clubs)
        competition_id = (competition.pk if i % 160 == 0 else 10_000 + i % 39) if busy else 20_000 + i % 997
        rows.append(
            AuditEntry(
                at=now - timedelta(minutes=3 * (AUDIT_ROWS - i)), user_id=td.pk, username=td.username,
                action=rng.choice(ACTIONS), club_id=club_id, club_name=club_name, competition_id=competition_id,
                competition_name="Competitie", round_number=1 + i % 9, object_type="game", object_id=str(i),
                object_label=f"Bord {i % 30 + 1}",
            )  # fmt: skip
        )
    AuditEntry.objects.bulk_create(rows, batch_size=5000)
    with connection.cursor() as cursor:  # as autovacuum leaves a site's tables: analysed, visibility mapped
        cursor.execute("VACUUM ANALYZE")
    c = [club.slug, competition.slug]
    return {
        "home": reverse("home"),
        "home, page 10": reverse("home") + "?page=10",
        "club history": reverse("club_history", args=[club.slug]),
        "club history, page 30": reverse("club_history", args=[club.slug]) + "?page=30",
        "competition history": reverse("competition_history", args=c),
        "results history": reverse("results_history", args=c),
        "admin: clubs": reverse("admin:clubs_club_changelist"),
        "admin: members": reverse("admin:clubs_member_changelist"),
        "admin: audit log": reverse("admin:audit_auditentry_changelist"),
        "admin: audit log of one action": reverse("admin:audit_auditentry_changelist") + "?action=result",
        "admin: competitions": reverse("admin:tournaments_competition_changelist"),
    }


@pytest.mark.django_db(transaction=True)
def test_the_list_pages_read_the_big_tables_through_indexes(client, club, td):
    if connection.vendor != "postgresql":
        pytest.skip("query plans are checked on PostgreSQL")
    pages = big_world(club, td)
    admin = get_user_model().objects.create_superuser("root", "root@example.org", "x")
    client.force_login(td)
    as_admin = Client()
    as_admin.force_login(admin)
    problems = []
    for name, address in pages.items():
        browser = as_admin if name.startswith("admin") else client
        with CaptureQueriesContext(connection) as queries:
            assert browser.get(address).status_code == 200, name
        for query in queries.captured_queries:
            sql = query["sql"]
            if not sql.startswith("SELECT") or not any(f'"{table}"' in sql for table in BIG):
                continue
            if WHOLE_COUNT.match(sql):
                continue
            with connection.cursor() as cursor:
                cursor.execute("EXPLAIN (FORMAT JSON) " + sql)
                plan = cursor.fetchone()[0]
            plan = json.loads(plan) if isinstance(plan, str) else plan
            scanned = set(seq_scans(plan[0]["Plan"])) & BIG
            if scanned:
                problems.append(f"{name}: {', '.join(sorted(scanned))} scanned in full by {sql[:300]}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    "changelist",
    ["clubs_member", "tournaments_competition", "accounts_invitation", "ratings_ratingchange", "season_signoff"],
)
def test_the_admin_lists_join_what_they_show(club, td, changelist):
    """Twice the rows, the same number of queries: every related object shown is read in the list's query."""
    admin = get_user_model().objects.create_superuser("root", "root@example.org", "x")
    browser = Client()
    browser.force_login(admin)
    address = reverse(f"admin:{changelist}_changelist")

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert browser.get(address).status_code == 200
        return len(captured)

    add_rows(club, td, 3)
    few = queries()
    add_rows(club, td, 6)
    assert queries() == few


def add_rows(club, td, count: int) -> None:
    """`count` more rows in each of the admin's lists checked above."""
    from accounts.models import Invitation
    from ratings.models import RatingChange
    from season.models import SignOff

    start = Member.objects.count()
    members = make_members(club, count, base=1500 + start)
    competition = make_competition(club, td, members, slug=f"c{start}")
    for i, member in enumerate(members):
        email = f"m{start + i}@example.org"
        Invitation.objects.create(club=club, kind="member", email=email, member=member, invited_by=td)
        RatingChange.objects.create(member=member, system="knsb", date=timezone.now().date(), old=1500, new=1510)
    for participant in competition.participants.all():
        SignOff.objects.create(participant=participant, round_number=1, answer="present", answered_by=td)
