"""Transcription checks of the conversion tables (seed 004 §4.5.7, FIDE 8.1.1 / 8.1.2)."""

from fractions import Fraction
from statistics import NormalDist

import pytest

from ratings.maths.tables import (
    DSU_TABLE_1,
    DSU_TABLE_2,
    FIDE_TABLE_811,
    FIDE_TABLE_812,
    average,
    round_half_away,
    round_half_up,
)


def _normal(d: int) -> Fraction:
    return round_half_up(Fraction(NormalDist(0, 2000 / 7).cdf(d)).limit_denominator(10**9), Fraction(1, 100))


@pytest.mark.rule("B.02 8.1.2")
def test_fide_812_matches_normal_curve_except_where_the_reference_lists():
    # reference/ratings.md §2: all D in 0..799 agree with Φ(D / (2000/7)) except these.
    differing = {d for d in range(800) if FIDE_TABLE_812.expected(d) != _normal(d)}
    assert differing == {54, 343, 344, 358, 392, 620}


@pytest.mark.rule("004 4.5.7")
def test_dsu_table_1_differs_from_fide_only_at_343_and_344():
    assert {d for d in range(1000) if DSU_TABLE_1.expected(d) != FIDE_TABLE_812.expected(d)} == {343, 344}
    assert DSU_TABLE_1.expected(342) == Fraction(88, 100)
    assert DSU_TABLE_1.expected(343) == Fraction(89, 100)
    assert FIDE_TABLE_812.expected(344) == Fraction(88, 100)


@pytest.mark.rule("004 4.5.7")
def test_table_1_printed_rows():
    assert DSU_TABLE_1.expected(0) == Fraction(1, 2)
    assert DSU_TABLE_1.expected(3) == Fraction(1, 2)
    assert DSU_TABLE_1.expected(4) == Fraction(51, 100)
    assert DSU_TABLE_1.expected(735) == Fraction(99, 100)
    assert DSU_TABLE_1.expected(736) == 1
    assert DSU_TABLE_1.expected(-736) == 0
    assert DSU_TABLE_1.expected(-122) == Fraction(33, 100)


def test_expected_scores_of_a_game_sum_to_one():
    for table in (DSU_TABLE_1, FIDE_TABLE_812):
        for d in range(-900, 901):
            assert table.expected(d) + table.expected(-d) == 1


def test_expected_score_is_monotone():
    values = [DSU_TABLE_1.expected(d) for d in range(-800, 801)]
    assert values == sorted(values)


@pytest.mark.rule("004 4.5.7")
@pytest.mark.rule("B.02 8.1.1")
def test_table_2_differs_from_fide_only_at_009_and_the_ends():
    differing = {p for p in range(101) if DSU_TABLE_2.values[p] != FIDE_TABLE_811.values[p]}
    assert differing == {0, 9, 100}
    assert DSU_TABLE_2.difference(Fraction(9, 100)) == -384
    assert FIDE_TABLE_811.difference(Fraction(9, 100)) == -383
    assert DSU_TABLE_2.difference(Fraction(1)) is None
    assert FIDE_TABLE_811.difference(Fraction(1)) == 800
    assert FIDE_TABLE_811.difference(Fraction(0)) == -800


@pytest.mark.rule("004 4.5.7")
def test_table_2_rounds_p_to_two_decimals():
    assert DSU_TABLE_2.difference(Fraction(7, 9)) == 220  # .7778 -> .78
    assert DSU_TABLE_2.difference(Fraction(2, 3)) == 125  # .6667 -> .67
    assert DSU_TABLE_2.difference(Fraction(1, 8)) == -322  # .125 -> .13 (halves up)


def test_rounding_helpers():
    assert round_half_up(Fraction(333, 100), Fraction(1, 20)) == Fraction(335, 100)
    assert round_half_up(Fraction(382, 100), Fraction(1, 20)) == Fraction(380, 100)
    assert round_half_up(Fraction(5, 2)) == 3
    assert round_half_away(Fraction(25, 2)) == 13
    assert round_half_away(Fraction(-25, 2)) == -13
    assert round_half_away(Fraction(-12, 1)) == -12
    assert average([2000, 2001]) == 2001
    assert average([2000, 2000, 2001]) == 2000
