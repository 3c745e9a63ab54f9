"""No dead ends: each person is shown only the links he may follow; 403, 404 and 500 pages speak the
visitor's language with the site's header and a way back; a round not yet published says so; a login lands
where the user works."""

from __future__ import annotations

import re
from unittest import mock

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from clubs.models import Club, ClubRole
from config import errors
from pairing import services as adapter
from tests.conftest import make_competition
from tests.season.conftest import linked_user

pytestmark = pytest.mark.django_db


def links_of(page: str) -> list[str]:
    return re.findall(r'href="(/[^"]*)"', page)


def status_of_every_link(client, page: str) -> dict[str, int]:
    return {href: client.get(href).status_code for href in set(links_of(page)) if "format=" not in href}


@pytest.mark.parametrize("system", ["keizer", "roundrobin"])
def test_a_member_is_shown_no_link_that_answers_403(client, club, td, members, system):
    competition = make_competition(club, td, members[:4], system=system, rounds=3, slug="comp")
    rnd = adapter.pair_next_round(competition, td)
    adapter.publish(rnd, td)
    client.force_login(linked_user(members[0], "anna"))
    for name in ("standings", "pairings_latest", "crosstable", "competition_calendar", "prize_list"):
        page = client.get(reverse(name, args=[club.slug, competition.slug])).content.decode()
        assert reverse("manage", args=[club.slug, competition.slug]) not in page
        forbidden = {href: code for href, code in status_of_every_link(client, page).items() if code >= 400}
        assert forbidden == {}, (name, forbidden)
    page = client.get(reverse("standings", args=[club.slug, competition.slug])).content.decode()
    notice = reverse("notice", args=[club.slug, competition.slug])
    assert (notice in page) == (system == "keizer")  # a round robin takes no answers from members


def test_notice_of_absence_only_for_the_competitions_own_players(client, club, td, members):
    competition = make_competition(club, td, members[:4], system="keizer", rounds=3, slug="keizer")
    notice = reverse("notice", args=[club.slug, competition.slug])
    client.force_login(linked_user(members[6], "outsider"))  # a member who does not play in it
    page = client.get(reverse("standings", args=[club.slug, competition.slug])).content.decode()
    assert notice not in page and client.get(notice).status_code == 403


def test_the_td_is_shown_manage(td_client, club, td, members):
    competition = make_competition(club, td, members[:4], system="keizer", rounds=3, slug="keizer")
    page = td_client.get(reverse("standings", args=[club.slug, competition.slug])).content.decode()
    assert reverse("manage", args=[club.slug, competition.slug]) in page


@pytest.mark.parametrize(
    "language, heading, back",
    [("en", "This page is not open to you", "All clubs"), ("nl", "Deze pagina is niet voor jou", "Alle clubs"),
     ("da", "Denne side er ikke åben for dig", "Alle klubber")],
)  # fmt: skip
def test_403_in_the_visitors_language_with_header_and_way_back(client, club, members, language, heading, back):
    client.force_login(linked_user(members[0], "anna"))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(reverse("members", args=[club.slug]))
    page = response.content.decode()
    assert response.status_code == 403
    assert f'lang="{language}"' in page and '<header class="site">' in page
    assert heading in page and back in page
    assert club.get_absolute_url() in links_of(page) and reverse("my_page") in links_of(page)


@pytest.mark.parametrize(
    "language, heading", [("en", "Page not found"), ("nl", "Pagina niet gevonden"), ("da", "Siden findes ikke")]
)
def test_404_in_the_visitors_language_with_the_club_to_go_back_to(client, club, language, heading):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(f"/{club.slug}/no-such-competition/standings/")
    page = response.content.decode()
    assert response.status_code == 404
    assert f'lang="{language}"' in page and '<header class="site">' in page and heading in page
    assert club.get_absolute_url() in links_of(page) and reverse("home") in links_of(page)
    unknown = client.get("/no-such-club/").content.decode()
    assert "/no-such-club/" not in links_of(unknown) and reverse("home") in links_of(unknown)


