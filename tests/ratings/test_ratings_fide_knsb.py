"""FIDE and KNSB rating (reference/ratings.md §1-§8, with its §10 test vectors)."""

import math
import random
from datetime import date
from fractions import Fraction as F

import pytest

from ratings.maths import fide, knsb
from ratings.maths.fide import FideGame

BEFORE_OCT25 = date(2025, 1, 1)
AFTER_OCT25 = date(2025, 10, 1)


@pytest.mark.rule("B.02 8.1.2")
def test_reference_vectors_expected_score():
    edition = fide.fide_edition_for(BEFORE_OCT25)
    assert fide.expected_score(2000, 2000, edition) == F(1, 2)
    assert fide.expected_score(2100, 2000, edition) == F(64, 100)
    assert fide.expected_score(2400, 2000, edition) == F(92, 100)
    assert fide.expected_score(2736, 2000, fide.fide_edition_for(AFTER_OCT25)) == 1


@pytest.mark.rule("B.02 8.3.1")
def test_400_point_rule_by_date_and_rating():
    old, new = fide.fide_edition_for(BEFORE_OCT25), fide.fide_edition_for(AFTER_OCT25)
    assert fide.expected_score(2000, 1500, old) == F(92, 100)  # 500 counts as 400
    assert fide.expected_score(2000, 1500, new) == F(92, 100)  # below 2650: still capped
    assert fide.expected_score(1500, 2000, new) == F(8, 100)
    assert fide.expected_score(2700, 2000, old) == F(92, 100)
    assert fide.expected_score(2700, 2000, new) == F(99, 100)  # 2650+: the real difference
    assert fide.expected_score(2700, 2000, new, rapid_blitz=True) == F(92, 100)  # RB24: plain cap
    # the same game seen from the lower player: capped for him
    assert fide.expected_score(2000, 2700, new) == F(8, 100)
    assert fide.capped_difference(2649, 2000, new) == 400
    assert fide.capped_difference(2650, 2000, new) == 650


def test_rules_before_2024_are_refused():
    with pytest.raises(ValueError):
        fide.fide_edition_for(date(2024, 2, 29))


@pytest.mark.rule("B.02 8.3.3")
def test_k_factor():
    assert fide.k_factor(1800, completed_games=10) == 40
    assert fide.k_factor(1800, completed_games=30) == 20
    assert fide.k_factor(2250, completed_games=100, junior=True) == 40
    assert fide.k_factor(2300, completed_games=100, junior=True) == 20
    assert fide.k_factor(2350, completed_games=100, ever_2400=True) == 10
    assert fide.k_factor(2400, completed_games=100) == 10
    assert fide.k_factor(1800, completed_games=0, games_in_period=20) == 35  # 40 x 20 > 700
    assert fide.k_factor(1800, completed_games=50, games_in_period=35) == 20  # 20 x 35 = 700


@pytest.mark.rule("B.02 8.3")
def test_rating_change_rounds_halves_away_from_zero():
    # K 10: wins against 2400, 2400 and 2210 (PD .75): ΣΔR = 1.25 -> 12.5 -> 13
    win = [FideGame(2400, F(1)), FideGame(2400, F(1)), FideGame(2210, F(1))]
    assert fide.rating_change(2400, win, 10, BEFORE_OCT25).change == 13
    loss = [FideGame(2400, F(0)), FideGame(2400, F(0)), FideGame(2590, F(0))]
    assert fide.rating_change(2400, loss, 10, BEFORE_OCT25).change == -13


def test_rating_change_skips_unrated_and_unplayed():
    games = [FideGame(2000, F(1)), FideGame(None, F(1)), FideGame(2000, F(1), played=False)]
    change = fide.rating_change(2000, games, 20, BEFORE_OCT25)
    assert change.rated_games == 1 and change.change == 10


@pytest.mark.rule("B.02 RB")
def test_rapid_600_point_rule():
    game = FideGame(2000, F(0))
    assert fide.is_rated(game, 2650, rapid_blitz=False, day=date(2025, 1, 1))
    assert not fide.is_rated(game, 2650, rapid_blitz=True, day=date(2025, 1, 1))
    assert fide.is_rated(game, 2650, rapid_blitz=True, day=date(2024, 11, 30))
    assert fide.is_rated(game, 2599, rapid_blitz=True, day=date(2025, 1, 1))


