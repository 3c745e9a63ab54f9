"""A league's public pages: a match's page (line-ups once both are in, colours, points, result, the
captains' confirmations), a team's page (roster in board order with each player's score per board, its
matches, its captain), the club's calendar with the league's dated matches, and their caching: ETags
and `304 Not Modified` keyed on the league's version, renewed by every change; the version read from the
process's memory (the league's stamp, forgotten by every change) and the pages rendered at most once per
PAGE_RENDER_SECONDS, as a competition's are."""

from __future__ import annotations

import re
import time
from datetime import date

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache, caches
from django.test import Client
from django.urls import reverse

from clubs.models import Club
from pairing.services import leagues as ls
from teams.caching import LEAGUE, forget_league_stamps, league_stamp_key
from teams.models import League, Match
from tests.conftest import make_members
from tests.tournaments.test_render_throttle import Clock, without_tokens
from tournaments import caching
from tournaments.versioning import remember_stamp, stamp_key

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(club, td):
    """Two boards, the home team White on board 1 (`home_white` odd). Testclub 1 (captain: its first
    player) at home against Rivaal 1 on 3 October 2026."""
    other = Club.objects.create(name="SC Rivaal", slug="rivaal")
    ours, theirs = make_members(club, 3), make_members(other, 2, base=1900)
    ours[0].birth_date = date(1961, 7, 14)
    ours[0].save()
    for member in theirs:
        member.first_name = f"Gast{member.first_name[-3:]}"
        member.save()
    league = ls.create_league(club, td, name="Regio", slug="regio", settings={"boards": 2})
    home = ls.add_team(league, td, club=club, name="Testclub 1", captain=ours[0])
    away = ls.add_team(league, td, club=other, name="Rivaal 1")
    ls.set_roster(home, td, ours[:2], reserves=[ours[2]])
    ls.set_roster(away, td, theirs)
    ls.make_schedule(league, td, dates=[date(2026, 10, 3)])
    league.refresh_from_db()
    league.ours, league.theirs, league.other, league.home, league.away = ours, theirs, other, home, away
    league.match = Match.objects.get(league=league)
    return league


def _played(league, td):
    """Board 1 1-0 (home White: home 1), board 2 ½-½: 1½-½, match points 2-0."""
    match = league.match
    ls.set_lineup(match, league.home, td, league.ours[:2])
    ls.set_lineup(match, league.away, td, league.theirs)
    ls.set_board_results(match, td, {1: "1-0", 2: "½-½"})
    return match


def _url(name, league, *args):
    return reverse(name, args=[league.club.slug, league.slug, *args])


def test_the_match_page_shows_the_line_ups_only_once_both_are_in(client, league, td):
    match = league.match
    url = _url("league_match_page", league, match.pk)
    page = client.get(url).content.decode()
    assert "Testclub 1" in page and "Rivaal 1" in page and "Sat 3 Oct 2026" in page
    assert "Testclub 1 plays at home" in page
    assert "The line-ups are shown once both teams have entered theirs." in page
    ls.set_lineup(match, league.home, td, league.ours[:2])
    page = client.get(url).content.decode()
    assert league.ours[0].full_name not in page  # the other team does not see it before entering its own
    ls.set_lineup(match, league.away, td, league.theirs)
    page = client.get(url).content.decode()
    assert all(m.full_name in page for m in [*league.ours[:2], *league.theirs])
    assert "Board points so far: 0–0" in page


def test_the_match_page_shows_colours_points_result_and_confirmations(client, league, td):
    match = _played(league, td)
    page = client.get(_url("league_match_page", league, match.pk)).content.decode()
    boards = page[page.index('id="match-boards"') :]
    rows = boards.split("<tr>")[2:]
    # Board 1: the home player White, 1-0; board 2: the home player Black, ½-½.
    first, second = (re.sub(r"\s+", " ", row) for row in rows)
    assert first.index('title="White"') < first.index(league.ours[0].full_name) < first.index("1–0")
    assert first.index("1–0") < first.index('title="Black"') < first.index(league.theirs[0].full_name)
    assert second.index('title="Black"') < second.index(league.ours[1].full_name) < second.index("½–½")
    assert "Result: 1½–½ · Match points: 2–0" in re.sub(r"\s+", " ", page)
    assert "Not yet confirmed by the captains." in page
    captain = league.ours[0]
    captain.user = get_user_model().objects.create_user("kees", password="secret-pass-8")
    captain.save()
    ls.dispute_result(match, captain.user, "Board 2 was won by White.")
    page = client.get(_url("league_match_page", league, match.pk)).content.decode()
    assert "The result is disputed (home team); the organiser's TD settles it." in page
    assert "Board 2 was won by White." not in page  # the reason is the TD's to read


