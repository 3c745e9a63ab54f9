"""Building tournament states by hand for the Danish systems' tests."""

from __future__ import annotations

from pairing.engines.state import Colour, Kind, Player, RoundRecord, TournamentState


def play_rounds(
    n: int, rounds: list[list[tuple[int, int, float]]], withdrawn: dict[int, int] | None = None
) -> list[Player]:
    """Players 1..n after the given rounds: each board is (white, black, white's score).

    A player missing from a round had no game; `withdrawn` maps a player to the
    round from which he takes no part.
    """
    players = [Player(id=i, name=f"P{i}", rating=2400 - 10 * i) for i in range(1, n + 1)]
    by_id = {p.id: p for p in players}
    for boards in rounds:
        seen = set()
        for white, black, score in boards:
            if black == 0:
                by_id[white].history.append(RoundRecord(Kind.PAIRING_BYE, score=1.0))
                seen.add(white)
                continue
            by_id[white].history.append(RoundRecord(Kind.GAME, black, Colour.WHITE, score))
            by_id[black].history.append(RoundRecord(Kind.GAME, white, Colour.BLACK, 1.0 - score))
            seen |= {white, black}
        for p in players:
            if p.id not in seen:
                p.history.append(RoundRecord(Kind.ABSENT, score=0.0))
    for pid, rnd in (withdrawn or {}).items():
        by_id[pid].withdrawn = True
        by_id[pid].extra["withdrawn_round"] = rnd
    return players


def state_of(players: list[Player], total_rounds: int = 9, **settings) -> TournamentState:
    played = max((len(p.history) for p in players), default=0)
    return TournamentState(
        players=players, total_rounds=total_rounds, round_to_pair=played + 1, settings=settings, seed=1
    )


def boards_of(pairing) -> list[tuple[int, int]]:
    return [(b.white, b.black) for b in pairing.boards]
