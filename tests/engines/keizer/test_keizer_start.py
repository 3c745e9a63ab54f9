"""The start ranking and strength groups of seed 003 §1.10, and the Keizer TPR (§2.1 "Rating")."""

import math

import pytest

from pairing.engines.keizer.start import StartEntry, keizer_tpr, start_ranking, start_strength, strength_groups


@pytest.mark.rule("003 2.1")
def test_tpr_without_games_is_undefined():
    assert keizer_tpr([], 0) is None


@pytest.mark.rule("003 2.1")
def test_tpr_is_the_logistic_performance():
    assert keizer_tpr([1800, 2000], 1) == pytest.approx(1900)
    assert keizer_tpr([1800] * 4, 3) == pytest.approx(1800 + 400 * math.log10(3))


@pytest.mark.rule("003 2.1")
def test_tpr_at_0_and_100_percent_and_within_the_limit():
    assert keizer_tpr([1800, 2000], 2) == 2650
    assert keizer_tpr([1800, 2000], 0) == 1150
    assert keizer_tpr([1800] * 200, 199) == 2550  # 400 log10(199) = 919 > 750
    assert keizer_tpr([1800] * 200, 199, limit=1000) == pytest.approx(1800 + 400 * math.log10(199))


def last_season(wins: int, games: int, opponent: int = 1800) -> list[tuple[int, float]]:
    return [(opponent, 1.0)] * wins + [(opponent, 0.0)] * (games - wins)


@pytest.mark.rule("003 1.10")
@pytest.mark.rule("003 2.1")
def test_section_1_10_tpr_after_five_games_rating_otherwise():
    assert start_strength(StartEntry(1, "five games", 1700, last_season(4, 5))) == (
        pytest.approx(1800 + 400 * math.log10(4)),
        "TPR over 5 games",
    )
    assert start_strength(StartEntry(2, "four games", 1700, last_season(3, 4))) == (1700, "rating")
    assert start_strength(StartEntry(3, "newcomer", 1650)) == (1650, "rating")
    assert start_strength(StartEntry(4, "six games", 1700, last_season(3, 6)), min_games=7) == (1700, "rating")


@pytest.mark.rule("003 1.10")
def test_section_1_10_start_ranking_slots_a_newcomer_by_rating():
    entries = [
        StartEntry("a", "Strong season", 1750, last_season(3, 6, 2000)),  # TPR 2000
        StartEntry("b", "Few games", 1950, last_season(1, 2)),  # rating 1950
        StartEntry("c", "Weak season", 2050, last_season(1, 6, 1800)),  # TPR 1800 - 400 log10(5) = 1520.4
        StartEntry("d", "Newcomer", 1900),
        StartEntry("e", "Also 1900", 1900, []),
    ]
    ranked = start_ranking(entries)
    assert [p.entry.key for p in ranked] == ["a", "b", "e", "d", "c"]  # 1900s: same rating, by name
    assert [p.basis for p in ranked] == ["TPR over 6 games", "rating", "rating", "rating", "TPR over 6 games"]


@pytest.mark.rule("003 1.10")
def test_section_1_10_three_equal_groups():
    ranked = start_ranking([StartEntry(i, f"P{i:02d}", 2000 - i) for i in range(1, 8)])
    groups = strength_groups(ranked)
    assert [[p.entry.key for p in g] for g in groups] == [[1, 2, 3], [4, 5], [6, 7]]
    assert [len(g) for g in strength_groups(ranked[:6])] == [2, 2, 2]
    assert [len(g) for g in strength_groups(ranked, groups=2)] == [4, 3]
