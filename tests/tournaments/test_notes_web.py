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
    from pairing import services as adapter

    competition = make_competition(club, td, make_members(club, 7), system="dutch", rounds=5, slug="dutch")
    play_round(competition, td)
    rnd = adapter.pair_next_round(competition, td)
    return competition, rnd


@pytest.mark.parametrize(
    ("language", "words", "english_words"),
    [
        ("en", ["score 1: ", " players", "paired ", "pairing-allocated bye: ", "wishes not met"], []),
        ("nl", ["puntental 1: ", " spelers", "gepaard ", "bye bij de indeling: ", "wensen niet vervuld"], ["score 1"]),
        ("da", ["pointtal 1: ", " spillere", "parret ", "oversidder ved parringen: ", "ønsker ikke opfyldt"],
         ["score 1"]),
    ],
)  # fmt: skip
def test_the_dutch_system_explanation_in_the_readers_language(club, td, td_client, language, words, english_words):
    competition, rnd = _dutch_round_two(club, td)
    lines = english(from_json(item) for item in rnd.explanation)
    assert any(line.startswith("score 1: ") for line in lines) and lines[-1].startswith("pairing-allocated bye: ")
    page = _page(td_client, language, reverse("manage_round", args=[club.slug, competition.slug, rnd.number]))
    for word in words:
        assert word in page
    for word in english_words:
        assert word not in page


@pytest.mark.rule("004 4.9.2")
def test_a_round_stored_before_notes_shows_its_lines_and_its_warning(club, td, td_client):
    """Old rows hold English sentences: shown as they are, a WARNING line still as an alert."""
    competition, rnd = _dutch_round_two(club, td)
    rnd.explanation = ["bracket 1: 3 residents; pairs 1-2", "WARNING (§4.9.2): the arbiter should act."]
    rnd.save(update_fields=["explanation"])
    page = _page(td_client, "nl", reverse("manage_round", args=[club.slug, competition.slug, rnd.number]))
    assert "<li>bracket 1: 3 residents; pairs 1-2</li>" in page
    alert = (
        '<li class="warning" role="alert"><strong>Waarschuwing <small class="ref">(§4.9.2)</small>: the arbiter '
        "should act.</strong></li>"
    )
    assert alert in page


def _round_page(client, language, competition, number):
    return _page(client, language, reverse("manage_round", args=[competition.club.slug, competition.slug, number]))


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("nl", ["Bergertabel voor 5 spelers, ronde 1", "heeft de bye van het oneven aantal spelers"]),
        ("da", ["Bergertabel for 5 spillere, runde 1", "sidder over (ulige antal spillere)"]),
    ],
)
def test_the_round_robin_explanation_in_the_readers_language(club, td, td_client, language, words):
    from pairing import services as adapter

    competition = make_competition(club, td, make_members(club, 5), system="roundrobin", slug="rr5")
    rnd = adapter.pair_next_round(competition, td)
    page = _round_page(td_client, language, competition, rnd.number)
    for word in words:
        assert word in page
    assert "Berger table" not in page


@pytest.mark.parametrize(
    ("language", "round_words", "card_words"),
    [
        ("nl", ["Ronde 1: 7 aanwezig, ingedeeld in de volgorde van de beginranglijst",
                'Reserve <small class="ref">(§1.9)</small>: 7 aanwezig',
                "de hoogst geplaatste die nog niet is ingedeeld"],
         ["Ronde 1: remise tegen", "(plaats ", "Totaal: ", "Hoe de Keizerpunten"]),
        ("da", ["Runde 1: 7 til stede, parret i rækkefølgen fra startranglisten",
                'Reserve <small class="ref">(§1.9)</small>: 7 til stede',
                "den højest placerede, der ikke er parret endnu"],
         ["Runde 1: remis mod", "(plads ", "I alt: "]),
    ],
)  # fmt: skip
def test_the_keizer_round_and_the_players_points_in_the_readers_language(
    club, td, td_client, language, round_words, card_words
):
    """Seed 003: the pairing's reasons on the round page, and how a member's Keizer points came about."""
    from pairing import services as adapter
    from pairing.services import records as services

    season = make_competition(club, td, make_members(club, 7), system="keizer", rounds=30, slug="keizer")
    rnd = adapter.pair_next_round(season, td)
    page = _round_page(td_client, language, season, rnd.number)
    for word in round_words:
        assert word in page
    services.publish(rnd, td)
    for game in rnd.games.all():
        services.set_result(game, "½-½", td)
    white = rnd.games.first().white.start_number
    card = _page(td_client, language, reverse("player", args=[club.slug, season.slug, white]))
    for word in card_words:
        assert word in card
    assert "drew with" not in card and "Total:" not in card


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("nl", ["bye door de indeling", "fictieve tegenstander met eigen score", "geschrapt: ronde ",
                "onbespeelde ronden geteld volgens de regels"]),
        ("da", ["oversidder tildelt ved parringen", "fiktiv modstander med egen score", "fjernet: runde ",
                "uspillede runder regnet efter reglerne"]),
    ],
)  # fmt: skip
def test_the_tiebreak_explanation_in_the_readers_language(client, club, td, members, language, words):
    """The notes behind a Buchholz value (what each round was, the dummy opponent, the cut), as the
    standings link them."""
    from tests.tournaments.test_tiebreak_web import add_round

    competition = make_competition(club, td, members[:5], system="dutch", rounds=2, slug="swiss5")
    add_round(competition, 1, [(1, 2, "1-0"), (3, 4, "½-½")], [(5, "pairing-bye", "1")])
    add_round(competition, 2, [(5, 1, "0-1"), (2, 3, "1-0")], [(4, "pairing-bye", "1")])
    page = _page(client, language, reverse("tiebreak_explanation", args=[club.slug, competition.slug, 5, 0]))
    for word in words:
        assert word in page
    for english_word in ("pairing-allocated bye", "dummy opponent", "cut: round", "unplayed rounds counted"):
        assert english_word not in page


