"""KNSB (Royal Dutch Chess Federation) rating, as far as reference/ratings.md §8 confirms it.

Expected score by the logistic function W_e = 1 / (1 + 10^((R_c - R_o) / 400)) and change
K x (W - W_e). The KNSB's K table is not confirmed by the reference, so K is always the caller's.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction


def expected_score(own: float, opponent: float) -> float:
    """W_e = 1 / (1 + 10^((R_c - R_o) / 400)) (reference/ratings.md §8)."""
    return 1 / (1 + 10 ** ((opponent - own) / 400))


@dataclass(frozen=True)
class KnsbChange:
    """A player's KNSB change over an event (unrounded: the KNSB rounding is not confirmed)."""

    games: int
    score: Fraction
    expected: float
    k: float
    change: float


def rating_change(own: float, games: Sequence[tuple[float, Fraction]], k: float) -> KnsbChange:
    """K x Σ(W - W_e) over (opponent rating, score) pairs (reference/ratings.md §8)."""
    score = sum((Fraction(s) for _, s in games), Fraction(0))
    expected = sum(expected_score(own, opponent) for opponent, _ in games)
    return KnsbChange(len(games), score, expected, k, k * (float(score) - expected))


def logistic_performance(opponent_ratings: Sequence[float], score: Fraction) -> float | None:
    """The logistic TPR some club tools use: R_a + 400 log10(p / (1 - p)) (reference/ratings.md §7).

    R_a is the plain opponents' average. Undefined (None) at 0 % and 100 %.
    """
    if not opponent_ratings:
        return None
    p = Fraction(score) / len(opponent_ratings)
    if p <= 0 or p >= 1:
        return None
    return sum(opponent_ratings) / len(opponent_ratings) + 400 * math.log10(p / (1 - p))
