"""The demo (`manage.py demo`): the demo club's team league with its neighbour club, written through the
league's writer, and `--reset`, which removes both demo clubs with all their data and builds them anew
(leaving other clubs alone)."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from audit.models import AuditEntry
from clubs.models import Club, Member
from teams.models import BoardResult, League, Lineup, Match, Team
from teams.table import league_table
from tournaments.models import Competition, Game

pytestmark = pytest.mark.django_db


def counts() -> dict[str, int]:
    return {
        "clubs": Club.objects.count(), "members": Member.objects.count(), "competitions": Competition.objects.count(),
        "games": Game.objects.count(), "leagues": League.objects.count(), "teams": Team.objects.count(),
        "matches": Match.objects.count(), "lineups": Lineup.objects.count(), "boards": BoardResult.objects.count(),
        "users": get_user_model().objects.count(),
    }  # fmt: skip


def test_the_demo_league_and_a_reset(db):
    other = Club.objects.create(name="Eigen Club", slug="eigen")
    Member.objects.create(club=other, first_name="Ik", last_name="Zelf")
    call_command("demo", stdout=io.StringIO())
    pion, paard = Club.objects.get(slug="de-pion"), Club.objects.get(slug="het-paard")
    assert paard.members.count() == 24 and not paard.competitions.exists()
    league = League.objects.get(club=pion, slug="regio")
    assert league.rules.boards == 6
    assert sorted((t.club.slug, t.rank) for t in league.teams.all()) == [
        (club, rank) for club in ("de-pion", "het-paard") for rank in (1, 2, 3)
    ]
    season = league.season
    matches = list(league.matches.order_by("round", "pk"))
    assert len(matches) == 15 and {m.round for m in matches} == {1, 2, 3, 4, 5}  # 6 teams: 5 rounds of 3
    assert all(season.start <= m.date <= season.end for m in matches)
    played = [m for m in matches if m.round <= 2]
    assert all(m.home_confirmed and m.away_confirmed and not m.disputed for m in played)
    # Each played match gives out 6 board points and 2 match points (2-0 or 1-1): 36 and 12 over 6 matches.
    lines = [line.line for line in league_table(league)]
    assert sum(line.board_points for line in lines) == 36 and sum(line.match_points for line in lines) == 12
    empty = BoardResult.objects.filter(match__league=league, away_player=None)
    assert [(b.match.round, b.board, b.result) for b in empty] == [(2, 6, "")]  # lost by the away team
    coming = [m for m in matches if m.round == 3 and m.lineups.count()]
    assert len(coming) == 1 and coming[0].home.club != coming[0].away.club
    assert coming[0].lineups.count() == 2 and not coming[0].boards.exclude(result="").exists()
    assert not Lineup.objects.filter(match__round__gt=3).exists()
    captain = get_user_model().objects.get(username="paard1")
    assert captain.check_password("clubavond") and captain.member.captained.get().name == "Het Paard 1"
    page = Client().get(reverse("league", args=["de-pion", "regio"]))
    assert page.status_code == 200 and "Het Paard 3" in page.content.decode()

    before, old = counts(), {pion.pk, paard.pk}
    out = io.StringIO()
    call_command("demo", "--reset", stdout=out)
    assert "Demo club ready" in out.getvalue()
    assert counts() == before  # the same demo again, nothing left over and nothing twice
    assert not Club.objects.filter(pk__in=old).exists()
    assert set(Club.objects.values_list("slug", flat=True)) == {"de-pion", "het-paard", "eigen"}
    assert other.members.get().full_name == "Ik Zelf"
    removed = AuditEntry.objects.filter(action="club-remove")
    assert sorted(e.club_id for e in removed) == sorted(old)  # one entry per club; the log itself stays
    assert AuditEntry.objects.filter(club_id__in=old, action="league-result").exists()
