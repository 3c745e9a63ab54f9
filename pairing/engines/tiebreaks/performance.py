"""Rating tables of FIDE B.02 §8.1 used by the rating-based tie-breaks (C.07 art. 10).

Table 8.1.1 (fractional score p -> rating difference dp) and table 8.1.2 (rating difference D ->
scoring probability PD), as /work/shared/reference/ratings.md §2-3 reproduces them. Probabilities are
kept in hundredths (integers) so that sums compare exactly.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from fractions import Fraction

# dp for p = 0.50, 0.51, ..., 1.00 (table 8.1.1); dp(1 - p) = -dp(p).
_DP_UPPER: tuple[int, ...] = (
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149, 158, 166,
    175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336, 351, 366, 383, 401,
    422, 444, 470, 501, 538, 589, 677, 800,
)  # fmt: skip

# Largest D of each PD step 0.50, 0.51, ..., 0.99 (table 8.1.2); above 735 PD is 1.00.
_PD_BOUNDS: tuple[int, ...] = (
    3, 10, 17, 25, 32, 39, 46, 53, 61, 68, 76, 83, 91, 98, 106, 113, 121, 129, 137, 145, 153, 162, 170,
    179, 188, 197, 206, 215, 225, 235, 245, 256, 267, 278, 290, 302, 315, 328, 344, 357, 374, 391, 411,
    432, 456, 484, 517, 559, 619, 735,
)  # fmt: skip


def round_half_up(x: Fraction | float) -> int:
    """Nearest integer, 0.5 upwards (C.07 art. 10: "rounded to the nearest integer")."""
    return int((Fraction(x) + Fraction(1, 2)).__floor__())


def dp(p: Fraction | float) -> int:
    """Table 8.1.1: the rating difference for a fractional score p, p rounded to 2 decimals first."""
    hundredths = round_half_up(Fraction(p) * 100)
    if not 0 <= hundredths <= 100:
        raise ValueError(f"fractional score out of range: {p}")
    if hundredths >= 50:
        return _DP_UPPER[hundredths - 50]
    return -_DP_UPPER[50 - hundredths]


def pd_hundredths(difference: int) -> int:
    """Table 8.1.2: the expected score (in hundredths) of a player `difference` points above his opponent."""
    step = 100 if abs(difference) > _PD_BOUNDS[-1] else 50 + bisect_left(_PD_BOUNDS, abs(difference))
    return step if difference >= 0 else 100 - step


def average_rating(ratings: Sequence[int]) -> int:
    """ARO (C.07 10.1): the mean rating, rounded to the nearest integer; 0 without ratings."""
    return round_half_up(Fraction(sum(ratings), len(ratings))) if ratings else 0


def performance_rating(ratings: Sequence[int], score: float) -> int:
    """TPR (C.07 10.2): ARO + dp(p), p = score / games rounded to two decimals; 0 without games."""
    if not ratings:
        return 0
    return average_rating(ratings) + dp(Fraction(score) / len(ratings))


def perfect_performance(ratings: Sequence[int], score: float) -> int:
    """PTP (C.07 10.3): the lowest rating R with sum of PD(R - Ri) >= score (table 8.1.2).

    A zero score gives the lowest opponent's rating - 800, a full score the highest + 800.
    """
    if not ratings:
        return 0
    target = round_half_up(Fraction(score) * 100)
    if target <= 0:
        return min(ratings) - 800
    if target >= 100 * len(ratings):
        return max(ratings) + 800
    lo, hi = min(ratings) - 800, max(ratings) + 800  # the sum is non-decreasing in R
    while lo < hi:
        mid = (lo + hi) // 2
        if sum(pd_hundredths(mid - r) for r in ratings) >= target:
            hi = mid
        else:
            lo = mid + 1
    return lo
