"""Seed 001 B4 and seed 002 B3 on a round where the ideal is reachable: after a first round with no
draws, the winners and the losers can each be paired among themselves, white against black.

Eight players, round 1 (pairing numbers 1-8, white first): 1-5 1-0, 6-2 0-1, 3-7 1-0, 8-4 0-1.
Winners 1, 2, 3, 4 (1 and 3 had white, 2 and 4 black); losers 5, 6, 7, 8 (6 and 8 had white).
"""

import pytest

from pairing.engines import registry
from pairing.engines.state import Colour

from .knsb_helpers import tournament

ROUND_ONE = [(1, 5, 1.0), (6, 2, 0.0), (3, 7, 1.0), (8, 4, 0.0)]


def _round_two(system: str):
    state = tournament(8, [ROUND_ONE], 5)
    return state, registry.pair(state, system)


@pytest.mark.rule("002 B3")
@pytest.mark.rule("001 B3")
@pytest.mark.rule("000 B3")
@pytest.mark.parametrize("system", ["knsb-rating", "knsb-wp", "dutch-1998"])
def test_score_differences_are_zero_when_the_groups_can_pair_themselves(system):
    """B3: "Het scoreverschil tussen twee tegen elkaar ingedeelde spelers dient zo klein mogelijk te
    zijn, het ideaal is 0." Winners meet winners and losers meet losers: every difference is 0."""
    state, pairing = _round_two(system)
    assert len(pairing.boards) == 4
    for board in pairing.boards:
        assert state.player(board.white).score() == state.player(board.black).score()


@pytest.mark.rule("001 B4")
@pytest.mark.rule("002 B4")
@pytest.mark.rule("000 B4")
@pytest.mark.parametrize("system", ["knsb-rating", "knsb-wp", "dutch-1998"])
def test_every_player_gets_his_colour_when_the_group_allows_it(system):
    """B4: "Zoveel mogelijk spelers binnen een puntengroep krijgen de kleur van hun voorkeur." In each
    group two players had white and two black: a white-black pairing gives all eight their colour."""
    state, pairing = _round_two(system)
    for board in pairing.boards:
        assert state.player(board.white).colours() == [Colour.BLACK], (system, board)
        assert state.player(board.black).colours() == [Colour.WHITE], (system, board)
