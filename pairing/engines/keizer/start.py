"""The performance rating the Keizer ranking uses, and the start ranking (seed 003 §1.10).

`keizer_tpr` is the competition's TPR (seed 003 §2.1 "Rating": the KNSB
formulas, factor 400, base 10, "TPR limiet" 750): the shared logistic
performance (ratings.maths.knsb: average opponent rating + 400 log10(p / (1 - p))),
kept within the limit of the opponents' average; 0 % and 100 % give the
average minus / plus the limit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TypeVar

from ratings.maths.knsb import logistic_performance

T = TypeVar("T")


def keizer_tpr(opponents: list[int], score: float, limit: float = 750) -> float | None:
    """TPR of `score` points against opponents rated `opponents`; None without games."""
    if not opponents:
        return None
    average = sum(opponents) / len(opponents)
    tpr = logistic_performance(opponents, Fraction(score))
    if tpr is None:  # 0 % or 100 %
        return average - limit if score <= 0 else average + limit
    return min(max(tpr, average - limit), average + limit)


@dataclass(slots=True)
class StartEntry:
    """A member entering the competition, with last season's Keizer games.

    `last_season` holds (opponent rating, score) per game played in last
    season's Keizer competition; None for a newcomer or in the first season.
    """

    key: int | str
    name: str = ""
    rating: int = 0
    last_season: list[tuple[int, float]] | None = field(default=None)


@dataclass(frozen=True, slots=True)
class StartPlace:
    entry: StartEntry
    strength: float
    basis: str  # "TPR over n games" or "rating"


def start_strength(entry: StartEntry, min_games: int = 5, tpr_limit: float = 750) -> tuple[float, str]:
    """The number §1.10 ranks by: last season's TPR after `min_games` games, else the rating."""
    games = entry.last_season or []
    rated = [(opp, score) for opp, score in games if opp > 0]
    if len(games) >= min_games and rated:
        tpr = keizer_tpr([opp for opp, _ in rated], sum(score for _, score in rated), tpr_limit)
        if tpr is not None:
            return tpr, f"TPR over {len(games)} games"
    return float(entry.rating), "rating"


def start_ranking(entries: list[StartEntry], min_games: int = 5, tpr_limit: float = 750) -> list[StartPlace]:
    """The start ranking of seed 003 §1.10: strongest first.

    A newcomer (no last season) is slotted in by rating among the others'
    TPRs and ratings. Equal strengths: the higher rating, then the name.
    """
    places = [StartPlace(e, *start_strength(e, min_games, tpr_limit)) for e in entries]
    return sorted(places, key=lambda p: (-p.strength, -p.entry.rating, p.entry.name, str(p.entry.key)))


def strength_groups(ranked: list[T], groups: int = 3) -> list[list[T]]:
    """§1.10: equal groups by the start ranking; a remainder goes one each to the first groups."""
    size, extra = divmod(len(ranked), groups)
    result: list[list[T]] = []
    start = 0
    for g in range(groups):
        end = start + size + (1 if g < extra else 0)
        result.append(ranked[start:end])
        start = end
    return result
