"""Building Keizer seasons for the tests: players in start order, rounds of results."""

from __future__ import annotations

from typing import Any

from pairing.engines.state import Colour, Kind, Player, RoundRecord, TournamentState

W, B = Colour.WHITE, Colour.BLACK

# Seed 003 §1.2 / §1.4: the start ranking of the examples.
KIJK_UIT = [
    "Colleen Otten",
    "Peter van Nieuwenhuizen",
    "Jaap Kramer",
    "Sinclair Koelemij",
    "Peter Hamersma",
    "André Kunst",
]


class Season:
    """Players numbered 1..n in start order; `round()` records one round for everybody."""

    def __init__(self, names: list[str], ratings: list[int] | None = None, **settings: Any) -> None:
        ratings = ratings or [1800] * len(names)
        self.players = [Player(i, name, rating=r) for i, (name, r) in enumerate(zip(names, ratings, strict=True), 1)]
        self.settings = settings
        self.rounds = 0

    def by_name(self, name: str) -> Player:
        return next(p for p in self.players if p.name == name)

    def id(self, name: str) -> int:
        return self.by_name(name).id

    def round(
        self,
        games: list[tuple[int, int, float]] = (),
        forfeits: list[tuple[int, int]] = (),
        club: dict[int, float] | None = None,
        other: dict[int, Kind] | None = None,
    ) -> None:
        """games: (white, black, white's score); forfeits: (winner, loser); club: player -> result;
        other: player -> kind of a round without a game. Anybody not named was absent without notice."""
        self.rounds += 1
        records: dict[int, RoundRecord] = {}
        for white, black, score in games:
            records[white] = RoundRecord(Kind.GAME, black, W, score)
            records[black] = RoundRecord(Kind.GAME, white, B, 1 - score)
        for winner, loser in forfeits:
            records[winner] = RoundRecord(Kind.FORFEIT, loser, W, 1.0)
            records[loser] = RoundRecord(Kind.FORFEIT, winner, B, 0.0)
        for pid, score in (club or {}).items():
            records[pid] = RoundRecord(Kind.CLUB_MATCH, score=score)
        for pid, kind in (other or {}).items():
            records[pid] = RoundRecord(kind)
        for p in self.players:
            p.history.append(records.get(p.id, RoundRecord(Kind.ABSENT)))

    def state(self, absent: dict[int, Kind] | None = None, seed: int | None = 1) -> TournamentState:
        return TournamentState(
            players=self.players,
            total_rounds=30,
            round_to_pair=self.rounds + 1,
            settings=dict(self.settings),
            requested_byes=dict(absent or {}),
            seed=seed,
        )


def kijk_uit_round_1(**settings: Any) -> Season:
    """The first round of seed 003 §1.4."""
    season = Season(KIJK_UIT, **settings)
    ids = {name: season.id(name) for name in KIJK_UIT}
    season.round(
        games=[
            (ids["André Kunst"], ids["Peter Hamersma"], 1.0),
            (ids["Colleen Otten"], ids["Peter van Nieuwenhuizen"], 0.5),
        ],
        other={ids["Jaap Kramer"]: Kind.ABSENT_NOTICE, ids["Sinclair Koelemij"]: Kind.ABSENT_NOTICE},
    )
    return season
