"""Building small hand-made tournaments for the KNSB Swiss tests."""

from __future__ import annotations

from pairing.engines.state import Colour, Kind, Pairing, Player, RoundRecord, TournamentState


def tournament(n: int, rounds: list[list[tuple]], total: int, **kwargs) -> TournamentState:
    """`n` players rated 2000, 1990, ... (so A2 order = start number). Each round lists
    (white, black, white's points) games and ("bye", player) pairing-allocated byes."""
    players = [Player(id=i, name=f"P{i:02d}", rating=2010 - 10 * i) for i in range(1, n + 1)]
    by_id = {p.id: p for p in players}
    for rnd in rounds:
        for entry in rnd:
            if entry[0] == "bye":
                by_id[entry[1]].history.append(RoundRecord(Kind.PAIRING_BYE, None, None, 1.0))
                continue
            w, b, pts = entry
            by_id[w].history.append(RoundRecord(Kind.GAME, b, Colour.WHITE, pts))
            by_id[b].history.append(RoundRecord(Kind.GAME, w, Colour.BLACK, 1.0 - pts))
    return TournamentState(players=players, total_rounds=total, round_to_pair=len(rounds) + 1, **kwargs)


def absent(state: TournamentState, *ids: int) -> TournamentState:
    """`ids` absent with notice in the last round of `state`'s history (000 F5: no game, no colour; without
    notice they would be deemed withdrawn, F8)."""
    for pid in ids:
        state.player(pid).history.append(RoundRecord(Kind.ABSENT_NOTICE, None, None, 0.0))
    return state


# Three rounds of eight players after which, with 4 and 5 absent in round 3, score group 2 is
# 1 and 3 BWB (strong white), 2 WBW (strong black) and 4 WB (mild white): the same position for
# seed 000 A8's last sentence and seed 002 A7e.
TWO_STRONG_WHITES = [
    [(5, 1, 0.0), (2, 6, 0.5), (7, 3, 0.0), (4, 8, 1.0)],
    [(1, 7, 0.5), (5, 2, 0.0), (3, 8, 0.5), (6, 4, 0.0)],
    [(8, 1, 0.5), (2, 7, 0.5), (6, 3, 0.5)],
]


# Seven players before round 4: on 2½ 1; on 2: 2, 5, 6; on 1½: 7; on 1: 3 and 4. 1 has met 4, 6, 7;
# 5 has met 6 and 7; 3, 4 and 7 have had the bye. 1, 5 (WBW) want black, 2 and 6 (BWB) white.
MERGE = [
    [(1, 4, 1.0), (3, 6, 0.0), (5, 2, 1.0), ("bye", 7)],
    [(2, 3, 1.0), ("bye", 4), (6, 1, 0.5), (7, 5, 0.5)],
    [(1, 7, 1.0), ("bye", 3), (4, 2, 0.0), (5, 6, 0.5)],
]


def boards(pairing: Pairing) -> list[tuple[int, int]]:
    return [(b.white, b.black) for b in pairing.boards]


def byes(pairing: Pairing) -> list[int]:
    return [b.player for b in pairing.byes]


def check_round(state: TournamentState, pairing: Pairing, exempt: frozenset[int] = frozenset()) -> None:
    """Absolute criteria of every KNSB system: everybody once, no repeat game, colour difference within
    +-2, no colour three times running (not checked for `exempt`: topscorers in the last round)."""
    allocated = [b.player for b in pairing.byes if b.kind is Kind.PAIRING_BYE]
    assert len(allocated) <= 1
    seen = [p for b in pairing.boards for p in (b.white, b.black)] + allocated
    assert sorted(seen) == sorted(p.id for p in state.to_pair())
    for b in pairing.boards:
        w, k = state.player(b.white), state.player(b.black)
        assert k.id not in w.opponents()
        for p, c in ((w, Colour.WHITE), (k, Colour.BLACK)):
            if p.id in exempt:
                continue
            cols = [*p.colours(), c]
            diff = sum(1 if x is Colour.WHITE else -1 for x in cols)
            assert abs(diff) <= 2
            assert not (len(cols) >= 3 and cols[-1] is cols[-2] is cols[-3])