def test_the_team_page_shows_roster_scores_per_board_matches_and_captain(client, league, td):
    match = _played(league, td)
    ls.set_roster(league.home, td, league.ours[:2], reserves=[league.ours[2]])
    page = client.get(_url("league_team", league, league.home.pk)).content.decode()
    flat = re.sub(r"\s+", " ", page)
    assert f'Captain: <span id="captain">{league.ours[0].full_name}</span>' in flat
    roster = flat[flat.index('id="roster"') : flat.index("</table>", flat.index('id="roster"'))]
    names = [m.full_name for m in league.ours]
    assert roster.index(names[0]) < roster.index(names[1]) < roster.index(names[2])  # board order, reserve last
    assert "board 1: 1/1" in roster and "board 2: ½/1" in roster
    assert "1961" not in page and "male" not in page  # no private data
    assert _url("league_match_page", league, match.pk) in page and "1½–½" in flat and "2 MP" in flat
    per_board = flat[flat.index('id="per-board"') :]
    assert '<td>1</td><td class="num">1</td><td class="num">1</td>' in per_board
    away = re.sub(r"\s+", " ", client.get(_url("league_team", league, league.away.pk)).content.decode())
    assert "½–1½" in away and "0 MP" in away and 'id="captain">–</span>' in away


def test_a_reserve_from_another_roster_is_listed_with_his_score(client, club, td):
    """Testclub 2's regular plays up for Testclub 1 (play_up 1): he is on Testclub 1's page, without a place."""
    other = Club.objects.create(name="SC Rivaal", slug="rivaal")
    ours, theirs = make_members(club, 3), make_members(other, 2, base=1900)
    league = ls.create_league(club, td, name="Regio", slug="regio", settings={"boards": 2})
    first = ls.add_team(league, td, club=club, name="Testclub 1", rank=1)
    second = ls.add_team(league, td, club=club, name="Testclub 2", rank=2)
    away = ls.add_team(league, td, club=other, name="Rivaal 1")
    ls.set_roster(first, td, ours[:2])
    ls.set_roster(second, td, ours[2:])
    ls.set_roster(away, td, theirs)
    ls.make_schedule(league, td, order=[first, away, second])
    match = Match.objects.get(league=league, home=first, away=away)
    ls.set_lineup(match, first, td, [ours[0], ours[2]])
    ls.set_lineup(match, away, td, theirs)
    ls.set_board_results(match, td, {1: "1-0", 2: "0-1"})  # board 2: the home team Black, wins
    page = re.sub(r"\s+", " ", client.get(_url("league_team", league, first.pk)).content.decode())
    assert f"<td> – </td> <td>{ours[2].full_name}</td>" in page and "board 2: 1/1" in page


def test_unknown_match_team_or_league_is_404(client, league, td):
    other = ls.create_league(league.club, td, name="Andere", slug="andere")
    assert client.get(_url("league_match_page", league, 999999)).status_code == 404
    assert client.get(_url("league_team", league, 999999)).status_code == 404
    assert client.get(_url("league_team", other, league.home.pk)).status_code == 404  # a team of another league
    assert client.get(_url("league_match_page", other, league.match.pk)).status_code == 404
    assert client.get(reverse("league_team", args=[league.club.slug, "nope", league.home.pk])).status_code == 404
    assert client.get(reverse("league_match_page", args=["nope", "regio", league.match.pk])).status_code == 404


