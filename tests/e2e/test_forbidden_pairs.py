"""Forbidden pairs in a real browser: the TD marks a pair on the settings page, then pairs the round."""

from pathlib import Path

import pytest
from django.urls import reverse

from tests.conftest import make_competition

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-results"


def test_td_forbids_a_pair_and_the_pairing_keeps_it_apart(browser, live_server, club, td, members):
    # Dutch, six players by rating: round 1 would be 1-4, 2-5, 3-6 (S1 against S2); with 1-4 forbidden
    # the first transposition of S2 that pairs everybody is 5 4 6: 1-5, 2-4, 3-6.
    competition = make_competition(club, td, members[:6], system="dutch", rounds=5, slug="swiss")
    first, fourth = (competition.participants.get(start_number=n) for n in (1, 4))
    page = browser.new_page(viewport={"width": 390, "height": 844})
    SCREENSHOTS.mkdir(exist_ok=True)
    try:
        page.goto(live_server.url + reverse("login"))
        page.fill("input[name=username]", "director")
        page.fill("input[name=password]", "secret-pass-1")
        page.click("button.primary")
        page.goto(live_server.url + reverse("manage", args=[club.slug, competition.slug]))
        page.click("#forbidden-pairs-link")
        page.select_option("#id_first", str(first.pk))
        page.select_option("#id_second", str(fourth.pk))
        page.click("#forbidden-form button")
        page.wait_for_selector("#forbidden-pairs table")
        listed = page.inner_text("#forbidden-pairs table")
        page.screenshot(path=SCREENSHOTS / "phone-forbidden-pairs.png", full_page=True)
        page.goto(live_server.url + reverse("manage", args=[club.slug, competition.slug]))
        page.click("#pair-button")
        page.wait_for_selector("#publish-button")
    finally:
        page.close()
    assert first.name in listed and fourth.name in listed
    games = competition.round_set.get(number=1).games.select_related("white", "black")
    assert {frozenset((g.white.start_number, g.black.start_number)) for g in games} == {
        frozenset((1, 5)),
        frozenset((2, 4)),
        frozenset((3, 6)),
    }
