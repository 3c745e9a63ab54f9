"""A team league's printouts, files and feeds: the match card, the league table and a round's results
as PDFs in the reader's language; the league as a TRF read back into a new league with nothing lost;
a bad file refused with its line and nothing saved; the matches in the club's and a team's calendar."""

from __future__ import annotations

import subprocess
from datetime import date

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from icalendar import Calendar

from audit.models import AuditEntry
from clubs.models import Club, Member
from pairing.services import leagues as ls
from teams.models import League, Match

pytestmark = pytest.mark.django_db


def _members(club, prefix: str, count: int) -> list[Member]:
    return [
        Member.objects.create(club=club, first_name=f"{prefix}{i}", last_name="Speler") for i in range(1, count + 1)
    ]


@pytest.fixture
def played(club, td):
    """Two clubs' teams, two boards, a double round robin; round 1 played: home (Delft 1) White on
    board 1. Board 1 Delft1 Speler-Rivaal1 Speler 1-0, board 2 Rivaal2 Speler (White)-Delft2 Speler ½-½."""
    other = Club.objects.create(name="SC Rivaal", slug="rivaal")
    ours, theirs = _members(club, "Delft", 3), _members(other, "Rivaal", 2)
    league = ls.create_league(club, td, name="Regio Noord", slug="noord", settings={"boards": 2, "cycles": 2},
                              tiebreaks=["EDE", "BBE"])  # fmt: skip
    home = ls.add_team(league, td, club=club, name="Delft 1", rank=1)
    away = ls.add_team(
        league,
        td,
        club=other,
        name="Rivaal 1",
        rank=1,
        captain=Member.objects.create(club=other, first_name="Kees", last_name="Kapitein"),
    )
    ls.set_roster(home, td, ours[:2], ours[2:])
    ls.set_roster(away, td, theirs)
    ls.make_schedule(league, td, dates=[date(2026, 10, 3), date(2026, 11, 7)])
    match = league.matches.get(round=1)
    ls.set_lineup(match, match.home, td, [p.member for p in match.home.players.filter(reserve=False)])
    ls.set_lineup(match, match.away, td, [p.member for p in match.away.players.all()])
    ls.set_board_results(match, td, {1: "1-0", 2: "½-½"})
    return league


