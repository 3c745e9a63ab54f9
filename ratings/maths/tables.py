"""Conversion tables and rounding shared by the rating systems.

- `DSU_TABLE_1` / `DSU_TABLE_2`: seed 004 §4.5.7, Tabel 1 (expected score) and Tabel 2 (rating difference).
- `FIDE_TABLE_812` / `FIDE_TABLE_811`: FIDE Rating Regulations 2024 tables 8.1.2 and 8.1.1
  (reference/ratings.md §2, §3).

The DSU and FIDE tables are nearly the same; they differ in two places, both kept as printed:
Tabel 1 has the band 329-342 for .88 where FIDE has 329-344, and Tabel 2 has .09 -> -384 where
FIDE has -383.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction


def round_half_up(value: Fraction | int, step: Fraction | int = 1) -> Fraction:
    """Round to the nearest multiple of `step`, halves upwards (seed 004 §26 notes, §4.7.4)."""
    return Fraction(math.floor(Fraction(value) / step + Fraction(1, 2))) * step


def round_half_away(value: Fraction | int) -> int:
    """Round to the nearest integer, halves away from zero (FIDE 8.3, reference/ratings.md §4)."""
    value = Fraction(value)
    magnitude = math.floor(abs(value) + Fraction(1, 2))
    return magnitude if value >= 0 else -magnitude


def average(values: Sequence[int | Fraction]) -> int:
    """Average rounded to the nearest integer, 0.5 upwards (seed 004 §26 notes, §4.7.4)."""
    if not values:
        raise ValueError("average of no ratings")
    return int(round_half_up(Fraction(sum(values), len(values))))


@dataclass(frozen=True)
class ExpectationTable:
    """Rating difference D -> expected score of the higher-rated player, in bands.

    `upper_bounds[i]` is the highest D with expected score (50 + i) / 100; any larger D gives 1.
    """

    name: str
    upper_bounds: tuple[int, ...]

    def expected(self, difference: int) -> Fraction:
        """Expected score P(D) of the player whose rating exceeds the opponent's by D (D may be < 0)."""
        if difference < 0:
            return 1 - self.expected(-difference)
        for i, bound in enumerate(self.upper_bounds):
            if difference <= bound:
                return Fraction(50 + i, 100)
        return Fraction(1)


@dataclass(frozen=True)
class DifferenceTable:
    """Fractional score p (two decimals) -> rating difference D(p); None where the table has none."""

    name: str
    values: dict[int, int | None]  # keyed by p in hundredths, 0..100

    def difference(self, p: Fraction) -> int | None:
        """D(p) with p first rounded to two decimals, halves up (reference/ratings.md §3)."""
        if not 0 <= p <= 1:
            raise ValueError(f"fractional score out of range: {p}")
        return self.values[int(round_half_up(p * 100))]


_BOUNDS_COMMON_LOW = (
    3,
    10,
    17,
    25,
    32,
    39,
    46,
    53,
    61,
    68,
    76,
    83,
    91,
    98,
    106,
    113,
    121,
    129,
    137,
    145,
    153,
    162,
    170,
    179,
    188,
    197,
    206,
    215,
    225,
    235,
    245,
    256,
    267,
    278,
    290,
    302,
    315,
    328,
)
_BOUNDS_COMMON_HIGH = (357, 374, 391, 411, 432, 456, 484, 517, 559, 619, 735)

DSU_TABLE_1 = ExpectationTable("DSU Tabel 1", _BOUNDS_COMMON_LOW + (342,) + _BOUNDS_COMMON_HIGH)
FIDE_TABLE_812 = ExpectationTable("FIDE 8.1.2", _BOUNDS_COMMON_LOW + (344,) + _BOUNDS_COMMON_HIGH)

# D(p) for p = .50 .. .99 (hundredths 50..99); the lower half is the mirror image.
_DP_UPPER = (
    0,
    7,
    14,
    21,
    29,
    36,
    43,
    50,
    57,
    65,
    72,
    80,
    87,
    95,
    102,
    110,
    117,
    125,
    133,
    141,
    149,
    158,
    166,
    175,
    184,
    193,
    202,
    211,
    220,
    230,
    240,
    251,
    262,
    273,
    284,
    296,
    309,
    322,
    336,
    351,
    366,
    383,
    401,
    422,
    444,
    470,
    501,
    538,
    589,
    677,
)


def _difference_values(at_zero: int | None, at_one: int | None) -> dict[int, int | None]:
    values: dict[int, int | None] = {}
    for i, dp in enumerate(_DP_UPPER):
        values[50 + i] = dp
        values[50 - i] = -dp
    values[100] = at_one
    values[0] = at_zero
    return values


# Tabel 2 prints "*" for 1.0 and has no row for 0; it prints -384 at .09.
DSU_TABLE_2 = DifferenceTable("DSU Tabel 2", {**_difference_values(None, None), 9: -384})
# FIDE 8.1.1: 1.0 and 0 are "notionally" +800 and -800.
FIDE_TABLE_811 = DifferenceTable("FIDE 8.1.1", _difference_values(-800, 800))
