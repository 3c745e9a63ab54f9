"""Playing whole small tournaments with a KNSB system, checking every round."""

from __future__ import annotations

import random

from pairing.engines import registry
from pairing.engines.state import Colour, Kind, Player, RoundRecord, TournamentState

from .knsb_helpers import check_round


def play(system: str, n: int, rounds: int, seed: int) -> TournamentState:
    rnd = random.Random(seed)
    players = [Player(id=i, name=f"P{i}", rating=2400 - 13 * i) for i in range(1, n + 1)]
    state = TournamentState(players=players, total_rounds=rounds, round_to_pair=1)
    for r in range(1, rounds + 1):
        p = registry.pair(state, system)
        last = r == rounds
        tops = frozenset(pl.id for pl in players if last and pl.score() > 0.5 * rounds)
        check_round(state, p, exempt=tops)
        assert p.explanation and p.explanation[0]
        for b in p.boards:
            res = rnd.choice([1.0, 0.5, 0.0])
            state.player(b.white).history.append(RoundRecord(Kind.GAME, b.black, Colour.WHITE, res))
            state.player(b.black).history.append(RoundRecord(Kind.GAME, b.white, Colour.BLACK, 1 - res))
        for bye in p.byes:
            state.player(bye.player).history.append(RoundRecord(Kind.PAIRING_BYE, None, None, 1.0))
        state.round_to_pair += 1
    assert all(sum(r.kind is Kind.PAIRING_BYE for r in pl.history) <= 1 for pl in players)
    return state
