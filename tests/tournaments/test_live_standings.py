"""The public standings after a result: the ranked standings kept by the process with the new results put
in (`standings.live_lines`, `tiebreaks.LiveStandings`) equal the standings ranked afresh; anything but a
result (a withdrawal) ranks them afresh.

Random competitions, seeded, imported from TRF (games, forfeits, byes, withdrawals), under several systems
and so several tie-break lists (C.07; seed 000 F10, seed 001 F12; seed 004 §4.9.10.2); results entered and
corrected through the one writer (`pairing.services.records.set_result`).
"""

from __future__ import annotations

import random

import pytest

from tests.ratings.test_player_row import random_trf

pytestmark = pytest.mark.django_db

SYSTEMS = ["dutch", "knsb-wp", "dutch-1998", "dansk"]
RESULTS = ["1-0", "0-1", "½-½", "1-0R", "0-1R", "0-0R"]


def _rows(rows) -> list[tuple]:
    return [(r.rank, r.participant.start_number, r.points, r.tiebreaks, r.explained, r.games) for r in rows]


def _afresh(data) -> list[tuple]:
    """The standings ranked in full from the state read now (a state given: no kept standings)."""
    from tournaments import standings

    return _rows(standings.standings(data, standings.final_state(data), explain=False)[1])


@pytest.mark.rule("C.07 6")
@pytest.mark.rule("001 F12")
@pytest.mark.rule("000 F10")
@pytest.mark.parametrize("seed", range(6))
def test_the_standings_after_each_result_equal_the_standings_ranked_afresh(club, td, seed, monkeypatch):
    from pairing.engines import tiebreaks
    from pairing.services.records import set_result
    from pairing.services.trf import import_trf
    from tournaments import standings
    from tournaments.models import Game
    from tournaments.state import CompetitionData

    system = SYSTEMS[seed % len(SYSTEMS)]
    competition = import_trf(club, random_trf(seed), name=f"Live {seed}", slug=f"live-{seed}", system=system)
    applied = []
    original = tiebreaks.LiveStandings.apply

    def spy(self, changes):
        changes = list(changes)
        applied.append(len(changes))
        return original(self, changes)

    monkeypatch.setattr(tiebreaks.LiveStandings, "apply", spy)
    data = CompetitionData.load(competition, public=True)
    assert _rows(standings.standings(data, explain=False)[1]) == _afresh(data)
    rng = random.Random(seed)
    games = list(Game.objects.filter(round__competition=competition).select_related("round"))
    for game in rng.sample(games, min(6, len(games))):
        result = rng.choice([r for r in RESULTS if r != game.result])
        set_result(game, result, td, override=True)
        data = CompetitionData.load(competition, public=True)
        assert _rows(standings.standings(data, explain=False)[1]) == _afresh(data), (game.pk, result)
    assert applied and all(count == 2 for count in applied)  # each result: the two players' records


def test_a_withdrawal_ranks_the_standings_afresh(club, td, monkeypatch):
    from pairing.engines import tiebreaks
    from pairing.services import records as services
    from pairing.services.trf import import_trf
    from tournaments import standings
    from tournaments.state import CompetitionData

    competition = import_trf(club, random_trf(3), name="Live", slug="live", system="dutch")
    data = CompetitionData.load(competition, public=True)
    standings.standings(data, explain=False)
    made = []
    original = tiebreaks.LiveStandings.__init__

    def spy(self, *args, **kwargs):
        made.append(1)
        original(self, *args, **kwargs)

    monkeypatch.setattr(tiebreaks.LiveStandings, "__init__", spy)
    standings.standings(CompetitionData.load(competition, public=True), explain=False)
    assert made == []  # nothing changed: the kept standings as they are
    before = CompetitionData.load(competition, public=True).state()
    services.withdraw(competition.participants.get(start_number=2), td)
    data = CompetitionData.load(competition, public=True)
    assert data.state() != before  # he takes no part in the rounds to come
    rows = _rows(standings.standings(data, explain=False)[1])
    assert made == [1]
    assert rows == _afresh(data)
