"""A team league as a kind of competition (`pairing.engines.kinds`): listed beside the individual
competitions, its settings' defaults and checks in its registry entry, created through the "new
competition" page; a team file of another program imported through the league import page."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubs.models import Club, Member
from pairing.engines import kinds, registry
from pairing.engines.league import LeagueRules
from pairing.engines.state import InvalidInput
from pairing.services import leagues as ls
from teams.models import League, Match
from tests.conftest import make_competition
from tests.engines.events.test_league_trf_other import REGIO

pytestmark = pytest.mark.django_db


def test_the_kinds_are_listed_with_their_capabilities():
    assert kinds.kind_ids() == ["individual", "team-league"]
    individual, league = kinds.kinds()
    assert individual.systems == tuple(registry.system_ids()) and not individual.club_teams
    assert league.club_teams and league.scheduled and league.cycles == (1, 2) and not league.systems
    assert kinds.kind_of_system("dutch") is individual and kinds.kind_of_system("olympiad") is individual
    with pytest.raises(InvalidInput):
        kinds.kind_of_system("team-league")
    assert (individual.page, league.page) == ("new_competition", "league_new")


def test_the_league_kind_holds_the_rules_defaults_and_checks():
    league = kinds.get(kinds.TEAM_LEAGUE)
    assert league.settings() == LeagueRules().settings() == league.defaults
    # Given settings overlay the defaults; match points are stored as floats (LeagueRules).
    given = league.settings({"boards": 4, "match_win": 3, "match_draw": 1})
    assert (given["boards"], given["match_win"], given["cycles"]) == (4, 3.0, 1)
    assert league.choices == {
        "primary": ("MP", "BP"), "home_white": ("odd", "even"), "format": ("league", "cup"),
        "cup_tie": ("boards", "decider"), "cup_decider": ("lot", "blitz"),
    }  # fmt: skip
    refused = [
        ({"match_draw": 3}, "a draw"),
        ({"boards": 21}, "1 to 20 boards"),
        ({"cycles": 3}, "single or double round robin"),
        ({"home_white": "left"}, "home_white is one of odd, even"),
        ({"boards": "8"}, "whole number"),
        ({"colour": "w"}, "colour"),  # an unknown setting
    ]
    for bad, reason in refused:
        with pytest.raises(InvalidInput, match=reason):
            league.settings(bad)
    assert kinds.league_rules({"boards": 6}).boards == 6


def test_every_row_knows_its_kind(club, td, members):
    competition = make_competition(club, td, members)
    league = ls.create_league(club, td, name="Regio", slug="regio", settings={"boards": 4})
    assert competition.kind.id == "individual" and league.kind.id == "team-league"
    assert league.kind_name == "Team league" and league.rules.boards == 4
    # The writer checks through the kind: a bad setting is refused naming it, nothing is written.
    with pytest.raises(Exception, match="1 to 20 boards"):
        ls.create_league(club, td, name="Te groot", slug="groot", settings={"boards": 40})
    assert not League.objects.filter(slug="groot").exists()


def test_the_new_competition_page_offers_a_team_league(td_client, club):
    page = td_client.get(reverse("new_competition", args=[club.slug])).content.decode()
    kinds_nav = page.split('id="competition-kinds"')[1].split("</nav>")[0]
    assert 'aria-current="page" data-kind="individual">Individual competition<' in kinds_nav
    league_new = reverse("league_new", args=[club.slug])
    assert f'href="{league_new}" data-kind="team-league">Team league<' in kinds_nav
    # The league's page offers the way back to the individual kinds.
    page = td_client.get(league_new, HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    kinds_nav = page.split('id="competition-kinds"')[1].split("</nav>")[0]
    assert f'href="{reverse("new_competition", args=[club.slug])}" data-kind="individual">' in kinds_nav
    assert 'data-kind="team-league">Teamcompetitie<' in kinds_nav
    page = td_client.get(league_new, HTTP_ACCEPT_LANGUAGE="da").content.decode()
    assert 'data-kind="team-league">Holdturnering<' in page


def test_a_league_is_created_through_the_kinds_page(td_client, club):
    """From the new competition page to the league form; the settings stored are the kind's."""
    page = td_client.get(reverse("new_competition", args=[club.slug])).content.decode()
    league_new = reverse("league_new", args=[club.slug])
    assert league_new in page
    form = td_client.get(league_new).content.decode()
    assert 'name="boards" value="8"' in form and 'name="play_up" value="1"' in form  # the kind's defaults
    data = {"name": "Regio 2026", "slug": "regio", "boards": "6", "cycles": "2", "match_win": "3", "match_draw": "1",
            "match_loss": "0", "primary": "BP", "home_white": "even", "play_up": "-1", "max_reserves": "2",
            "tiebreaks": "EDE, BC"}  # fmt: skip
    response = td_client.post(league_new, data)
    assert response.status_code == 302
    league = League.objects.get(club=club, slug="regio")
    expected = kinds.get(kinds.TEAM_LEAGUE).settings(
        {"boards": 6, "cycles": 2, "match_win": 3.0, "match_draw": 1.0, "match_loss": 0.0, "primary": "BP",
         "home_white": "even", "play_up": -1, "max_reserves": 2}
    )  # fmt: skip
    assert league.settings == expected and league.settings["forfeited_match"] == 0.0
    club_page = td_client.get(reverse("club", args=[club.slug])).content.decode()
    assert 'data-kind="team-league"' in club_page and "Regio 2026" in club_page
    # A draw worth more than a win: the kind refuses it, the page says why, nothing is created.
    response = td_client.post(league_new, {**data, "slug": "twee", "match_draw": "4"})
    assert response.status_code == 200 and "a match won must count more than a draw" in response.content.decode()
    assert not League.objects.filter(slug="twee").exists()


