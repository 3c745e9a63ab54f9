"""How unplayed rounds count in the opponent-based tie-breaks (BH, FB, SB, AOB; WP and WSB).

Three questions, one field each of `Rules`:

- `own`: what a player's own round without an over-the-board game contributes to his BH and SB.
  "dummy": a dummy opponent with the player's own final score, the result as obtained (C.07 2023/2024
  art. 16.4). "dummy-capped": the same, the dummy's score capped at the scheduled opponent's adjusted
  score for a forfeit and at half the rounds otherwise (C.07 as amended for 2026, 16.4.1-16.4.2).
  "virtual": the pre-2023 virtual opponent (old C.02 art. 13): the player's score before the round,
  plus the opposite of his result in it, plus a draw for every later round. "self-draw": a draw
  against oneself (seed 001 A1d and F3). "ignore": the round contributes nothing.
- `opponents`: the score at which a player counts as someone's opponent. "adjusted": C.07 16.3,
  requested byes followed only by voluntary unplayed rounds (or in the last round) count as draws.
  "unplayed-draw": every round without an over-the-board game counts as a draw (old C.02 art. 13;
  seed 001 A1d, the "WS" score). "actual": the points as they are.
- `vur_cut_first`: C.07 16.5, a voluntary unplayed round's contribution is the first to be cut.
- `forfeits_played`: forfeits count as games against the scheduled opponent, as every tie-break's
  `/P` modifier asks; the TEC reference calculator does so in round robins, where the schedule is
  fixed and a bye or absence contributes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..notes import Note, note_text
from ..state import InvalidInput, Kind, RoundRecord

OWN_CHOICES = ("dummy", "dummy-capped", "virtual", "self-draw", "ignore")
OPPONENT_CHOICES = ("adjusted", "unplayed-draw", "actual")


@dataclass(frozen=True, slots=True)
class Rules:
    own: str = "dummy-capped"
    opponents: str = "adjusted"
    vur_cut_first: bool = True
    name: str = ""
    forfeits_played: bool = False

    def __post_init__(self) -> None:
        if self.own not in OWN_CHOICES:
            raise InvalidInput(f"unknown treatment of own unplayed rounds: {self.own!r}")
        if self.opponents not in OPPONENT_CHOICES:
            raise InvalidInput(f"unknown treatment of opponents' unplayed rounds: {self.opponents!r}")


UNRATED_CHOICES = ("drop", "leave-out", "rating")


@dataclass(frozen=True, slots=True)
class Unrated:
    """Unrated opponents in the rating-based tie-breaks ARO, TPR, PTP, APRO, APPO (C.07 art. 10).

    C.07 art. 10 lets the regulations say how unrated participants are rated; when they do not, the
    rating-based tie-breaks are dropped while unrated participants are present (reference
    tiebreaks.md §1). "drop" (the default): no value for anyone when a participant is unrated.
    "leave-out": the games against unrated opponents do not count. "rating": an unrated opponent
    counts at `rating`, the value the regulations give.
    """

    how: str = "drop"
    rating: int = 0

    def __post_init__(self) -> None:
        if self.how not in UNRATED_CHOICES:
            raise InvalidInput(f"unknown treatment of unrated opponents: {self.how!r}")
        if self.how == "rating" and not 0 < self.rating < 4000:
            raise InvalidInput("the rating for unrated opponents must be between 1 and 3999")


PRESETS: dict[str, Rules] = {
    "fide-2026": Rules("dummy-capped", "adjusted", True, "fide-2026"),
    "fide-2023": Rules("dummy", "adjusted", True, "fide-2023"),
    "fide-pre2023": Rules("virtual", "unplayed-draw", False, "fide-pre2023"),
    "knsb": Rules("self-draw", "unplayed-draw", False, "knsb"),
    "fide-roundrobin": Rules("ignore", "actual", True, "fide-roundrobin", forfeits_played=True),
    "plain": Rules("ignore", "actual", False, "plain"),
}
DEFAULT_RULES = "fide-2026"


def get_rules(rules: str | Rules | None) -> Rules:
    """A preset by name (None: the current FIDE rules), or `rules` itself."""
    if isinstance(rules, Rules):
        return rules
    name = rules or DEFAULT_RULES
    if name not in PRESETS:
        raise InvalidInput(f"unknown tie-break rules {name!r}; choose from {', '.join(PRESETS)}")
    return PRESETS[name]


# Requested byes (C.07 16.1.1): half- and zero-point byes, absences and the rounds after a
# withdrawal. A club-match evening (Keizer) is absence by choice and counts the same here.
REQUESTED_BYES = frozenset({Kind.HALF_BYE, Kind.ABSENT_NOTICE, Kind.ABSENT, Kind.CLUB_MATCH})


def points(record: RoundRecord) -> float:
    return record.score or 0.0


def is_forfeit_loss(record: RoundRecord) -> bool:
    return record.kind is Kind.FORFEIT and points(record) == 0


def is_vur(record: RoundRecord) -> bool:
    """Voluntary unplayed round (C.07 16.1.2): a requested bye or a forfeit loss."""
    return record.kind in REQUESTED_BYES or is_forfeit_loss(record)


def drawn_as_opponent(records: list[RoundRecord]) -> list[bool]:
    """C.07 16.2 category 5, per round: a requested bye followed only by VURs (or in the last round).

    These rounds, and only these, count as draws when the player is someone else's opponent (16.3).
    """
    flags = [False] * len(records)
    only_vurs_after = True
    for i in range(len(records) - 1, -1, -1):
        flags[i] = records[i].kind in REQUESTED_BYES and only_vurs_after
        only_vurs_after = only_vurs_after and is_vur(records[i])
    return flags


# What a round was, for an explanation's lines (one note each, shared: notes do not change).
GAME = note_text("tiebreak.game", "game")()
FORFEIT_COUNTED = note_text("tiebreak.forfeit_counted", "forfeit counted as played")()
_FORFEIT_WIN = note_text("tiebreak.forfeit_win", "forfeit win")()
_FORFEIT_LOSS = note_text("tiebreak.forfeit_loss", "forfeit loss")()
_FORFEIT_DRAW = note_text("tiebreak.forfeit_draw", "forfeit draw")()
_UNPLAYED: dict[Kind, Note] = {
    Kind.PAIRING_BYE: note_text("tiebreak.pairing_bye", "pairing-allocated bye")(),
    Kind.FULL_BYE: note_text("tiebreak.full_bye", "full-point bye")(),
    Kind.HALF_BYE: note_text("tiebreak.half_bye", "half-point bye")(),
    Kind.ABSENT_NOTICE: note_text("tiebreak.zero_bye", "zero-point bye")(),
    Kind.ABSENT: note_text("tiebreak.absent", "absent")(),
    Kind.CLUB_MATCH: note_text("tiebreak.club_match", "club match")(),
}


def unplayed_label(record: RoundRecord) -> Note:
    """A short name for a round without an over-the-board game."""
    if record.kind is Kind.FORFEIT:
        return _FORFEIT_WIN if points(record) >= 1 else _FORFEIT_LOSS if points(record) == 0 else _FORFEIT_DRAW
    return _UNPLAYED.get(record.kind, GAME)
