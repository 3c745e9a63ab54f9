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
