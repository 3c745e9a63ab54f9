"""The standings made from a state the page has already read are the standings read afresh, and that
state is left as it was: the crosstable ranks and draws its cells from one reading of the games."""

from __future__ import annotations

import pytest

from tests.conftest import make_competition, make_members, play_round

pytestmark = pytest.mark.django_db


@pytest.mark.rule("004 16")
def test_a_struck_round_robin_leaver_is_struck_from_the_ranking_but_not_from_the_given_state(club, td):
    """Seed 004 §16: under 50 % of his games played, his results do not count in the standings; the
    crosstable still shows the games he played."""
    from pairing.services import records as services
    from tournaments import standings
    from tournaments.state import CompetitionData

    competition = make_competition(club, td, make_members(club, 6), slug="rr6")
    play_round(competition, td)  # white wins every board
    play_round(competition, td)
    services.withdraw(competition.participants.get(start_number=6), td)  # 2 of 5 games: under 50 %
    data = CompetitionData.load(competition)
    whole = data.state()
    before = repr(whole)
    names, rows = standings.standings(data, whole=whole)
    assert repr(whole) == before  # the given state is not changed
    fresh_names, fresh = standings.standings(data)
    assert names == fresh_names
    assert [(r.rank, r.participant, r.points, r.tiebreaks) for r in rows] == [
        (r.rank, r.participant, r.points, r.tiebreaks) for r in fresh
    ]
    assert 6 not in [row.participant.start_number for row in rows]
    table = standings.crosstable(data)
    number, struck, _line = table[-1]
    assert struck.participant.start_number == 6 and struck.rank == "–"  # listed last, unranked
    met_him = [row for _n, row, line in table if any(cell.text.startswith(str(number)) for cell in line)]
    assert len(met_him) == 2  # his two opponents' games against him are still drawn
