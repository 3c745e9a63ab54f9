"""The olympiad team tournament in the web app (seed 004 §4.9.9.5): pairing by teams and the team table."""

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from pairing.services import records as services
from tests.conftest import make_competition, make_members, play_round

pytestmark = pytest.mark.django_db


@pytest.mark.rule("004 4.9.9.5")
def test_four_teams_of_two_play_all_against_all(client, club, td):
    # Start numbers by rating: 1 strongest. Teams dealt 1234, 4321: team 1: 1, 8; 2: 2, 7; 3: 3, 6; 4: 4, 5.
    event = make_competition(club, td, make_members(club, 8), system="olympiad", rounds=3, slug="teams")
    rnd = play_round(event, td)  # Berger round 1: team 1 - team 4, team 2 - team 3; white wins every board
    boards = [(g.white.start_number, g.black.start_number) for g in rnd.games.order_by("board")]
    assert boards == [(1, 4), (5, 8), (2, 3), (6, 7)]
    # Round 2: team 4 - team 3 (4-3, 6-5), team 1 - team 2 (1-2, 7-8).
    rnd = play_round(event, td, {1: "1-0", 2: "0-1", 3: "½-½", 4: "1-0"})
    assert [(g.white.start_number, g.black.start_number) for g in rnd.games.order_by("board")] == [
        (4, 3), (6, 5), (1, 2), (7, 8),
    ]  # fmt: skip
    page = client.get(reverse("standings", args=[club.slug, event.slug]))
    table = [(r["standing"].team, r["standing"].match_points, r["standing"].board_points) for r in page.context["rows"]]
    assert table == [(4, 3.0, 3.0), (2, 3.0, 2.5), (1, 1.0, 1.5), (3, 1.0, 1.0)]
    assert [p.start_number for p in page.context["rows"][0]["players"]] == [4, 5]

    # Player 8 (team 1, board 2) withdraws: round 3 (team 2 - team 4, team 3 - team 1) leaves his board unpaired,
    # and team 1 loses it by forfeit.
    services.withdraw(event.participants.get(start_number=8), td)
    rnd = play_round(event, td)
    assert [(g.white.start_number, g.black.start_number) for g in rnd.games.order_by("board")] == [
        (2, 4), (5, 7), (3, 1),
    ]  # fmt: skip
    page = client.get(reverse("standings", args=[club.slug, event.slug]))
    table = [(r["standing"].team, r["standing"].match_points, r["standing"].board_points) for r in page.context["rows"]]
    assert table == [(4, 4.0, 4.0), (2, 4.0, 3.5), (3, 3.0, 3.0), (1, 1.0, 1.5)]
    response = client.get(reverse("standings", args=[club.slug, event.slug]) + "?format=pdf")
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages)
    assert "Team standings" in text and "Team 4" in text and "Player005 Surname005" in text


@pytest.mark.rule("004 4.9.9.5")
def test_the_td_sets_the_number_of_teams_before_round_one(td_client, club, td, viewer, client):
    event = make_competition(club, td, make_members(club, 9), system="olympiad", rounds=2, slug="teams")
    url = reverse("team_settings", args=[club.slug, event.slug])
    assert 'id="team-settings"' in td_client.get(reverse("manage", args=[club.slug, event.slug])).content.decode()
    td_client.post(url, {"teams": 3, "cycles": 1})
    event.refresh_from_db()
    assert (event.settings["teams"], event.settings["cycles"]) == (3, 1)
    # Three blocks of three: 1 5 9, 2 6 7, 3 4 8 (every rank sum 15); round 1: team 2 - team 3, team 1 the bye.
    rnd = play_round(event, td)
    assert [(g.white.start_number, g.black.start_number) for g in rnd.games.order_by("board")] == [
        (2, 3), (4, 6), (7, 8),
    ]  # fmt: skip
    td_client.post(url, {"teams": 2, "cycles": 1})
    event.refresh_from_db()
    assert event.settings["teams"] == 3
    client.force_login(viewer)
    assert client.post(url, {"teams": 2, "cycles": 1}).status_code == 403


@pytest.mark.rule("004 4.9.9.5")
def test_the_demo_club_has_a_team_tournament(client):
    from django.core.management import call_command

    call_command("demo", stdout=io.StringIO())
    page = client.get(reverse("standings", args=["de-pion", "team"]))
    rows = page.context["rows"]
    assert len(rows) == 4 and all(len(r["players"]) == 4 for r in rows)
    assert sum(r["standing"].match_points for r in rows) == 8  # two rounds of two matches, 2 points each
    assert sum(r["standing"].board_points for r in rows) == 16  # 16 boards played


@pytest.mark.rule("004 4.9.9.5")
def test_no_entries_once_the_teams_play(club, td):
    from django.core.exceptions import ValidationError

    from clubs.models import Member

    event = make_competition(club, td, make_members(club, 8), system="olympiad", rounds=3, slug="teams")
    play_round(event, td)
    late = Member.objects.create(club=club, first_name="Late", last_name="Comer", national_rating=2500)
    with pytest.raises(ValidationError, match="teams are fixed"):
        services.add_participant(event, late, td)
    assert event.participants.count() == 8


