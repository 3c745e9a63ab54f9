"""Captains: each enters his own team's line-up and his match's results from his phone, both confirm the
result (then it is locked, only the organiser's TD changes it), or one disputes it and the organiser's TD
settles it. Every step is in the audit log, in the reader's language; a member's page shows his team's
coming matches."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import translation

from audit.history import action_name, details
from audit.models import AuditEntry
from clubs.models import Club
from pairing.services import leagues as ls
from teams.models import Match
from tests.conftest import make_members

pytestmark = pytest.mark.django_db


def _account(member, name: str) -> Client:
    user = get_user_model().objects.create_user(name, password="secret-pass-9")
    member.user = user
    member.save(update_fields=["user"])
    client = Client()
    client.force_login(user)
    client.user = user
    return client


@pytest.fixture
def card(club, td):
    """A two-board league of two teams, each with a captain who has an account; round 1 in a week."""
    other = Club.objects.create(name="SC Rivaal", slug="rivaal")
    ours, theirs = make_members(club, 3), make_members(other, 3)
    home_captain, away_captain = _account(ours[0], "kees"), _account(theirs[0], "piet")
    league = ls.create_league(club, td, name="Regio", slug="regio", settings={"boards": 2})
    home = ls.add_team(league, td, club=club, name="Testclub 1", captain=ours[0])
    away = ls.add_team(league, td, club=other, name="Rivaal 1", captain=theirs[0])
    ls.set_roster(home, td, ours[:2], reserves=[ours[2]])
    ls.set_roster(away, td, theirs[:2])
    ls.make_schedule(league, td, dates=[date.today() + timedelta(days=7)])
    match = Match.objects.get(league=league, round=1)
    assert (match.home, match.away) == (home, away)
    url = reverse("league_captain", args=[club.slug, league.slug, match.pk])
    return {"match": match, "url": url, "home": home_captain, "away": away_captain, "ours": ours, "theirs": theirs}


def seen(client, url, name="based_on") -> int:
    return int(re.search(rf'name="{name}" value="(\d+)"', client.get(url).content.decode()).group(1))


def _lineups(card):
    url, home, away = card["url"], card["home"], card["away"]
    ours, theirs = card["ours"], card["theirs"]
    data = {"action": "home", "home-board_1": ours[0].pk, "home-board_2": ours[2].pk}
    assert home.post(url, {**data, "home-based_on": seen(home, url, "home-based_on")}).status_code == 302
    data = {"action": "away", "away-board_1": theirs[0].pk, "away-board_2": theirs[1].pk}
    assert away.post(url, {**data, "away-based_on": seen(away, url, "away-based_on")}).status_code == 302


def _results(client, url, one, two):
    data = {"action": "results", "result_1": one, "result_2": two, "based_on": seen(client, url)}
    return client.post(url, data)


def test_a_captain_enters_his_own_line_up_only(card, client, viewer):
    url, home, match = card["url"], card["home"], card["match"]
    page = home.get(url)
    assert page.status_code == 200
    assert 'id="lineup-home"' in page.content.decode() and 'id="lineup-away"' not in page.content.decode()
    theirs = card["theirs"]
    other_side = {"action": "away", "away-board_1": theirs[1].pk, "away-based_on": 0}
    assert home.post(url, other_side).status_code == 400
    assert not match.boards.exists()
    with pytest.raises(ValidationError, match="Only the organiser's TD or the captain of Rivaal 1"):
        ls.set_lineup(match, match.away, home.user, theirs[:2])
    _lineups(card)
    assert [(b.home_player, b.away_player) for b in match.boards.all()] == [
        (card["ours"][0], theirs[0]), (card["ours"][2], theirs[1])
    ]  # fmt: skip
    assert client.get(url).status_code == 302  # not logged in: to the login page
    client.force_login(viewer)
    assert client.get(url).status_code == 403


def test_both_captains_confirm_then_the_result_is_locked(card, td_client):
    url, home, away, match = card["url"], card["home"], card["away"], card["match"]
    _lineups(card)
    assert _results(home, url, "1-0", "½-½").status_code == 302
    refused = home.post(url, {"action": "confirm", "confirm-based_on": seen(home, url, "confirm-based_on") + 1})
    assert refused.status_code == 400  # a page that is not the one shown
    confirm = {"action": "confirm", "confirm-based_on": seen(home, url, "confirm-based_on")}
    assert home.post(url, confirm).status_code == 302
    # The other captain changes a result: the confirmation given for the old one lapses.
    assert _results(away, url, "1-0", "0-1").status_code == 302
    match.refresh_from_db()
    assert not match.home_confirmed
    for captain in (home, away):
        data = {"action": "confirm", "confirm-based_on": seen(captain, url, "confirm-based_on")}
        assert captain.post(url, data).status_code == 302
    match.refresh_from_db()
    assert match.locked
    assert 'id="confirmed"' in home.get(url).content.decode() and 'id="results"' not in home.get(url).content.decode()
    with pytest.raises(ValidationError, match="only the organiser's TD changes it"):
        ls.set_board_results(match, home.user, {2: "½-½"})
    # The organiser's TD still may.
    page = reverse("league_match", args=[match.league.club.slug, match.league.slug, match.pk])
    assert _results(td_client, page, "1-0", "½-½").status_code == 302
    assert [b.result for b in match.boards.all()] == ["1-0", "½-½"]
    actions = list(AuditEntry.objects.filter(action="league-confirm").values_list("params__team", flat=True))
    assert sorted(actions) == ["Rivaal 1", "Testclub 1", "Testclub 1"]


def test_a_dispute_is_settled_by_the_organisers_td(card, td_client):
    url, home, away, match = card["url"], card["home"], card["away"], card["match"]
    _lineups(card)
    assert _results(home, url, "1-0", "1-0").status_code == 302
    data = {"action": "dispute", "dispute-reason": "Board 2 was a draw", "dispute-based_on": 0}
    assert away.post(url, data).status_code == 400  # the page showed no entry about the match: out of date
    data["dispute-based_on"] = seen(away, url, "dispute-based_on")
    assert away.post(url, data).status_code == 302
    match.refresh_from_db()
    assert match.disputed == "away" and not match.locked
    assert "De uitslag wordt betwist (uitteam)" in home.get(url, HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert 'id="results"' not in home.get(url).content.decode()  # no results form while disputed
    data = {"action": "results", "result_1": "1-0", "result_2": "½-½", "based_on": ls.match_seen(match)}
    assert home.post(url, data).status_code == 400
    with pytest.raises(ValidationError, match="disputed"):
        ls.set_board_results(match, home.user, {2: "½-½"})
    with pytest.raises(ValidationError, match="Only the organiser's TD settles"):
        ls.settle_dispute(match, away.user, {2: "½-½"})
    page = reverse("league_match", args=[match.league.club.slug, match.league.slug, match.pk])
    settle = {"action": "settle", "settle-result_1": "1-0", "settle-result_2": "½-½"}
    settle["settle-based_on"] = seen(td_client, page, "settle-based_on")
    assert td_client.post(page, settle).status_code == 302
    match.refresh_from_db()
    assert match.locked and not match.disputed
    assert [b.result for b in match.boards.all()] == ["1-0", "½-½"]
    settled = AuditEntry.objects.get(action="league-settle")
    assert settled.before == {"1": "1-0", "2": "1-0"} and settled.after == {"1": "1-0", "2": "½-½"}
    disputed = AuditEntry.objects.get(action="league-dispute")
    with translation.override("nl"):
        assert action_name(disputed) == "uitslag van een teamwedstrijd betwist door een teamleider"
        assert "Board 2 was a draw" in " ".join(details(disputed))
    with translation.override("da"):
        assert action_name(settled) == "omstridt resultat af holdkamp afgjort"


def test_the_td_settles_with_the_fields_his_card_shows(card, td_client):
    """The TD's card of a disputed match shows what the disputing captain says is wrong, and posts its board
    fields back as the settle form reads them (docs/team-leagues.md, "Captains": the organiser's TD sets the
    boards' results): the results he chose are saved, not emptied; the reason is no longer shown."""
    url, home, away, match = card["url"], card["home"], card["away"], card["match"]
    _lineups(card)
    assert _results(home, url, "1-0", "1-0").status_code == 302
    data = {"action": "dispute", "dispute-reason": "Board 2 was a draw"}
    assert away.post(url, {**data, "dispute-based_on": seen(away, url, "dispute-based_on")}).status_code == 302
    page = reverse("league_match", args=[match.league.club.slug, match.league.slug, match.pk])
    # The TD and both captains read on the card what the disputing captain says is wrong.
    for reader, url_ in ((td_client, page), (home, url), (away, url)):
        assert 'id="dispute-reason">What is wrong: Board 2 was a draw</p>' in reader.get(url_).content.decode()
    form = re.search(r'<form[^>]*id="results".*?</form>', td_client.get(page).content.decode(), re.S).group()
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form))
    boards = re.findall(r'<select name="([^"]+)"', form)
    assert fields["action"] == "settle" and len(boards) == 2
    chosen = dict(zip(boards, ["1-0", "½-½"], strict=True))
    assert td_client.post(page, {**fields, **chosen}).status_code == 302
    match.refresh_from_db()
    assert match.locked and not match.disputed
    assert [b.result for b in match.boards.all()] == ["1-0", "½-½"]
    assert 'id="dispute-reason"' not in td_client.get(page).content.decode()


def test_the_members_page_shows_his_teams_coming_matches(card):
    home, match = card["home"], card["match"]
    page = home.get(reverse("my_page")).content.decode()
    assert 'id="team-matches"' in page
    assert "Testclub 1 – Rivaal 1" in page and card["url"] in page
    public = reverse("league_match_page", args=[match.league.club.slug, match.league.slug, match.pk])
    assert f'<a href="{public}">Testclub 1 – Rivaal 1</a>' in page  # the match's public page
    _lineups(card)
    page = home.get(reverse("my_page")).content.decode()
    section = page[page.index('id="team-matches"') :]
    assert "board 1" in section.split("</li>")[0].lower()
    assert match.date.strftime("%Y") in section