def _member(club: Club, name: str) -> Member:
    first, last = name.split(" ", 1)
    return Member.objects.create(club=club, first_name=first, last_name=last)


def test_a_team_file_of_another_program_is_imported(td_client, club):
    """REGIO: 013 lines and 001 games only. The clubs are found by the short names made from the team
    names (caissa, pion, toren), the players by full name; 12 matches of 4 boards."""
    clubs = {slug: Club.objects.create(name=slug.title(), slug=slug) for slug in ("caissa", "pion", "toren")}
    names = {"caissa": ["Anna Aa", "Bert Bo", "Cees Ce", "Dirk Do", "Mark Mo", "Nel No", "Otto Oo", "Piet Po"],
             "pion": ["Eva Ee", "Frits Fa", "Gert Ga", "Hans Ho", "Quinten Qu"],
             "toren": ["Ida Ie", "Jan Jo", "Kees Ka", "Lies Lo"]}  # fmt: skip
    for slug, people in names.items():
        for name in people:
            _member(clubs[slug], name)
    upload = SimpleUploadedFile("regio.trf", REGIO.encode())
    response = td_client.post(reverse("league_import", args=[club.slug]), {"file": upload})
    assert response.status_code == 302, response.content.decode()
    league = League.objects.get(club=club, slug="regional-league-2026")
    assert league.rules.boards == 4 and league.rules.cycles == 2
    assert [(t.name, t.club.slug, t.rank) for t in league.teams.order_by("number")] == [
        ("Caissa 1", "caissa", 1), ("Pion", "pion", 1), ("Toren 1", "toren", 1), ("Caissa 2", "caissa", 2),
    ]  # fmt: skip
    assert Match.objects.filter(league=league).count() == 12
    match = Match.objects.get(league=league, round=2, home__name="Caissa 1")
    board4 = match.boards.get(board=4)
    assert (board4.home_player.full_name, board4.away_player.full_name, board4.result) == (
        "Dirk Do",
        "Quinten Qu",
        "1-0",
    )


def test_a_team_file_that_cannot_be_read_names_its_line(td_client, club):
    bad = REGIO.replace("330 +-   6   1   3", "330 +-   6   1   9")
    line = REGIO.splitlines().index("330 +-   6   1   3") + 1
    upload = SimpleUploadedFile("regio.trf", bad.encode())
    response = td_client.post(reverse("league_import", args=[club.slug]), {"file": upload})
    assert response.status_code == 400
    assert f"Line {line}: teams 1 and 9: not two of the 4 teams" in response.content.decode()
    assert not League.objects.exists()  # nothing written
    page = td_client.get(reverse("league_import", args=[club.slug]), HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Een teambestand van een ander programma" in page