def _text(pdf: bytes) -> str:
    assert pdf.startswith(b"%PDF")
    out = subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True)
    return out.stdout.decode()


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", ("Captain", "Arbiter", "White", "Black")), ("nl", ("Teamleider", "Arbiter", "Wit", "Zwart")),
     ("da", ("Holdkaptajn", "Dommer", "Hvid", "Sort"))],
)  # fmt: skip
def test_the_match_card_pdf_in_the_readers_language(client, played, language, words):
    match = played.matches.get(round=1)
    response = client.get(
        reverse("league_match_pdf", args=["testclub", "noord", match.pk]), HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = _text(response.content)
    for word in (*words, "Delft 1", "Rivaal 1", "Delft1 Speler", "Rivaal2 Speler", "Regio Noord", "1-0", "½-½", "1½–½"):
        assert word in text, word


@pytest.mark.parametrize(("language", "word"), [("nl", "Bordpunten"), ("da", "Brætpoint")])
def test_the_table_and_round_pdfs(client, played, language, word):
    table = client.get(reverse("league_table_pdf", args=["testclub", "noord"]), HTTP_ACCEPT_LANGUAGE=language)
    text = _text(table.content)
    assert word in text and "Delft 1" in text and "Rivaal 1" in text
    # Delft 1 won 1½-½: 2 match points and 1½ board points, first.
    assert text.index("Delft 1") < text.index("Rivaal 1")
    rnd = client.get(reverse("league_round_pdf", args=["testclub", "noord", 1]), HTTP_ACCEPT_LANGUAGE=language)
    text = _text(rnd.content)
    assert "Delft 1 – Rivaal 1: 1½–½" in text and "Rivaal1 Speler" in text
    assert {"nl": "Wit", "da": "Hvid"}[language] in text
    assert client.get(reverse("league_round_pdf", args=["testclub", "noord", 9])).status_code == 404


def test_the_pdfs_of_an_unknown_club_or_league_are_404(client, played):
    match = played.matches.get(round=1)
    for args in (["nope", "noord"], ["testclub", "nope"], ["rivaal", "noord"]):
        assert client.get(reverse("league_table_pdf", args=args)).status_code == 404
        assert client.get(reverse("league_round_pdf", args=[*args, 1])).status_code == 404
        assert client.get(reverse("league_match_pdf", args=[*args, match.pk])).status_code == 404


def test_the_league_page_links_the_pdfs(client, played):
    page = client.get(reverse("league", args=["testclub", "noord"])).content.decode()
    assert reverse("league_table_pdf", args=["testclub", "noord"]) in page
    assert reverse("league_round_pdf", args=["testclub", "noord", 2]) in page
    assert reverse("league_match_pdf", args=["testclub", "noord", played.matches.get(round=1).pk]) in page
    assert reverse("league_trf", args=["testclub", "noord"]) not in page  # the TD's only


def _snapshot(league: League) -> dict:
    """Everything of a league that the TRF carries, by names."""
    teams = [(t.name, t.club.slug, t.rank, t.number, t.captain_id,
              [(p.member_id, p.position, p.reserve) for p in t.players.all()])
             for t in league.teams.order_by("number")]  # fmt: skip
    matches = [
        (m.round, m.home.name, m.away.name, m.date, sorted(lu.team.name for lu in m.lineups.all()),
         [(b.board, b.home_player_id, b.away_player_id, b.result) for b in m.boards.order_by("board")])
        for m in league.matches.order_by("round", "pk")
    ]  # fmt: skip
    return {"settings": league.settings, "tiebreaks": league.tiebreaks, "teams": teams, "matches": matches}


def test_the_trf_round_trip_through_the_pages(td_client, played):
    export = reverse("league_trf", args=["testclub", "noord"])
    assert Client().get(export).status_code == 302  # to the login page
    response = td_client.get(export)
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    text = response.content.decode()
    assert "013 Delft 1" in text and "XBD   1   1   2  1    1    4 1-0" in text
    upload = SimpleUploadedFile("noord.trf", response.content)
    page = reverse("league_import", args=["testclub"])
    response = td_client.post(page, {"file": upload, "name": "Regio Noord (kopie)", "slug": "kopie"})
    assert response.status_code == 302, response.content.decode()
    copy = League.objects.get(slug="kopie")
    assert copy.name == "Regio Noord (kopie)"
    assert _snapshot(copy) == _snapshot(played)
    again = td_client.get(reverse("league_trf", args=["testclub", "kopie"])).content.decode()
    assert again.replace("012 Regio Noord (kopie)", "012 Regio Noord").replace("XLN kopie", "XLN noord") == text
    assert AuditEntry.objects.filter(action="league-import").count() == 1


def test_a_bad_file_names_its_line_and_saves_nothing(td_client, played):
    text = td_client.get(reverse("league_trf", args=["testclub", "noord"])).content.decode()
    page = reverse("league_import", args=["testclub"])
    lines = text.splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith("XBD"))
    lines[index] = lines[index][:-3] + "9-9"
    bad = SimpleUploadedFile("bad.trf", ("\n".join(lines) + "\n").encode())
    before = (League.objects.count(), Match.objects.count(), AuditEntry.objects.count())
    response = td_client.post(page, {"file": bad, "slug": "kopie"})
    assert response.status_code == 400
    assert f"Line {index + 1}: result &#x27;9-9&#x27;" in response.content.decode()
    # A file that parses but names a club this site does not know: refused by the writer, nothing saved.
    unknown = SimpleUploadedFile("x.trf", text.replace(" rivaal", " nergens").encode())
    response = td_client.post(page, {"file": unknown, "slug": "kopie"}, HTTP_ACCEPT_LANGUAGE="nl")
    assert response.status_code == 400
    assert "nergens" in response.content.decode()
    # The same short name twice: refused.
    response = td_client.post(page, {"file": SimpleUploadedFile("y.trf", text.encode())})
    assert response.status_code == 400 and "already has a league called noord" in response.content.decode()
    assert (League.objects.count(), Match.objects.count(), AuditEntry.objects.count()) == before


def test_only_the_clubs_tds_import(client, played, viewer):
    page = reverse("league_import", args=["testclub"])
    client.force_login(viewer)
    assert client.get(page).status_code == 403
    assert client.get(reverse("league_trf", args=["testclub", "noord"])).status_code == 403


def _events(body: bytes) -> list:
    return [c for c in Calendar.from_ical(body).walk() if c.name == "VEVENT"]


def test_the_matches_in_the_club_feeds_and_the_team_feed(client, played):
    """Both rounds have dates: the organiser's and the away club's feeds list both matches as all-day events."""
    for slug in ("testclub", "rivaal"):
        events = [
            e for e in _events(client.get(reverse("club_feed", args=[slug])).content) if "league" in str(e["uid"])
        ]
        assert sorted(e.decoded("dtstart") for e in events) == [date(2026, 10, 3), date(2026, 11, 7)]
        assert "Regio Noord, round 1: Delft 1 – Rivaal 1" in [str(e["summary"]) for e in events]
    team = played.teams.get(name="Rivaal 1")
    feed = client.get(reverse("league_team_feed", args=["testclub", "noord", team.pk]), HTTP_ACCEPT_LANGUAGE="nl")
    assert feed.status_code == 200 and feed["Content-Type"].startswith("text/calendar")
    events = _events(feed.content)
    assert [str(e["summary"]) for e in events] == [
        "Regio Noord, ronde 1: Delft 1 – Rivaal 1",
        "Regio Noord, ronde 2: Rivaal 1 – Delft 1",
    ]
    assert events[0].decoded("dtend") == date(2026, 10, 4)
    assert client.get(reverse("league_team_feed", args=["rivaal", "noord", team.pk])).status_code == 404