@pytest.mark.rule("004 4.9.9.5")
@pytest.mark.rule("004 11")
def test_double_forfeits_and_boards_both_players_left_score_for_neither_team(client, club, td):
    """004 §11: a player more than 15 minutes late loses; both absent, both lose. Teams (8 players):
    1: [1, 8], 2: [2, 7], 3: [3, 6], 4: [4, 5].
    Round 1, team 1 - team 4: board 1 (1-4) 0-0R, board 2 (5-8) 1-0: team 4 wins 1-0 (not 2-0);
    team 2 - team 3: 2-3 1-0, 6-7 1-0: 1-1. Round 2 (4-3 6-5 | 1-2 7-8): white wins all: 4-3 1-1,
    1-2 1-1. Players 6 (team 3) and 8 (team 1) withdraw; round 3 team 3 - team 1 has board 2 (8-6)
    unpaired, lost by both: 3-1 on board 1 gives team 3 1-0; team 2 - team 4: 2-4 1-0, 5-7 1-0: 1-1.
    Match points (2/1/0): team 4: 2+1+1 = 4, board points 1+1+1 = 3; team 2: 1+1+1 = 3, 1+1+1 = 3;
    team 3: 1+1+2 = 4, 1+1+1 = 3; team 1: 0+1+0 = 1, 0+1+0 = 1."""
    event = make_competition(club, td, make_members(club, 8), system="olympiad", rounds=3, slug="teams")
    play_round(event, td, {1: "0-0R"})
    play_round(event, td)
    services.withdraw(event.participants.get(start_number=6), td)
    services.withdraw(event.participants.get(start_number=8), td)
    rnd = play_round(event, td)
    assert [(g.white.start_number, g.black.start_number) for g in rnd.games.order_by("board")] == [
        (2, 4), (5, 7), (3, 1),
    ]  # fmt: skip
    page = client.get(reverse("standings", args=[club.slug, event.slug]))
    table = {r["standing"].team: (r["standing"].match_points, r["standing"].board_points) for r in page.context["rows"]}
    assert table == {4: (4.0, 3.0), 3: (4.0, 3.0), 2: (3.0, 3.0), 1: (1.0, 1.0)}


@pytest.mark.rule("C.07 13.3")
@pytest.mark.rule("C.07 12")
@pytest.mark.rule("C.07 13.1")
def test_the_td_chooses_team_tiebreaks_and_the_team_table_shows_them(client, td_client, club, td):
    """The teams of the first test after three rounds: 4 and 2 on 4 match points (4 and 3½ game points).
    Their match in round 3 was 1-1: team 2 won board 1 (2-4), team 4 board 2 (5-7). The regulation
    (MPvGP, the game points) puts 4 first; EDEC finds them tied on match and on game points among
    themselves (C.07 13.3.1) and then, two teams tied in both (13.3.2), the board count of their match:
    team 2's win on board 1 (1) is lower than team 4's on board 2 (2), so team 2 first (12.1)."""
    event = make_competition(club, td, make_members(club, 8), system="olympiad", rounds=3, slug="teams")
    play_round(event, td)
    play_round(event, td, {1: "1-0", 2: "0-1", 3: "½-½", 4: "1-0"})
    services.withdraw(event.participants.get(start_number=8), td)
    play_round(event, td)
    standings_url = reverse("standings", args=[club.slug, event.slug])
    page = client.get(standings_url)
    assert [(r["standing"].team, r["rank"]) for r in page.context["rows"]] == [(4, "1"), (2, "2"), (3, "3"), (1, "4")]
    assert [code for code, _ in page.context["codes"]] == ["MPVGP"]

    settings_url = reverse("tiebreak_settings", args=[club.slug, event.slug])
    form = td_client.get(settings_url).content.decode()
    assert "EMGSB" in form and "unrated_opponents" not in form  # the team catalogue, no rating rule
    refused = td_client.post(settings_url, {"codes": "EDEC, WON", "override": "on"}).content.decode()
    assert "“WON” is not a tie-break of the catalogue." in refused
    td_client.post(settings_url, {"codes": "EDEC, MPVGP", "override": "on"})
    event.refresh_from_db()
    assert event.tiebreaks == ["EDEC", "MPVGP"]
    page = client.get(standings_url)
    assert [r["standing"].team for r in page.context["rows"]] == [2, 4, 3, 1]
    assert [r["rank"] for r in page.context["rows"]] == ["1", "2", "3", "4"]
    html = page.content.decode()
    assert "Extended direct encounter, then board count" in html and ">EDEC</abbr>" in html
    # Plain EDE leaves them tied: they share the place.
    td_client.post(settings_url, {"codes": "EDE", "override": "on"})
    rows = client.get(standings_url).context["rows"]
    assert [(r["standing"].team, r["rank"]) for r in rows][:2] == [(2, "1-2"), (4, "1-2")]
    # The players' TRF ranks by the individual regulation, whatever the team list; the team list
    # travels in Clubavond's own line and comes back with an import.
    from pairing.services.trf import import_trf
    from tournaments.trf_export import export_trf

    assert td_client.get(reverse("export_trf", args=[club.slug, event.slug])).status_code == 200
    event.refresh_from_db()
    copy = import_trf(club, export_trf(event), name="Copy", slug="copy", system="olympiad")
    assert copy.tiebreaks == ["EDE"]
    response = client.get(standings_url + "?format=pdf")
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages)
    assert "EDE" in text
