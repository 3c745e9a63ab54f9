"""The engine contract: a tournament's state in, a pairing out.

Plain data only (no Django, no I/O). Every pairing system reads a
`TournamentState` and returns a `Pairing`; the web app, the command line and
the tests build states the same way (from the database, TRF or JSON).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from .notes import TEXT, Note


class Colour(str, Enum):  # noqa: UP042 (str values in JSON and templates)
    WHITE = "w"
    BLACK = "b"

    @property
    def opposite(self) -> Colour:
        return Colour.BLACK if self is Colour.WHITE else Colour.WHITE


class Kind(str, Enum):  # noqa: UP042
    """What a player's round was. TRF codes in brackets (see docs/trf.md)."""

    GAME = "game"  # played over the board (1, =, 0; W, D, L)
    FORFEIT = "forfeit"  # paired, not played (+, -); no meeting, no colour
    PAIRING_BYE = "pairing-bye"  # the pairing-allocated bye (U)
    FULL_BYE = "full-bye"  # requested full-point bye (F)
    HALF_BYE = "half-bye"  # requested half-point bye (H)
    ABSENT_NOTICE = "absent-notice"  # absent with notice, zero-point bye (Z)
    ABSENT = "absent"  # absent without notice, or not paired (blank, -)
    CLUB_MATCH = "club-match"  # played for the club elsewhere on club night (Keizer)


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One player's round.

    `score` is the player's points from this round (1, 0.5, 0) as the TRF
    result code gives them; `None` while a game is still in play. A system
    that scores differently (Keizer) computes its own values from `kind`.
    """

    kind: Kind
    opponent: int | None = None  # start number, games and forfeits only
    colour: Colour | None = None  # games and forfeits only
    score: float | None = 0.0

    @property
    def played(self) -> bool:
        """An over-the-board game: counts as a meeting and for colours."""
        return self.kind is Kind.GAME

    @property
    def paired(self) -> bool:
        """The pairing gave this player an opponent (a game or a forfeit)."""
        return self.kind in (Kind.GAME, Kind.FORFEIT)


@dataclass(slots=True)
class Player:
    """A participant as the engines see it. `id` is the start number."""

    id: int
    name: str = ""
    rating: int = 0
    title: str = ""
    federation: str = ""
    fide_id: str = ""
    national_rating: int = 0
    sex: str = ""
    birth: str = ""
    history: list[RoundRecord] = field(default_factory=list)
    withdrawn: bool = False  # takes no part in rounds still to pair
    extra: dict[str, Any] = field(default_factory=dict)

    def score(self, rounds: int | None = None) -> float:
        """Points from the first `rounds` rounds (all when None)."""
        records = self.history if rounds is None else self.history[:rounds]
        return sum(r.score or 0.0 for r in records)

    def opponents(self) -> list[int]:
        """Opponents met over the board (forfeits are not meetings)."""
        return [r.opponent for r in self.history if r.played and r.opponent]

    def colours(self) -> list[Colour]:
        """Colours of played games, in order (forfeits and byes have none)."""
        return [r.colour for r in self.history if r.played and r.colour]


@dataclass(frozen=True, slots=True)
class ForbiddenPair:
    """Players who must not meet, in rounds `first_round`..`last_round` (None: from the first / to the
    last round). Two or more start numbers: none of them may meet another (TRF-2026 record 260, the
    older `XXP` line; trf.md section 5). The engines treat a forbidden meeting exactly as a game already
    played in the rounds concerned (an absolute criterion, like C.04.3 C1)."""

    players: tuple[int, ...]
    first_round: int | None = None
    last_round: int | None = None

    def applies(self, rnd: int) -> bool:
        """Whether the ban holds in round `rnd`."""
        return (self.first_round is None or rnd >= self.first_round) and (
            self.last_round is None or rnd <= self.last_round
        )

    def problem(self, known: set[int]) -> str | None:
        """What is wrong with this ban among the start numbers `known` (an English sentence), or None."""
        if len(self.players) < 2 or len(set(self.players)) != len(self.players):
            return "a forbidden pair needs two or more different players"
        missing = [pid for pid in self.players if pid not in known]
        if missing:
            return f"forbidden pair: no player {missing[0]}"
        if any(r is not None and r < 1 for r in (self.first_round, self.last_round)):
            return "forbidden pair: rounds are numbered from 1"
        if self.first_round is not None and self.last_round is not None and self.first_round > self.last_round:
            return f"forbidden pair: first round {self.first_round} is after last round {self.last_round}"
        return None


@dataclass(slots=True)
class TournamentState:
    """Everything an engine needs to pair `round_to_pair`.

    `absent` holds the start numbers that must not be paired this round
    (pre-declared absences and requested byes, with their kinds in
    `requested_byes`). `seed` drives every lot the system draws: the caller
    records it so the pairing can be reproduced.
    """

    players: list[Player]
    total_rounds: int
    round_to_pair: int
    settings: dict[str, Any] = field(default_factory=dict)
    requested_byes: dict[int, Kind] = field(default_factory=dict)
    top_colour_round1: Colour = Colour.WHITE
    seed: int | None = None
    name: str = ""
    # The point system (TRF XXS W= and D=): what a win and a draw are worth, for the tie-breaks.
    win_points: float = 1.0
    draw_points: float = 0.5
    forbidden: list[ForbiddenPair] = field(default_factory=list)
    _by_id: dict[int, Player] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._by_id = {p.id: p for p in self.players}

    def player(self, player_id: int) -> Player:
        return self._by_id[player_id]

    def barred(self, player_id: int, rnd: int | None = None) -> set[int]:
        """Start numbers `player_id` must not meet in round `rnd` (default: the round to pair) because
        the TD forbids it."""
        rnd = self.round_to_pair if rnd is None else rnd
        out: set[int] = set()
        for ban in self.forbidden:
            if player_id in ban.players and ban.applies(rnd):
                out.update(ban.players)
        out.discard(player_id)
        return out

    def cannot_meet(self, player: Player, rnd: int | None = None) -> set[int]:
        """Opponents `player` may not be paired against in round `rnd` (default: the round to pair): those
        met over the board and those the TD forbids. Every Swiss, Danish and Keizer engine reads this as
        its "already played" criterion (C.04.3 C1, seed 002 B1, Dansk Schweizer 1.2)."""
        return set(player.opponents()) | self.barred(player.id, rnd)

    @property
    def rounds_played(self) -> int:
        return self.round_to_pair - 1

    def to_pair(self) -> list[Player]:
        """Players to pair this round: not withdrawn, not absent."""
        return [p for p in self.players if not p.withdrawn and p.id not in self.requested_byes]


@dataclass(frozen=True, slots=True)
class Board:
    white: int
    black: int


# Points a bye of each kind gives unless the system says otherwise.
BYE_POINTS: dict[Kind, float] = {
    Kind.PAIRING_BYE: 1.0,
    Kind.FULL_BYE: 1.0,
    Kind.HALF_BYE: 0.5,
    Kind.ABSENT_NOTICE: 0.0,
    Kind.ABSENT: 0.0,
}


@dataclass(frozen=True, slots=True)
class Bye:
    """A player without an opponent this round, and the points it gives."""

    player: int
    kind: Kind = Kind.PAIRING_BYE
    score: float | None = None  # None: BYE_POINTS[kind]

    @property
    def points(self) -> float:
        return BYE_POINTS.get(self.kind, 0.0) if self.score is None else self.score


@dataclass(slots=True)
class Pairing:
    """Boards in publication order, byes, and the reasons behind them.

    `explanation` is a list of notes (`notes.Note`), one per bracket or
    decision, saying what was tried and which criteria had to be relaxed;
    `notes.english` gives the lines the command line prints.
    """

    boards: list[Board]
    byes: list[Bye] = field(default_factory=list)
    explanation: list[Note] = field(default_factory=list)


class EngineError(Exception):
    """Base of the errors an engine raises. Its reason is a `Note` (the web app shows it in the reader's
    language) or, for input the command line reads, an English sentence; `str()` is the English text."""

    def __init__(self, reason: Note | str = "") -> None:
        self.note = reason if isinstance(reason, Note) else TEXT(text=reason)
        super().__init__(self.note.text())


class NoValidPairing(EngineError):
    """No pairing satisfies the system's absolute rules (exit code 1)."""


class InvalidInput(EngineError):
    """The input cannot be paired as given (exit code 3)."""
