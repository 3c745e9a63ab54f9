"""The standings chart's places after each round equal the places of that round's full standings.

The chart ranks only the shown players' points groups (`tiebreaks.places`) on states cut from the
competition's one state (`CompetitionData.earlier`); the oracle ranks every earlier round in full, as
the chart did before. Random competitions, seeded, imported from TRF: games, forfeits, byes of every
kind, withdrawals, several systems and so several tie-break lists (C.07; seed 000 F10, seed 001 F12).
"""

from __future__ import annotations

import random

import pytest

from tests.ratings.test_player_row import random_trf

pytestmark = pytest.mark.django_db

SYSTEMS = ["dutch", "knsb-wp", "dutch-1998", "dansk"]


def imported(club, seed: int, system: str):
    from pairing.services.trf import import_trf

    return import_trf(club, random_trf(seed), name=f"Random {seed}", slug=f"random-{seed}", system=system)


@pytest.mark.parametrize("seed", range(8))
def test_a_state_cut_from_the_whole_equals_the_state_read_up_to_that_round(club, seed):
    from tournaments import standings
    from tournaments.state import CompetitionData

    data = CompetitionData.load(imported(club, seed, "dutch"), public=True)
    whole = data.state()
    for number in range(1, whole.round_to_pair):
        cut, read = data.earlier(whole, number), data.state(upto_round=number)
        assert cut == read and repr(cut) == repr(read)  # equal, and so the same cache key
        assert [p.id for p in cut.players] == [p.id for p in read.players]
        # The chart's cache key of that round, written from the whole state without cutting it.
        assert standings.round_fingerprints(data, whole)(number) == standings.fingerprint(read)


@pytest.mark.rule("C.07 6")
@pytest.mark.rule("001 F12")
@pytest.mark.rule("000 F10")
@pytest.mark.parametrize("seed", range(16))
def test_the_chart_places_equal_each_rounds_full_standings(club, seed):
    from tournaments import standings
    from tournaments.state import CompetitionData

    competition = imported(club, seed, SYSTEMS[seed % len(SYSTEMS)])
    data = CompetitionData.load(competition, public=True)
    numbers, rows = standings.progression(data, limit=None)
    last = max(numbers)
    assert len(rows) == len(data.participants)
    for index, number in enumerate(numbers):
        state = data.state(upto_round=number) if number < last else None
        ranked = standings.standings(data, state)[1]
        full = {row.participant.start_number: int(row.rank.split("-")[0]) for row in ranked}
        for participant, places in rows:
            assert places[index] == full.get(participant.start_number), (number, participant.start_number)
    few = random.Random(seed).randint(1, 5)
    _numbers, top = standings.progression(data, limit=few)
    assert top == rows[:few]


@pytest.mark.rule("C.07 6")
@pytest.mark.parametrize("seed", range(8))
def test_the_places_kept_of_a_round_grow_with_the_players_asked_for_and_stay_true(club, seed):
    """A round's places are kept for every player of the points groups ranked so far: asking for other
    players ranks only their groups, and every place kept equals the round's full standings."""
    from pairing.engines import tiebreaks
    from tournaments import standings
    from tournaments.state import CompetitionData

    data = CompetitionData.load(imported(club, seed, SYSTEMS[seed % len(SYSTEMS)]), public=True)
    whole = data.state()
    rng = random.Random(seed)
    everyone = [p.start_number for p in data.participants]
    for number in range(1, whole.round_to_pair - 1):
        ranked = standings.standings(data, data.state(upto_round=number))[1]
        full = {row.participant.start_number: int(row.rank.split("-")[0]) for row in ranked}
        asked = []
        for _ in range(3):
            players = rng.sample(everyone, rng.randint(1, 4))
            asked.append(players)
            assert standings.places_after(data, number, players, whole=whole) == {p: full[p] for p in players}
        groups = tiebreaks.places(whole, ["PTS", *standings.tiebreak_names(data)], asked[0], rounds=number,
                                  rules=tiebreaks.default_rules(data.competition.system),
                                  unrated=tiebreaks.Unrated(data.competition.unrated_opponents,
                                                            data.competition.unrated_rating or 0),
                                  whole_groups=True)  # fmt: skip
        assert set(asked[0]) <= set(groups) and all(full[p] == place for p, place in groups.items())
