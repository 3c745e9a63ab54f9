"""The pairings and standings link every player to his own card, at the address the URLconf gives it."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.conftest import make_competition, make_members, play_round

pytestmark = pytest.mark.django_db


def test_every_player_link_is_the_players_card(client, club, td):
    competition = make_competition(club, td, make_members(club, 12), system="dutch", rounds=3, slug="open")
    play_round(competition, td)
    play_round(competition, td)
    cards = {
        reverse("player", args=[club.slug, competition.slug, p.start_number]): p.member.full_name
        for p in competition.participants.select_related("member")
    }
    for page in ("pairings_latest", "standings"):
        content = client.get(reverse(page, args=[club.slug, competition.slug])).content.decode()
        links = re.findall(r'<a href="(/[^"]*/player/\d+/)">([^<]+)</a>', content)
        assert len({href for href, _name in links}) == 12, page
        for href, name in links:
            assert cards[href] == name.strip(), (page, href)
        explained = re.findall(r'href="(/[^"]*/player/(\d+)/tiebreak/(\d+)/)"', content)
        assert page == "pairings_latest" or explained
        for href, number, index in explained:
            assert href == reverse("tiebreak_explanation", args=[club.slug, competition.slug, int(number), int(index)])
