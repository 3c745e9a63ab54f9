"""Compact tournament tables for the tie-break tests."""

from __future__ import annotations

from pairing.engines.state import Colour, Kind, Player, RoundRecord, TournamentState

GAME_RESULTS = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "=": (0.5, 0.5)}
FORFEITS = {"+-": (1.0, 0.0), "-+": (0.0, 1.0), "--": (0.0, 0.0)}
BYES = {
    "U": (Kind.PAIRING_BYE, 1.0),
    "F": (Kind.FULL_BYE, 1.0),
    "H": (Kind.HALF_BYE, 0.5),
    "Z": (Kind.ABSENT_NOTICE, 0.0),
}


def build(
    n: int,
    rounds: list[list[tuple]],
    ratings: dict[int, int] | None = None,
    total_rounds: int | None = None,
    seed: int | None = None,
    withdrawn: tuple[int, ...] = (),
) -> TournamentState:
    """Players 1..n; each round a list of ("1-0" | "0-1" | "=" | "+-" | "-+" | "--", white, black)
    or ("U" | "F" | "H" | "Z", player). Players not named in a round are absent."""
    history: dict[int, list[RoundRecord]] = {p: [] for p in range(1, n + 1)}
    for entries in rounds:
        seen: set[int] = set()
        for entry in entries:
            code = entry[0]
            if code in BYES:
                kind, pts = BYES[code]
                history[entry[1]].append(RoundRecord(kind, score=pts))
                seen.add(entry[1])
                continue
            white, black = entry[1], entry[2]
            kind = Kind.GAME if code in GAME_RESULTS else Kind.FORFEIT
            sw, sb = (GAME_RESULTS | FORFEITS)[code]
            history[white].append(RoundRecord(kind, black, Colour.WHITE, sw))
            history[black].append(RoundRecord(kind, white, Colour.BLACK, sb))
            seen |= {white, black}
        for p in history:
            if p not in seen:
                history[p].append(RoundRecord(Kind.ABSENT, score=0.0))
    players = [
        Player(id=p, name=f"P{p}", rating=(ratings or {}).get(p, 0), history=h, withdrawn=p in withdrawn)
        for p, h in history.items()
    ]
    total = total_rounds or len(rounds)
    return TournamentState(players, total, len(rounds) + 1, seed=seed)
