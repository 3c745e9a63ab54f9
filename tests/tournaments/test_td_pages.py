"""The TD's pages offer what can be done and nothing else: no Save without settings, no exchange in a
finished round, the next round to pair after closing one; ids unique on a page."""

import re
from collections import Counter

import pytest
from django.urls import reverse

from tests.conftest import make_competition, play_round

pytestmark = pytest.mark.django_db


def test_a_system_without_settings_offers_no_save_button(td_client, club, td, members):
    competition = make_competition(club, td, members[:4], system="dutch", rounds=3, slug="swiss")
    page = td_client.get(reverse("system_settings", args=[club.slug, competition.slug])).content.decode()
    settings = page[page.index("<main>") : page.index('id="forbidden-pairs"')]  # the settings, before the pairs
    assert "This system has no settings." in settings and "<button" not in settings
    keizer = make_competition(club, td, members[:4], system="keizer", rounds=3, slug="keizer")
    page = td_client.get(reverse("system_settings", args=[club.slug, keizer.slug])).content.decode()
    settings = page[page.index("<main>") : page.index('id="forbidden-pairs"')]
    assert "<button" in settings and "no-settings" not in settings


def test_a_closed_round_offers_the_next_pairing_and_no_exchange(td_client, club, td, members):
    competition = make_competition(club, td, members[:4], system="dutch", rounds=3, slug="swiss")
    play_round(competition, td)
    page = td_client.get(reverse("manage_round", args=[club.slug, competition.slug, 1])).content.decode()
    assert 'id="pair-next-button"' in page and "Pair round 2" in page
    assert "Exchange two players" not in page
    response = td_client.post(reverse("pair", args=[club.slug, competition.slug]), {"round": "2"})
    assert response.status_code == 302 and competition.round_set.paired().count() == 2
    page = td_client.get(reverse("manage_round", args=[club.slug, competition.slug, 2])).content.decode()
    assert "Exchange two players" in page and 'id="pair-next-button"' not in page  # not finished yet
    page = td_client.get(reverse("manage_round", args=[club.slug, competition.slug, 1])).content.decode()
    assert 'id="pair-next-button"' not in page  # round 2 is paired already


def test_the_last_round_closed_offers_no_further_pairing(td_client, club, td, members):
    competition = make_competition(club, td, members[:2], system="dutch", rounds=1, slug="swiss")
    play_round(competition, td)
    page = td_client.get(reverse("manage_round", args=[club.slug, competition.slug, 1])).content.decode()
    assert 'id="pair-next-button"' not in page


def test_plan_the_season_has_unique_ids(td_client, club):
    from clubs.models import Season

    Season.objects.create(club=club, name="2026-2027")
    page = td_client.get(reverse("plan_season", args=[club.slug])).content.decode()
    ids = Counter(re.findall(r'\sid="([^"]+)"', page))
    assert [name for name, count in ids.items() if count > 1] == []
    response = td_client.post(
        reverse("plan_season", args=[club.slug]),
        {"action": "season", "season-name": "2027-2028", "season-start": "2027-09-01", "season-end": "2028-06-30"},
    )
    assert response.status_code == 302 and Season.objects.filter(club=club, name="2027-2028").exists()
