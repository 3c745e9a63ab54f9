"""A published pairing of the KNSB Swiss systems stays as it is; a corrected result only changes the
pairings still to be made (seed 000 F6-F7, seed 001 F6-F7, seed 002 F6-F7)."""

import pytest

from pairing import services as pairing_services
from pairing.services import records as services
from tests.conftest import make_competition, make_members, play_round
from tournaments.models import Game
from tournaments.state import CompetitionData

pytestmark = pytest.mark.django_db

SYSTEMS = {"dutch-1998": "000", "knsb-wp": "001", "knsb-rating": "002"}


def _boards(rnd) -> list[tuple[int, int]]:
    return [(g.white.start_number, g.black.start_number) for g in rnd.games.order_by("board")]


@pytest.mark.rule("000 F6")
@pytest.mark.rule("000 F7")
@pytest.mark.rule("001 F6")
@pytest.mark.rule("001 F7")
@pytest.mark.rule("002 F6")
@pytest.mark.rule("002 F7")
@pytest.mark.parametrize("system", list(SYSTEMS))
def test_a_correction_leaves_the_published_round_and_counts_for_the_next(club, td, system):
    """F6: "Een gepubliceerde indeling wordt niet meer gewijzigd"; F7: a result processed wrongly
    "heeft dit slechts invloed op nog te maken indelingen". Round 1 played, round 2 published; the TD
    corrects a round-1 result (an override, recorded): round 2 keeps its boards, the scores the next
    pairing uses follow the correction."""
    competition = make_competition(club, td, make_members(club, 8), system=system, rounds=4, slug="swiss")
    first = play_round(competition, td)
    second = pairing_services.pair_next_round(competition, td)
    services.publish(second, td)
    published = _boards(second)
    game = first.games.order_by("board").first()
    assert game.result == "1-0"
    services.set_result(game, "0-1", td, override=True)
    second.refresh_from_db()
    assert _boards(second) == published
    assert Game.objects.get(pk=game.pk).result == "0-1"
    state = CompetitionData.load(competition).state(upto_round=1)
    white, black = game.white.start_number, game.black.start_number
    assert (state.player(white).score(), state.player(black).score()) == (0.0, 1.0)