def test_a_member_and_the_public_read_the_pages_the_td_sees_his_links(client, league, td):
    member = league.ours[1]
    member.user = get_user_model().objects.create_user("lid", password="secret-pass-7")
    member.save()
    reader = Client()
    reader.force_login(member.user)
    captain = _url("league_team_captain", league, league.home.pk)
    manage = _url("league_match", league, league.match.pk)
    for who in (client, reader):
        team = who.get(_url("league_team", league, league.home.pk))
        match = who.get(_url("league_match_page", league, league.match.pk))
        assert team.status_code == match.status_code == 200
        assert captain not in team.content.decode() and manage not in match.content.decode()
    assert "private" in reader.get(_url("league_team", league, league.home.pk))["Cache-Control"]
    client.force_login(td)
    assert captain in client.get(_url("league_team", league, league.home.pk)).content.decode()
    assert manage in client.get(_url("league_match_page", league, league.match.pk)).content.decode()


def test_the_league_page_and_table_link_the_team_and_match_pages(client, league, td):
    _played(league, td)
    page = client.get(_url("league", league)).content.decode()
    table = page[page.index('id="league-table"') : page.index("</table>", page.index('id="league-table"'))]
    assert _url("league_team", league, league.home.pk) in table and _url("league_team", league, league.away.pk) in table
    assert _url("league_match_page", league, league.match.pk) in page


@pytest.mark.parametrize("name", ["league", "league_match_page", "league_team"])
def test_the_pages_answer_304_until_the_league_changes(client, league, td, name):
    args = {"league": (), "league_match_page": (league.match.pk,), "league_team": (league.home.pk,)}[name]
    url = _url(name, league, *args)
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"]
    assert "no-store" not in first["Cache-Control"] and "no-cache" in first["Cache-Control"]
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    _played(league, td)
    second = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200 and second["ETag"] != first["ETag"]
    assert "1½" in second.content.decode()  # the result, not the cached copy of the page before it
    # A member's new name is on the pages (his row is no league's: `teams.signals` raises the version).
    member = league.ours[0]
    member.last_name = "Hernoemd"
    member.save()
    third = client.get(url, HTTP_IF_NONE_MATCH=second["ETag"])
    assert third.status_code == 200 and "Hernoemd" in third.content.decode()


def test_a_league_of_another_club_keeps_its_version_when_a_member_is_renamed(league, td):
    stranger = make_members(Club.objects.create(name="Ver weg", slug="verweg"), 1)[0]
    before = League.objects.get(pk=league.pk).version
    stranger.last_name = "Anders"
    stranger.save()
    assert League.objects.get(pk=league.pk).version == before
    league.other.name = "SC Rivaal 1900"
    league.other.save()
    assert League.objects.get(pk=league.pk).version == before + 1


NEW_STRINGS = ["plays at home", "The line-ups are shown", "Board points so far", "Not yet confirmed",
               "Roster", "Per board", "Points per board", "Boards decided", "Games: played", "Team matches",
               "Change the captain", "Match points", ">Board<", "Result:"]  # fmt: skip


@pytest.mark.parametrize("language", ["nl", "da"])
def test_the_new_pages_speak_dutch_and_danish(client, league, td, language):
    _played(league, td)
    client.force_login(td)
    pages = [
        client.get(_url("league_match_page", league, league.match.pk), HTTP_ACCEPT_LANGUAGE=language),
        client.get(_url("league_team", league, league.home.pk), HTTP_ACCEPT_LANGUAGE=language),
        client.get(_url("league_team_captain", league, league.home.pk), HTTP_ACCEPT_LANGUAGE=language),
        client.get(reverse("club_calendar", args=[league.club.slug]), HTTP_ACCEPT_LANGUAGE=language),
    ]
    text = "".join(page.content.decode() for page in pages)
    assert all(page.status_code == 200 for page in pages)
    left = [s for s in NEW_STRINGS if s in text]
    assert not left, left
    assert ("Holdkamp" if language == "da" else "Teamwedstrijden") in text


