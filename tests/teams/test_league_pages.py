"""A team league's pages: the organiser's TD makes a league, adds teams and rosters, makes the schedule;
anyone reads the table; bad input is answered with the reason, never a server error."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from audit.models import AuditEntry
from clubs.models import Club
from pairing.services import leagues as ls
from teams.models import League, Match
from tests.conftest import make_members

pytestmark = pytest.mark.django_db

NEW = {
    "name": "Regio 2026", "slug": "regio", "boards": "4", "cycles": "1", "match_win": "2", "match_draw": "1",
    "match_loss": "0", "primary": "MP", "home_white": "odd", "play_up": "1", "max_reserves": "0", "tiebreaks": "EDE",
}  # fmt: skip


def test_td_makes_a_league_with_teams_rosters_and_schedule(td_client, club):
    other = Club.objects.create(name="SC Rivaal", slug="rivaal")
    ours, theirs = make_members(club, 4), make_members(other, 4)
    response = td_client.post(reverse("league_new", args=[club.slug]), NEW)
    assert response.status_code == 302
    league = League.objects.get(club=club, slug="regio")
    assert league.rules.boards == 4 and league.tiebreaks == ["EDE"]
    manage = reverse("league_manage", args=[club.slug, "regio"])
    for data in ({"club": club.pk, "name": "Testclub 1", "rank": 1}, {"club": other.pk, "name": "Rivaal 1", "rank": 1}):
        assert td_client.post(manage, data).status_code == 302
    team = league.teams.get(name="Rivaal 1")
    names = "\n".join(m.full_name for m in theirs)
    response = td_client.post(reverse("league_roster", args=[club.slug, "regio"]), {"team": team.pk, "regulars": names})
    assert response.status_code == 302 and response["Location"] == manage
    assert [str(m) for m in get_messages(response.wsgi_request)][-1] == "Roster saved."
    assert [p.member for p in team.players.all()] == theirs
    schedule = reverse("league_schedule", args=[club.slug, "regio"])
    response = td_client.post(schedule, {"first_date": "2026-10-03", "weeks": "4"})
    assert response.status_code == 302 and response["Location"] == reverse("league", args=[club.slug, "regio"])
    assert [str(m) for m in get_messages(response.wsgi_request)][-1] == "Schedule made."
    match = Match.objects.get(league=league)
    assert (match.round, match.home.name, match.away.name, str(match.date)) == (
        1,
        "Testclub 1",
        "Rivaal 1",
        "2026-10-03",
    )
    page = td_client.get(reverse("league", args=[club.slug, "regio"]))
    assert page.status_code == 200
    assert b"Rivaal 1" in page.content and b'id="league-table"' in page.content
    assert AuditEntry.objects.filter(action__startswith="league-").count() == 5
    assert ours  # Testclub's members exist but have no roster: the page still lists the team


def test_bad_input_names_the_problem(td_client, club):
    response = td_client.post(reverse("league_new", args=[club.slug]), {**NEW, "match_draw": "3"})
    assert response.status_code == 200
    assert "a draw" in response.content.decode()
    assert not League.objects.exists()
    response = td_client.post(reverse("league_new", args=[club.slug]), {**NEW, "tiebreaks": "EDE, NOPE"})
    assert "NOPE is no team tie-break." in response.content.decode()
    td_client.post(reverse("league_new", args=[club.slug]), NEW)
    roster = reverse("league_roster", args=[club.slug, "regio"])
    manage = reverse("league_manage", args=[club.slug, "regio"])
    td_client.post(manage, {"club": club.pk, "name": "Testclub 1", "rank": 1})
    team = League.objects.get().teams.get()
    response = td_client.post(roster, {"team": team.pk, "regulars": "Nobody Known"})
    assert response.status_code == 400
    assert "Not members of SV Testclub: Nobody Known." in response.content.decode()
    response = td_client.post(reverse("league_schedule", args=[club.slug, "regio"]), {"weeks": "4"})
    assert response.status_code == 400
    assert "A league needs at least two teams." in response.content.decode()
    response = td_client.post(manage, {"club": club.pk, "name": "Testclub 1", "rank": 2})
    assert response.status_code == 400
    assert "already has a team called Testclub 1" in response.content.decode()


def test_only_the_organisers_tds_manage(client, club, td, viewer):
    ls.create_league(club, td, name="Regio", slug="regio")
    page = reverse("league", args=[club.slug, "regio"])
    manage = reverse("league_manage", args=[club.slug, "regio"])
    assert client.get(page).status_code == 200
    assert manage not in client.get(page).content.decode()  # no link to the TD's page
    assert client.get(manage).status_code == 302  # to the login page
    client.force_login(viewer)
    assert client.get(manage).status_code == 403
    assert client.post(reverse("league_new", args=[club.slug]), NEW).status_code == 403
    assert League.objects.count() == 1
    client.force_login(td)
    assert manage in client.get(page).content.decode()
    assert client.get(manage).status_code == 200


def test_the_league_page_speaks_dutch_and_danish(client, club, td):
    league = ls.create_league(club, td, name="Regio", slug="regio", settings={"boards": 4})
    other = Club.objects.create(name="SC Rivaal", slug="rivaal")
    ls.add_team(league, td, club=club, name="A", rank=1)
    ls.add_team(league, td, club=other, name="B", rank=1)
    ls.make_schedule(league, td)
    page = reverse("league", args=[club.slug, "regio"])
    assert "Bordpunten" in client.get(page, HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Ronde" in client.get(page, HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Runde" in client.get(page, HTTP_ACCEPT_LANGUAGE="da").content.decode()


def test_td_enters_line_ups_and_results_on_the_match_card(td_client, club, td):
    """Two boards, home White on board 1. Home: A1, A2; away: B1 and an empty board 2 (lost by the
    away team). Board 1 0-1 (home 0): 1-1, a drawn match."""
    other = Club.objects.create(name="SC Rivaal", slug="rivaal")
    ours, theirs = make_members(club, 2), make_members(other, 2)
    league = ls.create_league(club, td, name="Regio", slug="regio", settings={"boards": 2})
    home = ls.add_team(league, td, club=club, name="A", rank=1)
    away = ls.add_team(league, td, club=other, name="B", rank=1)
    ls.set_roster(home, td, ours)
    ls.set_roster(away, td, theirs)
    ls.make_schedule(league, td)
    match = Match.objects.get()
    card = reverse("league_match", args=[club.slug, "regio", match.pk])
    assert card in td_client.get(reverse("league", args=[club.slug, "regio"])).content.decode()
    assert td_client.get(card).status_code == 200
    response = td_client.post(card, {"action": "results", "result_1": "0-1"})
    assert response.status_code == 400
    assert "Both teams&#x27; line-ups are needed before results." in response.content.decode()
    posted = {"action": "home", "home-board_1": ours[1].pk, "home-board_2": ours[0].pk}
    response = td_client.post(card, posted)
    assert response.status_code == 400
    assert "in the roster order" in response.content.decode()
    assert td_client.post(card, {**posted, "home-board_1": ours[0].pk, "home-board_2": ours[1].pk}).status_code == 302
    assert td_client.post(card, {"action": "away", "away-board_1": theirs[0].pk}).status_code == 302
    assert td_client.post(card, {"action": "results", "result_1": "0-1", "result_2": ""}).status_code == 302
    assert [(b.home_player, b.away_player, b.result) for b in match.boards.order_by("board")] == [
        (ours[0], theirs[0], "0-1"),
        (ours[1], None, ""),
    ]
    page = td_client.get(reverse("league", args=[club.slug, "regio"])).content.decode()
    assert "1–1" in page
    scores = page[page.index('id="board-scores"') :]
    # A's second won board 2 by forfeit (1 point, no game) before B's first (1 point in 1 game); A's first lost.
    rows = [
        f'<td>{m.full_name}</td>\n      <td><a href="{reverse("league_team", args=[club.slug, "regio", t.pk])}">'
        for m, t in ((ours[1], home), (theirs[0], away), (ours[0], home))
    ]
    assert scores.index(rows[0]) < scores.index(rows[1]) < scores.index(rows[2])
    assert td_client.post(card, {"action": "other"}).status_code == 400


def test_the_club_page_lists_the_leagues_it_organises_or_plays_in(client, club, td):
    other = Club.objects.create(name="SC Rivaal", slug="rivaal")
    league = ls.create_league(club, td, name="Regio Noord", slug="noord")
    ls.add_team(league, td, club=other, name="Rivaal 1", rank=1)
    ls.create_league(club, td, name="Beker", slug="beker")
    link = reverse("league", args=[club.slug, "noord"])
    assert link in client.get(reverse("club", args=[club.slug])).content.decode()
    theirs = client.get(reverse("club", args=[other.slug])).content.decode()
    assert link in theirs and "Beker" not in theirs
    # The leagues stand in the competitions' table, their kind where a competition's system is; a TD of
    # the organiser manages them from there, and starts one from "New competition" (its kinds).
    table = client.get(reverse("club", args=[club.slug])).content.decode().split('id="competitions"')[1]
    assert link in table and "<td>Team league</td>" in table
    manage = reverse("league_manage", args=[club.slug, "noord"])
    assert manage not in table
    client.force_login(td)
    assert manage in client.get(reverse("club", args=[club.slug])).content.decode()
    assert manage not in client.get(reverse("club", args=[other.slug])).content.decode()
    new = client.get(reverse("new_competition", args=[club.slug])).content.decode()
    assert reverse("league_new", args=[club.slug]) in new


def _league_of(club, td, n_teams):
    other = Club.objects.create(name=f"Rivaal {n_teams}", slug=f"rivaal{n_teams}")
    league = ls.create_league(club, td, name=f"L{n_teams}", slug=f"l{n_teams}", settings={"boards": 2})
    for number in range(n_teams):
        owner = club if number % 2 else other
        team = ls.add_team(league, td, club=owner, name=f"T{number}", rank=number // 2 + 1)
        ls.set_roster(team, td, make_members(owner, 2, base=2000 + 10 * number))
    ls.make_schedule(league, td)
    for match in league.matches.filter(round=1):
        for team in (match.home, match.away):
            ls.set_lineup(match, team, td, [p.member for p in team.players.all()])
        ls.set_board_results(match, td, {1: "1-0", 2: "½-½"})
    return league


def test_the_league_page_costs_a_fixed_number_of_queries(client, club, td):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for n_teams in (4, 8):
        league = _league_of(club, td, n_teams)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse("league", args=[club.slug, league.slug])).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_an_odd_league_shows_the_team_without_a_match(client, club, td):
    """Three teams: in round 1 of the Berger table for three, team 1 has no match (seed 004 §4.9.11)."""
    league = ls.create_league(club, td, name="Odd", slug="odd", settings={"boards": 2})
    for rank in (1, 2, 3):
        ls.add_team(league, td, club=club, name=f"Team {rank}", rank=rank)
    ls.make_schedule(league, td)
    page = client.get(reverse("league", args=[club.slug, "odd"])).content.decode()
    sections = [part.split("</section>")[0] for part in page.split("<section>")[1:]]
    assert len(sections) == 3
    assert ["Team 1 has no match this round." in section for section in sections] == [True, False, False]
    assert sum(section.count("has no match this round.") for section in sections) == 3


def test_a_rounds_scores_are_shown_on_a_phone(client, club, td):
    """The phone stylesheet hides the third and seventh column of a `.boards.public` table (a pairing's
    ratings); the third column of a league round's table is the match's score, so that table is not one
    of those: it keeps every column and scrolls in a region of its own, the page no wider than the phone."""
    css = (Path(__file__).resolve().parents[2] / "static" / "css" / "clubavond.css").read_text(encoding="utf-8")
    phone = css[css.index("@media (max-width: 640px)") :]
    assert ".boards.public td:nth-child(3)" in phone[: phone.index("\n}")]
    other = Club.objects.create(name="SC Rivaal", slug="rivaal")
    ours, theirs = make_members(club, 1), make_members(other, 1)
    league = ls.create_league(club, td, name="Regio", slug="regio", settings={"boards": 1})
    home = ls.add_team(league, td, club=club, name="A", rank=1)
    away = ls.add_team(league, td, club=other, name="B", rank=1)
    ls.set_roster(home, td, ours)
    ls.set_roster(away, td, theirs)
    ls.make_schedule(league, td)
    match = Match.objects.get()
    ls.set_lineup(match, home, td, ours)
    ls.set_lineup(match, away, td, theirs)
    ls.set_board_results(match, td, {1: "1-0"})
    page = client.get(reverse("league", args=[club.slug, "regio"])).content.decode()
    table = r'<div class="scroll"[^>]*role="region"[^>]*>\s*<table class="([^"]*)" id="round-1">(.*?)</table>'
    region = re.search(table, page, re.S)
    assert region is not None and "public" not in region.group(1).split()
    cells = re.findall(r"<td[^>]*>(.*?)</td>", region.group(2), re.S)
    assert [re.sub(r"<[^>]+>", "", c).strip() for c in cells[1:4]] == ["A", "1–0", "B"]
