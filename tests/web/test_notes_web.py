"""The engines' notes in the reader's language: the round page's explanation, warnings by their level,
and rounds stored before notes existed."""

from __future__ import annotations

import pytest
from django.urls import reverse

from pairing.engines.notes import english, from_json
from tests.conftest import make_competition, make_members, play_round

pytestmark = pytest.mark.django_db


def _page(client, language: str, url: str) -> str:
    client.post(reverse("set_language"), {"language": language, "next": "/"})
    return client.get(url).content.decode()


def _dutch_round_two(club, td):
    """Seven players of the FIDE Dutch system: round 2 has a bracket line per score group and a bye."""
    from pairing import services as pairing_services

    competition = make_competition(club, td, make_members(club, 7), system="dutch", rounds=5, slug="dutch")
    play_round(competition, td)
    rnd = pairing_services.pair_next_round(competition, td)
    return competition, rnd


@pytest.mark.parametrize(
    ("language", "words", "english_words"),
    [
        ("en", ["bracket 1: ", "residents", "pairing-allocated bye: ", "criteria not met"], []),
        ("nl", ["puntengroep 1: ", "eigen spelers", "bye bij de indeling: ", "niet voldaan aan"], ["residents"]),
        ("da", ["pointpulje 1: ", "egne spillere", "oversidder ved parringen: ", "kriterier ikke opfyldt"],
         ["residents"]),
    ],
)  # fmt: skip
def test_the_dutch_system_explanation_in_the_readers_language(club, td, td_client, language, words, english_words):
    competition, rnd = _dutch_round_two(club, td)
    lines = english(from_json(item) for item in rnd.explanation)
    assert any(line.startswith("bracket 1: ") for line in lines) and lines[-1].startswith("pairing-allocated bye: ")
    page = _page(td_client, language, reverse("manage_round", args=[club.slug, competition.slug, rnd.number]))
    for word in words:
        assert word in page
    for word in english_words:
        assert word not in page


def test_a_round_stored_before_notes_shows_its_lines_and_its_warning(club, td, td_client):
    """Old rows hold English sentences: shown as they are, a WARNING line still as an alert."""
    competition, rnd = _dutch_round_two(club, td)
    rnd.explanation = ["bracket 1: 3 residents; pairs 1-2", "WARNING (§4.9.2): the arbiter should act."]
    rnd.save(update_fields=["explanation"])
    page = _page(td_client, "nl", reverse("manage_round", args=[club.slug, competition.slug, rnd.number]))
    assert "<li>bracket 1: 3 residents; pairs 1-2</li>" in page
    alert = '<li class="warning" role="alert"><strong>Waarschuwing (§4.9.2): the arbiter should act.</strong></li>'
    assert alert in page
