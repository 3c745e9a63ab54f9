"""The player card's rating line (`reports.player_row`) equals that player's line of the whole report.

Random competitions, seeded, imported from TRF: rated and unrated players (FIDE and national ratings
drawn separately), games, forfeits won and lost, byes of every kind, players who withdraw; each line of
the DSU (§4.5), FIDE (B.02) and KNSB reports compared field by field with the one line computed alone.
"""

from __future__ import annotations

import os
import random

import pytest

if not os.environ.get("DJANGO_SETTINGS_MODULE"):  # the pure rating tests run with -p no:django
    pytest.skip("needs the Django test plugin", allow_module_level=True)

pytestmark = pytest.mark.django_db

SYSTEMS = ["dsu", "fide", "knsb"]


def random_trf(seed: int) -> str:
    """A finished Swiss-like event of 6-16 players, paired at random (repeat games allowed)."""
    from pairing.engines import trf
    from pairing.engines.state import Colour, Kind, Player, RoundRecord, TournamentState

    rng = random.Random(seed)
    n, rounds = rng.randint(6, 16), rng.randint(3, 7)
    players = [
        Player(id=i, name=f"Speler{i:02}, Test", rating=rng.choice([0, 1350, 1700, 2000, 2250, 2450]))
        for i in range(1, n + 1)
    ]
    leaving = {p.id: rng.randint(2, rounds) for p in rng.sample(players, rng.randint(0, 2))}
    for rnd in range(1, rounds + 1):
        present = [p for p in players if leaving.get(p.id, rounds + 1) > rnd]
        rng.shuffle(present)
        byes = rng.randint(0, 2) if len(present) > 4 else 0
        for p in present[:byes]:
            kind = rng.choice([Kind.PAIRING_BYE, Kind.FULL_BYE, Kind.HALF_BYE])
            p.history.append(RoundRecord(kind, score={Kind.HALF_BYE: 0.5}.get(kind, 1.0)))
        paired = present[byes:]
        for white, black in zip(paired[::2], paired[1::2], strict=False):
            roll = rng.random()
            kind = Kind.FORFEIT if roll < 0.1 else Kind.GAME
            score = rng.choice([1.0, 0.0]) if kind is Kind.FORFEIT else rng.choice([1.0, 0.5, 0.0])
            white.history.append(RoundRecord(kind, black.id, Colour.WHITE, score))
            black.history.append(RoundRecord(kind, white.id, Colour.BLACK, 1.0 - score))
        for p in players:
            if len(p.history) < rnd:
                p.history.append(RoundRecord(Kind.ABSENT, score=0.0))
    state = TournamentState(players, rounds, rounds + 1)
    return trf.write(trf.document_from_state(state))


@pytest.mark.rule("004 4.5.2")
@pytest.mark.rule("B.02 8.3.3")
@pytest.mark.parametrize("seed", range(12))
def test_one_players_line_equals_his_line_of_the_report(club, seed):
    from clubs.models import Member
    from pairing.services.trf import import_trf
    from ratings import reports
    from tournaments.state import CompetitionData

    competition = import_trf(club, random_trf(seed), name=f"Random {seed}", slug=f"random-{seed}", system="dutch")
    rng = random.Random(seed)
    for member in Member.objects.filter(participations__competition=competition):
        member.national_rating = rng.choice([None, 1200, 1600, 1900, 2200])
        member.save(update_fields=["national_rating"])
    data = CompetitionData.load(competition, public=True)
    numbers = [p.start_number for p in data.participants]
    compared = 0
    for system in SYSTEMS:
        report = reports.build_report(data, system)
        for number in numbers:
            assert reports.player_row(data, number, system) == report.row_for(number), (system, number)
            compared += report.row_for(number) is not None
    assert compared >= len(numbers) * 2  # most players have a line in most systems
    assert reports.player_row(data, max(numbers) + 1, "fide") is None


@pytest.mark.rule("B.02 8.3.3")
def test_the_player_card_shows_the_line_of_the_report(client, club):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from pairing.services.trf import import_trf
    from ratings import reports
    from tournaments.state import CompetitionData

    competition = import_trf(club, random_trf(3), name="Random", slug="random", system="dutch")
    data = CompetitionData.load(competition, public=True)
    row = next(r for r in reports.build_report(data).rows if r.games and None not in (r.old_rating, r.new_rating))
    with CaptureQueriesContext(connection) as queries:
        page = client.get(reverse("player", args=[club.slug, competition.slug, row.participant.start_number]))
    assert page.status_code == 200
    assert f"{row.old_rating} → {row.new_rating}" in page.content.decode()
    rounds_read = [
        q["sql"] for q in queries.captured_queries if 'FROM "tournaments_round"' in q["sql"].split("WHERE")[0]
    ]
    assert len(rounds_read) == 1  # the card and its rating line share one reading of the competition
