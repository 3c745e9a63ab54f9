"""The KNSB Swiss systems (seeds 000, 001, 002) through the web application."""

from __future__ import annotations

import io
import re

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from pairing.engines.notes import english, from_json
from tests.conftest import make_competition, make_members, play_round

pytestmark = pytest.mark.django_db

SYSTEMS = ["dutch-1998", "knsb-rating", "knsb-wp"]


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_whole_odd_tournament_pairs_end_to_end(club, td, td_client, system):
    """Eleven players, five rounds: everybody on a board or the one bye each round, no rematch, no
    second bye (000/002 B1, 001 B1), and the TD's round page gives the article behind the boards."""
    from tournaments.models import Bye

    competition = make_competition(club, td, make_members(club, 11), system=system, rounds=5, slug=system)
    met: set[frozenset[int]] = set()
    had_bye: set[int] = set()
    for number in range(1, 6):
        results = {board: ("1-0", "½-½", "0-1")[(board * 2 + number) % 3] for board in range(1, 6)}
        rnd = play_round(competition, td, results)
        games = list(rnd.games.select_related("white", "black"))
        byes = [b.participant.start_number for b in rnd.byes.filter(kind=Bye.Kind.PAIRING_BYE)]
        seated = [p for g in games for p in (g.white.start_number, g.black.start_number)]
        assert len(games) == 5 and len(byes) == 1
        assert sorted(seated + byes) == list(range(1, 12))
        for game in games:
            pair = frozenset((game.white.start_number, game.black.start_number))
            assert pair not in met, f"round {number}: a second meeting"
            met.add(pair)
        assert byes[0] not in had_bye, f"round {number}: a second bye"
        had_bye.update(byes)
        page = td_client.get(reverse("manage_round", args=[club.slug, competition.slug, number])).content.decode()
        assert 'class="explanation"' in page
        if number > 1:
            text = " ".join(english(map(from_json, rnd.explanation)))
            assert re.search(r"\b[A-F]\d+", text), "an article of the text is named"


def test_buchholz_swiss_round_one_setting_is_validated(club):
    from tournaments.models import Competition

    with pytest.raises(ValidationError, match="round1"):
        Competition.objects.create(
            club=club, name="WP", slug="wp", system="knsb-wp", rounds=5, settings={"round1": "sideways"}
        )


def test_buchholz_swiss_round_one_pairs_adjacent_lot_numbers_when_chosen(club, td):
    """Seed 001 D, number of players not known in advance: 1-2, 3-4, ...; the first named has white."""
    from tournaments.models import Competition

    competition = make_competition(club, td, make_members(club, 6), system="knsb-wp", rounds=5, slug="wp")
    Competition.objects.filter(pk=competition.pk).update(settings={"round1": "adjacent"})
    competition.refresh_from_db()
    rnd = play_round(competition, td)
    boards = sorted((g.white.start_number, g.black.start_number) for g in rnd.games.select_related("white", "black"))
    assert boards == [(1, 2), (3, 4), (5, 6)]


def test_the_demo_club_runs_each_knsb_system():
    from django.core.management import call_command

    from tournaments.models import Competition, Round

    call_command("demo", stdout=io.StringIO())
    for slug, system, finished in (
        ("zwitsers-rating", "knsb-rating", 4),
        ("zwitsers-wp", "knsb-wp", 3),
        ("zwitsers-1998", "dutch-1998", 3),
    ):
        competition = Competition.objects.get(club__slug="de-pion", slug=slug)
        assert competition.system == system
        rounds = list(competition.round_set.order_by("number"))
        assert [r.status for r in rounds] == [Round.Status.FINISHED] * finished + [Round.Status.PUBLISHED]
        assert all(r.explanation for r in rounds)


@pytest.mark.rule("000 F8")
@pytest.mark.rule("001 F10")
@pytest.mark.rule("002 F8")
@pytest.mark.parametrize("system", SYSTEMS)
def test_absent_without_notice_is_deemed_withdrawn(club, td, td_client, system):
    """"Spelers die zonder de wedstrijdleider te informeren een ronde afwezig zijn, worden geacht zich
    teruggetrokken te hebben" (000 F8, 001 F10, 002 F8). The TD marks player 8 absent without notice and
    player 7 absent with notice for round 2: both sit round 2 out; from round 3 on 7 is paired again
    (F5: a reglementaire 0, no more) and 8 is not; the TD is told when marking, the players' list says
    why, and the round's explanation names the article."""
    from tournaments.models import Bye

    competition = make_competition(club, td, make_members(club, 8), system=system, rounds=5, slug=system)
    play_round(competition, td)
    absence = reverse("set_absence", args=[club.slug, competition.slug, 8])
    response = td_client.post(absence, {"kind": "absent"}, follow=True)
    assert "absent without notice in round 2 and so deemed to have withdrawn" in response.content.decode()
    td_client.post(reverse("set_absence", args=[club.slug, competition.slug, 7]), {"kind": "absent-notice"})
    second = play_round(competition, td)
    assert {b.participant.start_number: b.kind for b in second.byes.all()} == {
        7: Bye.Kind.ABSENT_NOTICE,
        8: Bye.Kind.ABSENT,
    }
    manage = td_client.get(reverse("manage", args=[club.slug, competition.slug])).content.decode()
    assert manage.count("absent without notice in round 2: deemed withdrawn") == 1
    third = play_round(competition, td)
    seated = {p.start_number for g in third.games.select_related("white", "black") for p in (g.white, g.black)}
    byes = {b.participant.start_number for b in third.byes.all()}
    assert seated | byes == set(range(1, 8)) and 8 not in seated | byes
    article = {"dutch-1998": "000 F8", "knsb-wp": "001 F10", "knsb-rating": "002 F8"}[system]
    assert english(map(from_json, third.explanation))[0].startswith(
        f"8 was absent in round 2 without informing the arbiter and is deemed to have withdrawn ({article})"
    )


def test_a_club_may_turn_the_withdrawal_of_absentees_off(club, td, td_client):
    """The settings page carries `absent_without_notice_withdraws`; turned off, the absentee of round 2
    is paired again in round 3."""
    competition = make_competition(club, td, make_members(club, 8), system="knsb-rating", rounds=5, slug="off")
    settings_url = reverse("system_settings", args=[club.slug, competition.slug])
    page = td_client.get(settings_url).content.decode()
    assert 'A player absent without notice is deemed to have withdrawn <small class="ref">(F8)</small>' in page
    response = td_client.post(settings_url, {"setting_absent_without_notice_withdraws": ""})  # unticked
    assert response.status_code == 302
    competition.refresh_from_db()
    assert competition.settings["absent_without_notice_withdraws"] is False
    play_round(competition, td)
    td_client.post(reverse("set_absence", args=[club.slug, competition.slug, 8]), {"kind": "absent"})
    play_round(competition, td)
    third = play_round(competition, td)
    seated = {p.start_number for g in third.games.select_related("white", "black") for p in (g.white, g.black)}
    assert seated == set(range(1, 9))