def test_the_club_calendar_shows_the_matches_of_its_leagues(client, league, td):
    """The organiser's and the playing club's calendars list the dated match with its page; another's not."""
    link = _url("league_match_page", league, league.match.pk)
    for club in (league.club, league.other):
        page = client.get(reverse("club_calendar", args=[club.slug])).content.decode()
        assert link in page and 'id="league-matches"' in page
        assert "Regio" in page and "Testclub 1 – Rivaal 1" in page
    stranger = Club.objects.create(name="Ver weg", slug="verweg")
    page = client.get(reverse("club_calendar", args=[stranger.slug])).content.decode()
    assert link not in page and 'id="league-matches"' not in page
    Match.objects.filter(pk=league.match.pk).update(date=None)
    assert link not in client.get(reverse("club_calendar", args=[league.club.slug])).content.decode()


def test_a_page_read_again_asks_the_database_nothing_until_the_league_changes(
    client, league, td, django_assert_num_queries
):
    url = _url("league", league)
    first = client.get(url)
    with django_assert_num_queries(0):  # the league's stamp and the page's copy are in memory
        assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
        assert client.get(url).status_code == 200
    _played(league, td)  # each action forgets the league's stamp
    second = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200 and "1½" in second.content.decode()


def test_a_leagues_stamp_is_never_a_competitions():
    """A league and a competition of one club with one short name and one primary key: each has its own
    stamp, and forgetting the league's leaves the competition's."""
    stamps = caches["stamps"]
    assert league_stamp_key("testclub", "regio") != stamp_key("testclub", "regio")
    remember_stamp(stamp_key("testclub", "regio"), (7, 1, 0.0), 60)
    remember_stamp(league_stamp_key("testclub", "regio"), (7, 2, 0.0), 60, LEAGUE)
    forget_league_stamps([7])
    assert stamps.get(league_stamp_key("testclub", "regio")) is None
    assert stamps.get(stamp_key("testclub", "regio")) == (7, 1, 0.0)


@pytest.fixture
def clock(monkeypatch, settings):
    settings.PAGE_RENDER_SECONDS = 1
    settings.PAGE_STAMP_SECONDS = 0
    fake = Clock()
    monkeypatch.setattr(time, "time", fake)  # the locmem cache's expiry, and the copies' ages
    monkeypatch.setattr(caching, "clock", fake)
    return fake


def test_changes_within_the_second_are_answered_with_the_copy_before_and_its_age(client, league, td, clock):
    url = _url("league", league)
    first = client.get(url)
    assert first.status_code == 200 and "Age" not in first
    clock.advance(0.4)
    ls.set_lineup(league.match, league.home, td, league.ours[:2])  # the page's first change: rendered at once
    second = client.get(url)
    assert second["ETag"] != first["ETag"] and "Age" not in second
    clock.advance(0.3)  # 0.3 s after that rendering: the league's marker is held
    ls.set_lineup(league.match, league.away, td, league.theirs)
    third = client.get(url)
    assert third["ETag"] == second["ETag"] and third["Age"] == "0"
    assert without_tokens(third) == without_tokens(second)  # the copy rendered before
    clock.advance(0.5)
    assert Client().get(url)["Age"] == "0"  # another visitor, 0.8 s on: the same copy
    clock.advance(0.3)  # past the second: the marker expired, the new version is rendered
    fourth = client.get(url)
    assert "Age" not in fourth and fourth["ETag"] not in (first["ETag"], second["ETag"])


def test_the_league_has_its_own_render_marker_and_its_td_is_never_served_an_older_copy(client, league, td, clock):
    url = _url("league", league)
    client.force_login(td)
    visitor = Client()
    for reader in (client, visitor):
        reader.get(url)
    ls.set_lineup(league.match, league.home, td, league.ours[:2])
    cache.add(caching._rendering_key(league.pk), clock(), 1)  # a competition with the league's primary key
    assert "Age" not in visitor.get(url)  # renders: the competition's marker is not the league's
    ls.set_lineup(league.match, league.away, td, league.theirs)
    cache.add(caching._rendering_key(league.pk, LEAGUE), clock(), 1)  # another process renders the league
    assert visitor.get(url)["Age"] == "0"
    assert "Age" not in client.get(url)  # the league's TD: his own change shows at once
