"""Two TDs of the organiser on one league's pages: each post carries what its page showed (`based_on`),
checked under the league's lock; the second post based on a page that is out of date writes nothing and
says what changed, by whom and when."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from clubs.models import Club
from pairing.services import leagues as ls
from teams.models import BoardResult, Lineup, Match, Team
from tests.conftest import make_members

pytestmark = pytest.mark.django_db
STALE = "This changed after your page was shown (%s, by Jan Tweede at "


def seen(page, name: str = "based_on") -> int:
    """What a page showed: its form's hidden `based_on`."""
    return int(re.search(rf'name="{name}" value="(\d+)"', page.content.decode()).group(1))


@pytest.fixture
def league(club, td):
    other = Club.objects.create(name="SC Rivaal", slug="rivaal")
    league = ls.create_league(club, td, name="Regio", slug="regio", settings={"boards": 2})
    ours, theirs = make_members(club, 3), make_members(other, 3)
    ls.add_team(league, td, club=club, name="Testclub 1")
    ls.add_team(league, td, club=other, name="Rivaal 1")
    ls.set_roster(league.teams.get(club=club), td, ours[:2], reserves=[ours[2]])
    ls.set_roster(league.teams.get(club=other), td, theirs[:2], reserves=[theirs[2]])
    league.ours, league.theirs, league.other = ours, theirs, other
    return league


def test_add_team_on_a_stale_page_is_refused(td_client, other_td, club, league):
    user, jan = other_td
    manage = reverse("league_manage", args=[club.slug, league.slug])
    mine, his = seen(td_client.get(manage)), seen(jan.get(manage))
    assert mine == his == ls.league_seen(league) > 0
    assert jan.post(manage, {"club": club.pk, "name": "Testclub 2", "rank": 2, "based_on": his}).status_code == 302
    response = td_client.post(manage, {"club": club.pk, "name": "Testclub 3", "rank": 3, "based_on": mine})
    assert response.status_code == 400
    assert STALE % "team added to the league" in response.content.decode()
    assert not Team.objects.filter(name="Testclub 3").exists()
    again = seen(td_client.get(manage))
    assert again > mine
    response = td_client.post(manage, {"club": club.pk, "name": "Testclub 3", "rank": 3, "based_on": again})
    assert response.status_code == 302


def test_roster_on_a_stale_page_is_refused(td_client, other_td, club, league):
    _user, jan = other_td
    manage = reverse("league_manage", args=[club.slug, league.slug])
    roster = reverse("league_roster", args=[club.slug, league.slug])
    mine, his = seen(td_client.get(manage)), seen(jan.get(manage))
    team = league.teams.get(club=club)
    ours = league.ours
    names = "\n".join(m.full_name for m in (ours[1], ours[0]))
    assert jan.post(roster, {"team": team.pk, "regulars": names, "based_on": his}).status_code == 302
    response = td_client.post(roster, {"team": team.pk, "regulars": ours[2].full_name, "based_on": mine})
    assert response.status_code == 400
    assert STALE % "team roster" in response.content.decode()
    assert [p.member for p in team.players.filter(reserve=False)] == [ours[1], ours[0]]


def test_schedule_on_a_stale_page_is_refused(td_client, other_td, club, league):
    _user, jan = other_td
    manage = reverse("league_manage", args=[club.slug, league.slug])
    schedule = reverse("league_schedule", args=[club.slug, league.slug])
    mine, his = seen(td_client.get(manage)), seen(jan.get(manage))
    assert jan.post(manage, {"club": club.pk, "name": "Testclub 2", "rank": 2, "based_on": his}).status_code == 302
    response = td_client.post(schedule, {"weeks": "4", "based_on": mine})
    assert response.status_code == 400
    assert STALE % "team added to the league" in response.content.decode()
    assert not Match.objects.exists()
    # A double click: the first post made the schedule, the second (same page) is refused.
    fresh = seen(td_client.get(manage))
    assert td_client.post(schedule, {"weeks": "4", "based_on": fresh}).status_code == 302
    count = Match.objects.count()
    response = td_client.post(schedule, {"weeks": "4", "based_on": fresh})
    assert response.status_code == 400 and Match.objects.count() == count == 3


def _scheduled(league, td):
    ls.make_schedule(league, td)
    return Match.objects.get(league=league, round=1)


def test_lineup_on_a_stale_page_is_refused(td_client, other_td, club, league, td):
    _user, jan = other_td
    match = _scheduled(league, td)
    page = reverse("league_match", args=[club.slug, league.slug, match.pk])
    side = "home" if match.home.club_id == club.pk else "away"
    mine, his = seen(td_client.get(page), f"{side}-based_on"), seen(jan.get(page), f"{side}-based_on")
    ours = league.ours
    data = {"action": side, f"{side}-board_1": ours[0].pk, f"{side}-board_2": ours[1].pk}
    assert jan.post(page, {**data, f"{side}-based_on": his}).status_code == 302
    swapped = {**data, f"{side}-board_1": ours[1].pk, f"{side}-board_2": ours[0].pk, f"{side}-based_on": mine}
    response = td_client.post(page, swapped)
    assert response.status_code == 400
    assert STALE % "line-up" in response.content.decode()
    board = BoardResult.objects.get(match=match, board=1)
    assert getattr(board, f"{side}_player") == ours[0]


def test_board_result_on_a_stale_page_is_refused(td_client, other_td, club, league, td):
    user, jan = other_td
    match = _scheduled(league, td)
    ours, theirs = league.ours[:2], league.theirs[:2]
    ls.set_lineup(match, match.home, td, ours if match.home.club_id == club.pk else theirs)
    ls.set_lineup(match, match.away, td, theirs if match.home.club_id == club.pk else ours)
    assert Lineup.objects.filter(match=match).count() == 2
    page = reverse("league_match", args=[club.slug, league.slug, match.pk])
    mine, his = seen(td_client.get(page)), seen(jan.get(page))
    assert mine == his == ls.match_seen(match)
    assert jan.post(page, {"action": "results", "result_1": "1-0", "result_2": "", "based_on": his}).status_code == 302
    response = td_client.post(page, {"action": "results", "result_1": "0-1", "result_2": "½-½", "based_on": mine})
    assert response.status_code == 400
    assert STALE % "board result in a team match" in response.content.decode()
    assert [b.result for b in match.boards.all()] == ["1-0", ""]


def test_a_match_date_on_a_stale_card_is_refused(league, td):
    """A match's basis is the latest entry about that match (here its date); the league's own entries
    (a roster) leave it as it was."""
    match = _scheduled(league, td)
    assert ls.match_seen(match) == 0
    ls.set_roster(match.home, td, league.ours[:2] if match.home.club_id == league.club_id else league.theirs[:2])
    assert ls.match_seen(match) == 0
    before = ls.match_seen(match)
    ls.set_match_date(match, td, None, based_on=before)
    assert ls.match_seen(match) > before
    with pytest.raises(ls.ValidationError, match="This changed after your page was shown"):
        ls.set_match_date(match, td, None, based_on=before)
