"""A team's captain changed: by the organiser's TD or a TD of the team's own club, to a member of the
team's club, through the league's writer (guarded with what the page showed, audited); the new captain
opens his team's match cards, the old one no more."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from audit.models import AuditEntry
from clubs.models import Club, ClubRole
from pairing.services import leagues as ls
from teams.models import Match
from tests.conftest import make_members
from tests.guard import messages_of, stale_message

pytestmark = pytest.mark.django_db


def _account(member, name: str) -> Client:
    member.user = get_user_model().objects.create_user(name, password="secret-pass-9")
    member.save(update_fields=["user"])
    client = Client()
    client.force_login(member.user)
    return client


@pytest.fixture
def league(club, td):
    other = Club.objects.create(name="SC Rivaal", slug="rivaal")
    ours, theirs = make_members(club, 3), make_members(other, 2)
    league = ls.create_league(club, td, name="Regio", slug="regio", settings={"boards": 2})
    league.home = ls.add_team(league, td, club=club, name="Testclub 1", captain=ours[0])
    league.away = ls.add_team(league, td, club=other, name="Rivaal 1")
    ls.make_schedule(league, td)
    league.ours, league.theirs, league.other = ours, theirs, other
    return league


def _page(league, team):
    return reverse("league_team_captain", args=[league.club.slug, league.slug, team.pk])


def _seen(client, url) -> int:
    return int(re.search(r'name="based_on" value="(\d+)"', client.get(url).content.decode()).group(1))


def test_the_organisers_td_changes_the_captain_and_the_new_one_opens_the_match_card(td_client, league):
    url = _page(league, league.home)
    old, new = league.ours[0], league.ours[1]
    old_client, new_client = _account(old, "oud"), _account(new, "nieuw")
    match = Match.objects.get(league=league)
    card = reverse("league_captain", args=[league.club.slug, league.slug, match.pk])
    assert old_client.get(card).status_code == 200 and new_client.get(card).status_code == 403
    manage = td_client.get(reverse("league_manage", args=[league.club.slug, league.slug])).content.decode()
    assert url in manage and f"Captain: {old.full_name}" in manage
    page = td_client.get(url)
    assert page.status_code == 200 and old.full_name in page.content.decode()
    response = td_client.post(url, {"captain": new.pk, "based_on": _seen(td_client, url)}, follow=True)
    team_page = reverse("league_team", args=[league.club.slug, league.slug, league.home.pk])
    assert response.redirect_chain[-1][0] == team_page
    assert "Captain saved." in messages_of(response)
    league.home.refresh_from_db()
    assert league.home.captain == new
    assert old_client.get(card).status_code == 403 and new_client.get(card).status_code == 200
    entry = AuditEntry.objects.filter(action="league-captain").get()
    assert (entry.before, entry.after) == ({"captain": old.full_name}, {"captain": new.full_name})
    assert entry.params["team_id"] == league.home.pk and entry.object_label == "Testclub 1"


def test_the_td_of_the_teams_club_chooses_its_captain_not_another_teams(league):
    """Rivaal's TD directs Rivaal 1's captain, not Testclub 1's; the organiser's TD both."""
    user = get_user_model().objects.create_user("rivaal-td", password="secret-pass-3")
    ClubRole.objects.create(club=league.other, user=user, role=ClubRole.Role.DIRECTOR)
    client = Client()
    client.force_login(user)
    theirs = _page(league, league.away)
    assert client.post(theirs, {"captain": league.theirs[1].pk, "based_on": 0}).status_code == 302
    league.away.refresh_from_db()
    assert league.away.captain == league.theirs[1]
    assert client.get(_page(league, league.home)).status_code == 403
    assert client.post(_page(league, league.home), {"captain": ""}).status_code == 403
    league.home.refresh_from_db()
    assert league.home.captain == league.ours[0]


def test_nobody_else_changes_a_captain(client, league, viewer):
    url = _page(league, league.home)
    assert client.get(url).status_code == 302 and "login" in client.get(url)["Location"]
    member = _account(league.ours[2], "lid")
    assert member.get(url).status_code == 403
    assert member.post(url, {"captain": league.ours[2].pk}).status_code == 403
    client.force_login(viewer)
    assert client.post(url, {"captain": league.ours[2].pk}).status_code == 403
    assert not AuditEntry.objects.filter(action="league-captain").exists()
    with pytest.raises(ValidationError, match="Only the organiser's TD or a TD of SV Testclub"):
        ls.set_captain(league.home, league.ours[2].user, league.ours[2])


def test_the_captain_is_a_member_of_the_teams_club(td_client, league, td):
    response = td_client.post(_page(league, league.home), {"captain": league.theirs[0].pk})
    assert response.status_code == 400 and "Select a valid choice" in response.content.decode()
    with pytest.raises(ValidationError, match="is no member of SV Testclub"):
        ls.set_captain(league.home, td, league.theirs[0])
    league.home.refresh_from_db()
    assert league.home.captain == league.ours[0]
    ls.set_captain(league.home, td, None)  # no captain: the TD enters the line-ups and results himself
    league.home.refresh_from_db()
    assert league.home.captain is None


def test_a_captain_chosen_on_a_stale_page_is_refused(td_client, other_td, league):
    """Both TDs open the captain page; Jan chooses one captain, the other TD's post (on the older page)
    writes nothing and says what changed, by whom and when; reloaded, his choice is saved."""
    _user, jan = other_td
    url = _page(league, league.home)
    mine, his = _seen(td_client, url), _seen(jan, url)
    assert mine == his == ls.team_seen(league.home) == 0
    assert jan.post(url, {"captain": league.ours[1].pk, "based_on": his}).status_code == 302
    response = td_client.post(url, {"captain": league.ours[2].pk, "based_on": mine})
    assert response.status_code == 400
    stale_message(response.content.decode().replace("&#x27;", "'"), "team captain")
    league.home.refresh_from_db()
    assert league.home.captain == league.ours[1]
    again = _seen(td_client, url)
    assert again > mine
    assert td_client.post(url, {"captain": league.ours[2].pk, "based_on": again}).status_code == 302
    league.home.refresh_from_db()
    assert league.home.captain == league.ours[2]


def test_another_teams_captain_change_leaves_this_page_current(league, td):
    before = ls.team_seen(league.home)
    ls.set_captain(league.away, td, league.theirs[0])
    assert ls.team_seen(league.home) == before
    ls.set_captain(league.home, td, league.ours[1], based_on=before)
    assert ls.team_seen(league.home) > before