@pytest.mark.rule("004 4.9.7")
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("nl", ["Knock-out met 12 spelers, speelschema voor 16", "Plaatsing 1: ",
                "kleuren van de eerste partij door loting", "heeft een bye (vrije ronde)"]),
        ("da", ["Knockout med 12 spillere, turneringstræ til 16", "Seedet 1: ",
                "farverne i første parti ved lodtrækning", "er oversidder"]),
    ],
)  # fmt: skip
def test_the_cup_explains_its_round_in_the_readers_language(td_client, club, td, language, words):
    """Seed 004 §4.9.7: the draw, the byes and the colours by lot, stored as notes when the TD pairs
    (here in English) and shown in the reader's language."""
    cup = make_competition(club, td, make_members(club, 12), system="knockout", rounds=4, slug="cup")
    td_client.post(reverse("set_language"), {"language": "en", "next": "/"})
    td_client.post(reverse("cup_pair", args=[club.slug, cup.slug]))
    page = _page(td_client, language, reverse("cup", args=[club.slug, cup.slug]))
    for word in words:
        assert word in page
    assert "Knockout of 12 players" not in page


@pytest.mark.rule("004 4.9.2")
def test_the_monrad_warning_is_an_alert_in_dutch(club, td, td_client):
    """§4.9.2: the look-ahead's warning keeps its alert in any language; its text is translated."""
    from pairing import services as adapter

    competition = make_competition(club, td, make_members(club, 6), system="monrad", rounds=5, slug="monrad6")
    for _ in range(2):
        play_round(competition, td)
    rnd = adapter.pair_next_round(competition, td)
    page = _round_page(td_client, "nl", competition, rnd.number)
    assert (
        '<li class="warning" role="alert"><strong>Waarschuwing <small class="ref">(§4.9.2)</small>: na deze ronde '
        "kan ronde 4 niet worden ingedeeld" in page
    )


@pytest.mark.rule("004 4.9.1")
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "Monrad: no pairing avoids a second game between the same two players (§4.9.1)."),
        ("nl", "Monrad: geen indeling vermijdt een tweede partij tussen dezelfde twee spelers (§4.9.1)."),
        ("da", "Monrad: ingen parring undgår et andet parti mellem de samme to spillere (§4.9.1)."),
    ],
)
def test_why_no_pairing_exists_is_said_in_the_readers_language(club, td, td_client, language, words):
    """Two players who have met cannot meet again (seed 003 §4.9.1): the TD reads why in the page's language."""
    competition = make_competition(club, td, make_members(club, 2), system="monrad", rounds=3, slug="monrad")
    play_round(competition, td)
    td_client.post(reverse("set_language"), {"language": language, "next": "/"})
    page = td_client.post(reverse("pair", args=[club.slug, competition.slug]), follow=True).content.decode()
    assert words in page.replace("&#x27;", "'")
    assert competition.round_set.count() == 1


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "lookahead must be true or false."),
        ("nl", "lookahead moet waar of onwaar zijn."),
        ("da", "lookahead skal være sand eller falsk."),
    ],
)
def test_a_bad_setting_is_named_in_the_readers_language(club, language, words):
    from django.core.exceptions import ValidationError
    from django.utils import translation

    from tournaments.models import Competition

    competition = Competition(club=club, name="Monrad", slug="monrad", system="monrad", settings={"lookahead": "yes"})
    with translation.override(language), pytest.raises(ValidationError) as refused:
        competition.full_clean()
    assert refused.value.message_dict["settings"] == [words]
