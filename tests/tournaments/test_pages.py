"""Public pages, PDFs (parsed with pypdf), and the cost of the pages in SQL queries."""

import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pypdf import PdfReader

from tests.conftest import make_competition, make_members, play_round

pytestmark = pytest.mark.django_db


def pdf_text(response) -> str:
    assert response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    return "\n".join(page.extract_text() for page in reader.pages)


@pytest.fixture
def played(club, td, members):
    competition = make_competition(club, td, members[:6])
    play_round(competition, td, {1: "1-0", 2: "½-½", 3: "0-1"})
    return competition


def test_club_page_lists_its_competitions(client, club, played):
    page = client.get(reverse("club", args=[club.slug])).content.decode()
    assert played.name in page


def test_pairing_list_pdf_has_names_and_results(client, club, played):
    text = pdf_text(client.get(reverse("pairings", args=[club.slug, played.slug, 1]) + "?format=pdf"))
    for game in played.round_set.get(number=1).games.select_related("white__member", "black__member"):
        assert game.white.name in text and game.black.name in text
    assert "1-0" in text and "½-½" in text and "0-1" in text


def test_standings_and_crosstable_pdfs(client, club, played):
    standings = pdf_text(client.get(reverse("standings", args=[club.slug, played.slug]) + "?format=pdf"))
    crosstable = pdf_text(client.get(reverse("crosstable", args=[club.slug, played.slug]) + "?format=pdf"))
    for participant in played.participants.select_related("member"):
        assert participant.name in standings and participant.name in crosstable
    assert "½" in standings


def test_player_card_shows_round_opponent_colour_result_running_score(client, club, played):
    rnd = played.round_set.get(number=1)
    game = rnd.games.get(board=2)
    page = client.get(reverse("player", args=[club.slug, played.slug, game.white.start_number])).content.decode()
    assert game.black.name in page and "white" in page and "½" in page


def test_half_points_are_shown_as_the_half_sign(client, club, played):
    page = client.get(reverse("standings", args=[club.slug, played.slug])).content.decode()
    assert "½" in page and "0.5" not in page


def queries(client, url) -> int:
    with CaptureQueriesContext(connection) as context:
        assert client.get(url).status_code == 200
    return len(context.captured_queries)


def test_pages_cost_a_fixed_number_of_queries(client, club, td):
    """Standings, crosstable and pairings of 10 and of 100 players run the same number of queries."""
    pages = ["standings", "crosstable", "pairings_latest"]
    counts = {page: [] for page in pages}
    for size, slug in ((10, "small"), (100, "big")):
        competition = make_competition(club, td, make_members(club, size), system="roundrobin", slug=slug)
        play_round(competition, td)
        play_round(competition, td)
        for page in pages:
            counts[page].append(queries(client, reverse(page, args=[club.slug, slug])))
    for page in pages:
        assert counts[page][0] == counts[page][1], (page, counts[page])
