"""Tournaments for the tie-break tests: compact tables written by hand (`build`) and random ones from a seed
(`random_tournament`)."""

from __future__ import annotations

import random

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


def random_tournament(seed: int) -> TournamentState:
    """2-40 players, 1-9 rounds from `seed`: games, forfeits (won, lost, double), every kind of bye,
    absences, players who withdraw (absent from then on), unrated players, many draws or few (many: large
    groups equal on everything before direct encounter)."""
    rng = random.Random(seed)
    n, rounds = rng.randint(2, 40), rng.randint(1, 9)
    draws = rng.choice([0.1, 0.5, 0.9])
    leaving = {p: rng.randint(1, rounds) for p in rng.sample(range(1, n + 1), rng.randint(0, n // 4))}
    history: dict[int, list[RoundRecord]] = {p: [] for p in range(1, n + 1)}
    for rnd in range(1, rounds + 1):
        present = [p for p in history if leaving.get(p, rounds + 1) > rnd]
        rng.shuffle(present)
        byes = rng.randint(0, min(2, len(present)))
        for p in present[:byes]:
            kind = rng.choice([Kind.PAIRING_BYE, Kind.FULL_BYE, Kind.HALF_BYE, Kind.ABSENT_NOTICE])
            history[p].append(RoundRecord(kind, score={Kind.HALF_BYE: 0.5, Kind.ABSENT_NOTICE: 0.0}.get(kind, 1.0)))
        paired = present[byes:]
        for white, black in zip(paired[::2], paired[1::2], strict=False):
            roll = rng.random()
            if roll < 0.08:
                kind, (sw, sb) = Kind.FORFEIT, rng.choice([(1.0, 0.0), (0.0, 1.0), (0.0, 0.0)])
            else:
                kind = Kind.GAME
                sw = 0.5 if roll < draws else rng.choice([1.0, 0.0])
                sb = 1.0 - sw
            history[white].append(RoundRecord(kind, black, Colour.WHITE, sw))
            history[black].append(RoundRecord(kind, white, Colour.BLACK, sb))
        for records in history.values():
            if len(records) < rnd:
                records.append(RoundRecord(Kind.ABSENT, score=0.0))
    players = [
        Player(id=p, name=f"P{p}", rating=rng.choice([0, 1500, 1800, 2100]), history=h, withdrawn=p in leaving)
        for p, h in history.items()
    ]
    return TournamentState(players, rounds, rounds + 1, seed=seed)
