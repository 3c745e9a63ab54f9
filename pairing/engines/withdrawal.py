"""Leaving a tournament (seed 004 §16), and which games stay rated (§4.5.4.2).

Round robin ("alle-mod-alle-gruppe"):
- the leaver completed less than 50 % of his games: his results stay in the
  table, but the points scored by him or against him do not count in the
  final standings;
- 50 % or more: his results count, and each game he did not play scores 0
  for him and 1 for his opponent.
Other systems: he leaves the pairing; his score stays and counts. (Players
who get a bye because of him score 1: `BYE_POINTS`, the pairing bye.)

Rating (§4.5.4.2): every game played over the board is rated, struck or not;
a game not played is rated only when the player stayed away without approved
notice (`notice=False`), and then as a loss.

"Completed" games are those decided before he left in which he took part:
played over the board, or won by forfeit.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .notes import Note, note_text
from .roundrobin import rounds_per_cycle, schedule
from .state import Colour, InvalidInput, Kind, TournamentState

_LEAVES = note_text(
    "withdrawal.leaves", "%(player)s leaves the pairing after round %(round)s; his score stays and counts (§16)."
)
_STRUCK = note_text(
    "withdrawal.struck",
    "%(player)s left after round %(round)s having completed %(completed)s of %(scheduled)s games: under 50 %%, "
    "his results are struck from the final standings (§16).",
)
_REMAINING_LOST = note_text(
    "withdrawal.remaining_lost",
    "%(player)s left after round %(round)s having completed %(completed)s of %(scheduled)s games: 50 %% or more, "
    "his results count and his remaining games are lost (§16).",
)
_NOT_RATED = note_text(
    "withdrawal.not_rated", "Played games stay rated; unplayed games are not rated (left with notice)."
)
_RATED_AS_LOSSES = note_text(
    "withdrawal.rated_as_losses",
    "Played games stay rated; unplayed games are rated as losses (no approved notice, §4.5.4.2).",
)


@dataclass(frozen=True, slots=True)
class Result:
    """One game (or forfeit) as the final standings and the rating see it."""

    round: int
    white: int
    black: int
    white_score: float
    black_score: float
    played: bool  # over the board
    counts: bool = True  # in the final standings (§16)
    rated: bool = True  # §4.5.4.2
    added: bool = False  # a game the leaver did not play, scored by §16

    def score(self, player: int) -> float:
        return self.white_score if player == self.white else self.black_score

    def involves(self, player: int) -> bool:
        return player in (self.white, self.black)


@dataclass(slots=True)
class Withdrawal:
    player: int
    round_robin: bool
    left_after: int  # the last round he took part in
    completed: int
    scheduled: int  # his games in the whole round robin (0 in other systems)
    rule: str  # "struck", "remaining-lost" or "leaves-pairing"
    results: list[Result]
    bye_points: dict[int, float]  # points from rounds without a game (byes), unchanged
    explanation: list[Note] = field(default_factory=list)

    @property
    def ranked(self) -> bool:
        """False when his results are struck: he has no place in the final standings."""
        return self.rule != "struck"

    def standing_points(self) -> dict[int, float]:
        """Points each ranked player has in the final standings."""
        points = dict(self.bye_points)
        for r in self.results:
            if r.counts:
                points[r.white] = points.get(r.white, 0.0) + r.white_score
                points[r.black] = points.get(r.black, 0.0) + r.black_score
        if not self.ranked:
            points.pop(self.player, None)
        return points

    def rated_games(self) -> list[Result]:
        return [r for r in self.results if r.rated]


def _results(state: TournamentState) -> tuple[list[Result], dict[tuple[int, int], float]]:
    """Every game and forfeit of the state, once each, and the points of
    rounds without a game by (player, round)."""
    results: dict[tuple[int, int, int], Result] = {}
    byes: dict[tuple[int, int], float] = {}
    for p in state.players:
        for rnd, rec in enumerate(p.history, start=1):
            if not rec.paired or not rec.opponent:
                byes[p.id, rnd] = rec.score or 0.0
                continue
            key = (rnd, *sorted((p.id, rec.opponent)))
            if key in results:
                continue
            other = state.player(rec.opponent)
            theirs = other.history[rnd - 1] if len(other.history) >= rnd else None
            own = rec.score or 0.0
            their_score = (theirs.score or 0.0) if theirs is not None else 1.0 - own
            white_first = rec.colour is Colour.WHITE or (rec.colour is None and p.id < rec.opponent)
            w, b = (p.id, rec.opponent) if white_first else (rec.opponent, p.id)
            ws, bs = (own, their_score) if white_first else (their_score, own)
            results[key] = Result(rnd, w, b, ws, bs, played=rec.kind is Kind.GAME, rated=rec.kind is Kind.GAME)
    return sorted(results.values(), key=lambda r: (r.round, r.white)), byes


def _completed(results: list[Result], player: int, left_after: int) -> int:
    return sum(
        1 for r in results if r.involves(player) and r.round <= left_after and (r.played or r.score(player) == 1.0)
    )


def leave(
    state: TournamentState,
    player: int,
    round_robin: bool,
    left_after: int | None = None,
    notice: bool = True,
) -> Withdrawal:
    """The results after `player` leaves the tournament (seed 004 §16).

    `left_after` is the last round he took part in (default: the last round
    he played over the board); `notice` whether he left with approved notice.
    A round robin's start numbers run 1..n and its cycles follow from
    `state.total_rounds` (roundrobin.schedule).
    """
    leaver = state.player(player)
    if left_after is None:
        left_after = max((i for i, r in enumerate(leaver.history, start=1) if r.played), default=0)
    results, byes = _results(state)
    if not round_robin:
        return Withdrawal(
            player,
            False,
            left_after,
            _completed(results, player, left_after),
            0,
            "leaves-pairing",
            results,
            _by_player(byes, state),
            [_LEAVES(player=player, round=left_after)],
        )
    n = len(state.players)
    if sorted(p.id for p in state.players) != list(range(1, n + 1)):
        raise InvalidInput("round robin start numbers must run 1..n without gaps")
    cycles = max(1, state.total_rounds // rounds_per_cycle(n))
    scheduled = (n - 1) * cycles
    # What happens after he left is decided here, not by the records.
    results = [r for r in results if not (r.involves(player) and r.round > left_after)]
    completed = _completed(results, player, left_after)
    struck = 2 * completed < scheduled
    rule = "struck" if struck else "remaining-lost"
    for rnd, pairs in enumerate(schedule(n, cycles), start=1):
        if rnd <= left_after:
            continue
        for white, black in pairs:
            if player in (white, black) and black:
                ws = 0.0 if white == player else 1.0
                lost = Result(rnd, white, black, ws, 1.0 - ws, played=False, rated=not notice, added=True)
                if not struck or not notice:
                    results.append(lost)
                byes.pop((white + black - player, rnd), None)  # the game replaces a recorded bye
    if struck:
        results = [replace(r, counts=False) if r.involves(player) else r for r in results]
    results.sort(key=lambda r: (r.round, r.white))
    left = _STRUCK if struck else _REMAINING_LOST
    explanation = [
        left(player=player, round=left_after, completed=completed, scheduled=scheduled),
        _NOT_RATED() if notice else _RATED_AS_LOSSES(),
    ]
    return Withdrawal(
        player, True, left_after, completed, scheduled, rule, results, _by_player(byes, state), explanation
    )


def _by_player(byes: dict[tuple[int, int], float], state: TournamentState) -> dict[int, float]:
    points = {p.id: 0.0 for p in state.players}
    for (player, _rnd), score in byes.items():
        points[player] += score
    return points
