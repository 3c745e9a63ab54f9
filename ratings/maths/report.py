"""A per-player rating report for one event, computed from a plain list of games.

It gathers, for each player, the DSU calculation (seed 004 §4.5.2), the player's class (§23), the
candidate result (§26) and, when the caller gives the data, title norms (§4.7.4). The web side renders
these records; nothing here depends on it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction

from .dsu import DsuEvent, EventKind, Game, rate_event
from .titles import (
    CandidateRequirement,
    NormOpponent,
    NormResult,
    NormTitle,
    PlayerClass,
    QualifyingKind,
    candidate_requirement,
    candidate_result_during,
    norm_check,
    player_class,
)


@dataclass(frozen=True)
class ReportLine:
    """One player's line of the rating report."""

    player: str
    old_rating: int  # R_o (a performance rating when `provisional`)
    provisional: bool  # no rating before the event: R_o is the performance rating (§4.5.5.2)
    player_class: PlayerClass  # of R_o (§23)
    games: int  # rated games (§4.5.4.2)
    score: Fraction  # W
    expected: Fraction  # W_e (§4.5.2.1)
    method: str  # "average" or "difference"
    bonus: Fraction  # B (§4.5.2.2)
    bonus_extrapolated: bool  # more games than the table of §4.5.2.2: B rests on an extrapolation
    k: int  # K (§4.5.2.3)
    winner_corrected: bool  # §4.5.2.5 applied
    new_rating: int | None  # None for a provisional player
    change: int | None
    candidate: CandidateRequirement | None  # what §26 required (None: not a qualifying event or below 1900)
    candidate_round: int | None  # the round after which the candidate result was reached (§26), or None
    norms: tuple[NormResult, ...]  # the norm checks asked for (§4.7.4)

    @property
    def candidate_result(self) -> bool:
        return self.candidate_round is not None


def rating_report(
    games: Sequence[Game],
    ratings: Mapping[str, int | None],
    kind: EventKind = EventKind.INDIVIDUAL,
    all_play_all: bool = False,
    day: date = date.min,
    qualifying: QualifyingKind | None = None,
    norm_players: Mapping[str, NormOpponent] | None = None,
    norm_titles: Sequence[NormTitle] = (),
    norms_for: Collection[str] | None = None,
) -> list[ReportLine]:
    """The report of an event: one line per player who has a rating or got a performance rating.

    `qualifying` says which kind of §26 qualifying event this is (None: not one). With `norm_players`
    (rating, federation and title of every player) each player's played games are checked for the
    `norm_titles`; with `norms_for`, only those players' (the others' lines have no norms). Lines are
    ordered by new rating, then old rating, highest first, then by name.
    """
    event = DsuEvent(tuple(games), ratings, kind, all_play_all, day=day)
    result = rate_event(event)
    games_of: dict[str, list[Game]] = defaultdict(list)
    for g in games:
        if g.played:
            games_of[g.white].append(g)
            games_of[g.black].append(g)
    lines: list[ReportLine] = []
    for player, line in result.players.items():
        candidate = None
        candidate_round = None
        if qualifying is not None and line.games >= 5:
            candidate = candidate_requirement(line.old_rating, [r for r, _ in line.results])
            candidate_round = candidate_result_during(line.old_rating, line.results, qualifying)
        norms: tuple[NormResult, ...] = ()
        if norm_players is not None and norm_titles and (norms_for is None or player in norms_for):
            played = games_of[player]
            opponents = [norm_players[g.opponent_of(player)] for g in played]
            score = sum((g.score_of(player) for g in played), Fraction(0))
            norms = tuple(norm_check(norm_players[player].federation, opponents, score, t) for t in norm_titles)
        lines.append(
            ReportLine(
                player=player,
                old_rating=line.old_rating,
                provisional=line.provisional,
                player_class=player_class(line.old_rating),
                games=line.games,
                score=line.score,
                expected=line.expected,
                method=line.method,
                bonus=line.bonus,
                bonus_extrapolated=line.bonus_extrapolated,
                k=line.k,
                winner_corrected=line.winner_corrected,
                new_rating=line.new_rating,
                change=line.change,
                candidate=candidate,
                candidate_round=candidate_round,
                norms=norms,
            )
        )
    lines.sort(key=lambda x: (-(x.new_rating or x.old_rating), -x.old_rating, x.player))
    return lines