@pytest.mark.rule("B.02 8.2")
def test_initial_rating_vector():
    result = fide.initial_rating([1600, 1700, 1800, 1900, 2000], F(3))
    assert result.opponents_average == 1800 and result.value == 1850 and result.published
    assert fide.initial_rating([1600, 1700, 1800, 1900], F(3)).value is None
    assert fide.initial_rating([2400] * 5, F(5)).value == 2200  # capped
    low = fide.initial_rating([1200] * 5, F(0))
    assert low.value == 1062 and not low.published  # (6000 + 3600) / 7 = 1371.4, p 1/7 = .14 -> -309


def test_tpr_and_ptp():
    assert fide.tournament_performance([2000, 2000], F(1)) == 2000
    assert fide.tournament_performance([2000, 2100, 2200], F(2)) == 2100 + 125
    assert fide.tournament_performance([2000], F(1)) == 2800
    assert fide.tournament_performance([], F(0)) is None
    assert fide.perfect_performance([2000, 2000], F(1)) == 1997  # PD(-3) is already .50
    assert fide.perfect_performance([1800, 2000], F(0)) == 1000
    assert fide.perfect_performance([1800, 2000], F(2)) == 2736  # PD(736) is the first 1.00


def test_ptp_is_the_smallest_rating_that_reaches_the_score():
    rng = random.Random(7)
    for _ in range(200):
        opponents = [rng.randint(1400, 2600) for _ in range(rng.randint(1, 9))]
        score = F(rng.randint(1, 2 * len(opponents) - 1), 2)
        r = fide.perfect_performance(opponents, score)

        def total(x, opponents=opponents):
            return sum(fide.FIDE_TABLE_812.expected(x - o) for o in opponents)

        assert total(r) >= score > total(r - 1)


def test_fide_zero_sum_within_400_with_equal_k():
    rng = random.Random(11)
    edition = fide.fide_edition_for(AFTER_OCT25)
    for _ in range(100):
        ratings = [rng.randint(1800, 2200) for _ in range(6)]
        total = F(0)
        for i, a in enumerate(ratings):
            for b in ratings[i + 1 :]:
                score = F(rng.choice((0, 1, 2)), 2)
                total += fide.game_change(a, FideGame(b, score), edition)
                total += fide.game_change(b, FideGame(a, 1 - score), edition)
        assert total == 0


def test_fide_not_zero_sum_beyond_400():
    edition = fide.fide_edition_for(AFTER_OCT25)
    gain = fide.game_change(2000, FideGame(1500, F(1)), edition)  # capped: 1 - .92
    loss = fide.game_change(1500, FideGame(2000, F(0)), edition)  # capped: 0 - .08
    assert gain + loss == 0  # both capped at 400 symmetrically
    gain = fide.game_change(2700, FideGame(2000, F(1)), edition)  # real: 1 - .99
    loss = fide.game_change(2000, FideGame(2700, F(0)), edition)  # capped: 0 - .08
    assert gain + loss == F(1, 100) - F(8, 100)


def test_knsb_logistic_expectation():
    assert knsb.expected_score(2000, 2000) == 0.5
    assert knsb.expected_score(2400, 2000) == pytest.approx(1 / 1.1)
    assert knsb.expected_score(2000, 2400) == pytest.approx(1 - 1 / 1.1)
    for a, b in ((1500, 1750), (2100, 1400), (1800, 1801)):
        assert knsb.expected_score(a, b) + knsb.expected_score(b, a) == pytest.approx(1)
    change = knsb.rating_change(2000, [(2000, F(1)), (2400, F(1, 2))], 20)
    assert change.change == pytest.approx(20 * (1.5 - 0.5 - 1 / 11))


def test_knsb_changes_are_zero_sum_with_equal_k():
    a, b = 1930, 2110
    total = knsb.rating_change(a, [(b, F(1, 2))], 25).change + knsb.rating_change(b, [(a, F(1, 2))], 25).change
    assert total == pytest.approx(0)


def test_logistic_performance():
    assert knsb.logistic_performance([2000, 2000], F(3, 2)) == pytest.approx(2000 + 400 * math.log10(3))
    assert knsb.logistic_performance([2000, 2000], F(2)) is None
    assert knsb.logistic_performance([1900, 2100], F(1)) == pytest.approx(2000)