@pytest.mark.parametrize("language, heading", [("nl", "Er ging iets mis"), ("da", "Noget gik galt")])
def test_the_500_page_reads_nothing_from_the_database(language, heading):
    request = RequestFactory().get("/testclub/", HTTP_ACCEPT_LANGUAGE=language)
    request.user = get_user_model()()  # never asked: the page does not look at the user
    with translation.override(language), CaptureQueriesContext(connection) as queries:
        response = errors.server_error(request)
    page = response.content.decode()
    assert response.status_code == 500 and len(queries) == 0
    assert f'lang="{language}"' in page and '<header class="site">' in page and heading in page
    assert reverse("home") in links_of(page)


def test_a_server_error_answers_the_translated_500_page(club):
    client = Client(raise_request_exception=False)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "da"
    with mock.patch("clubs.views.render", side_effect=RuntimeError("broken")):
        response = client.get(club.get_absolute_url())
    assert response.status_code == 500 and "Noget gik galt" in response.content.decode()


def test_a_round_not_yet_published_says_so(client, club, td, members):
    competition = make_competition(club, td, members[:4], system="dutch", rounds=3, slug="swiss")
    rnd = adapter.pair_next_round(competition, td)  # a draft: its printed list carries the QR code
    url = reverse("pairings", args=[club.slug, competition.slug, 1])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    response = client.get(url)
    page = response.content.decode()
    assert response.status_code == 200 and "Ronde 1 is nog niet gepubliceerd" in page
    assert rnd.games.first().white.name not in page  # nothing of the draft shows
    adapter.publish(rnd, td)
    page = client.get(url).content.decode()
    assert "nog niet gepubliceerd" not in page and rnd.games.first().white.name in page
    # A round the competition will not have is not found.
    assert client.get(reverse("pairings", args=[club.slug, competition.slug, 4])).status_code == 404
    assert client.get(reverse("pairings", args=[club.slug, competition.slug, 2])).status_code == 200


def test_after_login_a_td_lands_on_his_club_a_member_on_his_page(club, td, members):
    client = Client()
    response = client.post(reverse("login"), {"username": "director", "password": "secret-pass-1"})
    assert response["Location"] == club.get_absolute_url()
    linked_user(members[0], "anna")
    response = Client().post(reverse("login"), {"username": "anna", "password": "pw-anna-123"})
    assert response["Location"] == reverse("my_page")
    response = Client().post(reverse("login") + "?next=/", {"username": "anna", "password": "pw-anna-123"})
    assert response["Location"] == reverse("my_page")  # the home page's login link is no page to go back to
    wanted = reverse("club_calendar", args=[club.slug])
    response = Client().post(reverse("login") + f"?next={wanted}", {"username": "anna", "password": "pw-anna-123"})
    assert response["Location"] == wanted


def test_after_login_a_viewer_lands_on_his_club_and_anyone_else_on_the_clubs(club, viewer):
    response = Client().post(reverse("login"), {"username": "member", "password": "secret-pass-2"})
    assert response["Location"] == club.get_absolute_url()
    get_user_model().objects.create_user("walker", password="pw-walker-123")
    response = Client().post(reverse("login"), {"username": "walker", "password": "pw-walker-123"})
    assert response["Location"] == reverse("home")
    other = Club.objects.create(name="Other", slug="other")
    ClubRole.objects.create(club=other, user=viewer, role=ClubRole.Role.DIRECTOR)
    response = Client().post(reverse("login"), {"username": "member", "password": "secret-pass-2"})
    assert response["Location"] == other.get_absolute_url()  # the club he directs comes first


def test_a_500_page_that_cannot_be_rendered_still_answers_in_words(caplog):
    request = RequestFactory().get("/")
    with translation.override("nl"), mock.patch("config.errors.loader.get_template", side_effect=ValueError("x")):
        response = errors.server_error(request)
    assert response.status_code == 500 and "Er ging iets mis" in response.content.decode()
    assert "could not be rendered" in caplog.text


def test_a_stale_form_answers_the_translated_403_page(club, td):
    client = Client(enforce_csrf_checks=True)
    client.force_login(td)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    response = client.post(reverse("members", args=[club.slug]), {"first_name": "A", "last_name": "B"})
    page = response.content.decode()
    assert response.status_code == 403 and "Het formulier kon niet worden verstuurd" in page
    assert '<header class="site">' in page and club.get_absolute_url() in links_of(page)
