"""Monrad, Dansk Schweizer and Dubov (1997) through the web application (seed 004 §4.9.1-4.9.6)."""

from __future__ import annotations

import io

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from pairing.engines.notes import from_json
from tests.conftest import make_competition, make_members, play_round
from tournaments.notes import in_print

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("system", "bad", "message"),
    [
        ("monrad", {"lookahead": "yes"}, "lookahead"),
        ("dansk", {"acceleration_groups": 0}, "acceleration_groups"),
        ("dansk", {"search_limit": "many"}, "search_limit"),
        ("dubov-1997", {"upfloat_limits": 1}, "upfloat_limits"),
        ("dubov-1997", {"accelerated": True}, "Unknown setting"),
    ],
)
def test_each_system_validates_its_settings(club, system, bad, message):
    from tournaments.models import Competition

    with pytest.raises(ValidationError, match=message):
        Competition.objects.create(club=club, name="Bad", slug="bad", system=system, rounds=5, settings=bad)


def test_defaults_are_filled_in_on_save(club):
    from tournaments.models import Competition

    competition = Competition.objects.create(
        club=club, name="Dansk", slug="dansk", system="dansk", rounds=5, settings={"acceleration_groups": 2}
    )
    competition.refresh_from_db()
    assert competition.settings["acceleration_groups"] == 2
    assert competition.settings["relax_strong_preferences"] is True
    assert competition.settings["acceleration_rounds"] == 0


@pytest.mark.parametrize("system", ["monrad", "dansk", "dubov-1997"])
def test_a_whole_odd_tournament_pairs_end_to_end(club, td, system):
    """Nine players, five rounds: everybody on a board or the one bye each round, no rematch, no second bye."""
    from tournaments.models import Bye

    members = make_members(club, 9)
    competition = make_competition(club, td, members, system=system, rounds=5, slug=system)
    met: set[frozenset[int]] = set()
    had_bye: set[int] = set()
    for number in range(1, 6):
        results = {board: ("1-0", "½-½", "0-1")[(board + number) % 3] for board in range(1, 5)}
        rnd = play_round(competition, td, results)
        assert rnd.number == number
        assert rnd.explanation, "the round page shows why these boards"
        games = list(rnd.games.all())
        byes = list(rnd.byes.filter(kind=Bye.Kind.PAIRING_BYE))
        assert len(games) == 4 and len(byes) == 1
        seated = [p for g in games for p in (g.white_id, g.black_id)] + [b.participant_id for b in byes]
        assert sorted(seated) == sorted(p.id for p in competition.participants.all())
        for game in games:
            pair = frozenset((game.white_id, game.black_id))
            assert pair not in met, f"round {number}: a second game between the same players"
            met.add(pair)
        assert byes[0].participant_id not in had_bye
        had_bye.add(byes[0].participant_id)


@pytest.mark.rule("004 4.9.2")
def test_monrad_warns_the_td_when_the_next_round_cannot_be_paired(club, td, td_client):
    """§4.9.2: six players, white wins twice: pairing round 3 leaves round 4 unpairable, and the TD sees it."""
    from pairing import services as adapter

    competition = make_competition(club, td, make_members(club, 6), system="monrad", rounds=5, slug="monrad6")
    for _ in range(2):
        play_round(competition, td)
    rnd = adapter.pair_next_round(competition, td)
    warnings = [note for note in map(from_json, rnd.explanation) if note.warning]
    assert len(warnings) == 1 and "round 4" in warnings[0].text()
    page = td_client.get(reverse("manage_round", args=[club.slug, competition.slug, 3]))
    assert page.status_code == 200
    shown = in_print(warnings[0].text())  # the rule's article in small print
    assert "small" in shown and f'<li class="warning" role="alert"><strong>Warning {shown}' in page.content.decode()


def test_monrad_without_warning_shows_none(club, td, td_client):
    competition = make_competition(club, td, make_members(club, 6), system="monrad", rounds=5, slug="quiet")
    play_round(competition, td)
    page = td_client.get(reverse("manage_round", args=[club.slug, competition.slug, 1]))
    assert 'class="warning"' not in page.content.decode()


@pytest.mark.rule("004 4.9.6")
def test_dubov_standings_publish_the_aro_list(client, club, td):
    """§4.9.6 section 9: after each round the ARO list is published; ARO is the mean rating of the opponents."""
    members = make_members(club, 6)
    competition = make_competition(club, td, members, system="dubov-1997", rounds=5, slug="dubov")
    games = []
    for _ in range(2):
        games += list(play_round(competition, td).games.select_related("white", "black"))
    opponents: dict[int, list[int]] = {}
    for game in games:
        opponents.setdefault(game.white.start_number, []).append(game.black.rating)
        opponents.setdefault(game.black.start_number, []).append(game.white.rating)
    page = client.get(reverse("standings", args=[club.slug, competition.slug])).content.decode()
    assert 'id="aro"' in page
    for number, ratings in opponents.items():
        assert len(ratings) == 2
        assert f"{sum(ratings) / 2:.1f}</td>" in page, number


def test_other_systems_show_no_aro_list(client, club, td):
    competition = make_competition(club, td, make_members(club, 6), system="dansk", rounds=5, slug="dansk")
    play_round(competition, td)
    page = client.get(reverse("standings", args=[club.slug, competition.slug])).content.decode()
    assert 'id="aro"' not in page


def test_the_demo_club_has_a_monrad_a_dansk_schweizer_and_a_dubov_tournament():
    from django.core.management import call_command

    from tournaments.models import Competition, Round

    call_command("demo", stdout=io.StringIO())
    expected = (("monrad", "monrad", 4), ("dansk-schweizer", "dansk", 3), ("dubov", "dubov-1997", 2))
    for slug, system, finished in expected:
        competition = Competition.objects.get(club__slug="de-pion", slug=slug)
        assert competition.system == system
        rounds = list(competition.round_set.order_by("number"))
        assert [r.status for r in rounds] == [Round.Status.FINISHED] * finished + [Round.Status.PUBLISHED]
        assert all(r.explanation for r in rounds)
