"""Every cup action is guarded like the other kinds' (seed 004 §4.9.7): a result, the next games and the
match format carry what the cup page showed; when another TD changed it meanwhile, nothing is saved and
the message names who did what. The team settings of an olympiad likewise."""

from __future__ import annotations

import pytest
from django.urls import reverse

from audit.models import AuditEntry
from pairing import services as adapter
from tests.conftest import make_competition, make_members
from tests.guard import basis, messages_of, post

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(club, td):
    return make_competition(club, td, make_members(club, 8, base=1500), system="knockout", slug="cup")


def cup_page(client, cup) -> str:
    return client.get(reverse("cup", args=[cup.club.slug, cup.slug])).content.decode()


@pytest.fixture
def published(cup, td):
    rnd = adapter.pair_next_round(cup, td)
    adapter.publish(rnd, td)
    return rnd


def test_a_cup_result_typed_over_another_tds_is_refused_and_names_it(td_client, cup, published, other_td):
    jan, jan_client = other_td
    mine = basis(cup_page(td_client, cup), "based-1")
    assert mine == ""
    post(jan_client, "cup_result", cup, {"result-1": "1", "based-1": basis(cup_page(jan_client, cup), "based-1")}, 1, 1)
    response = post(td_client, "cup_result", cup, {"result-1": "0", "based-1": mine}, 1, 1)
    message = messages_of(response)
    assert "Meanwhile Jan Tweede entered 1-0" in message and "you typed 0-1" in message
    assert published.games.get(board=1).result == "1-0"
    # Typed again on the page that shows Jan's result, the TD's result replaces it.
    post(td_client, "cup_result", cup, {"result-1": "0", "based-1": basis(response.content.decode(), "based-1")}, 1, 1)
    assert published.games.get(board=1).result == "0-1"


def test_next_games_asked_from_a_page_older_than_the_boards_are_not_added(td_client, cup, published, other_td):
    jan, _client = other_td
    cup.settings = {**cup.settings, "games": 2}  # a second normal game for every match
    cup.save(update_fields=["settings"])
    for game in published.games.all():
        adapter.set_result(game, "1-0", jan)
    mine = basis(cup_page(td_client, cup), "based_on")
    adapter.add_next_games(published, jan)  # Jan adds them first
    games = published.games.count()
    response = post(td_client, "cup_next_games", cup, {"based_on": mine}, 1)
    message = messages_of(response)
    assert "changed after your page was shown (games added, by Jan Tweede at " in message
    assert published.games.count() == games


def test_a_match_format_from_an_older_page_is_refused(td_client, cup, other_td):
    jan, jan_client = other_td
    mine = basis(cup_page(td_client, cup), "based_on")
    data = {"games": 2, "rapid_games": 2, "blitz_games": 2}
    post(jan_client, "cup_format", cup, data | {"based_on": basis(cup_page(jan_client, cup), "based_on")})
    entries = AuditEntry.objects.count()
    response = post(td_client, "cup_format", cup, {"games": 4, "rapid_games": 0, "blitz_games": 0, "based_on": mine})
    assert "This changed after your page was shown (" in messages_of(response)
    assert "by Jan Tweede at " in messages_of(response)
    cup.refresh_from_db()
    assert cup.settings["games"] == 2 and AuditEntry.objects.count() == entries


def test_a_cup_format_that_is_not_numbers_is_refused_with_a_message(td_client, cup):
    response = post(td_client, "cup_format", cup, {"games": "two", "rapid_games": 0, "blitz_games": 0})
    assert "Give whole numbers of games." in messages_of(response)


def test_team_settings_from_an_older_page_are_refused(td_client, club, td, other_td):
    jan, jan_client = other_td
    event = make_competition(club, td, make_members(club, 8), system="olympiad", rounds=3, slug="teams")
    manage = reverse("manage", args=[club.slug, event.slug])
    mine = basis(td_client.get(manage).content.decode().partition('id="team-settings"')[2], "based_on")
    theirs = basis(jan_client.get(manage).content.decode().partition('id="team-settings"')[2], "based_on")
    post(jan_client, "team_settings", event, {"teams": 4, "cycles": 1, "based_on": theirs})
    response = post(td_client, "team_settings", event, {"teams": 2, "cycles": 2, "based_on": mine})
    assert "by Jan Tweede at " in messages_of(response)
    event.refresh_from_db()
    assert (event.settings["teams"], event.settings["cycles"]) == (4, 1)
