"""DSU rating system, seed 004 §4.5: the seed's worked figures and hand-computed cases."""

import random
from dataclasses import replace
from datetime import date
from fractions import Fraction as F

import pytest

from ratings.maths import dsu
from ratings.maths.dsu import (
    SEED_EDITION,
    Alignment,
    AlignmentPlayer,
    DsuEvent,
    EventKind,
    Game,
    apply_floor,
    bonus,
    correct_band_crossing,
    dsu_edition_for,
    elo_alignment,
    expected_average_method,
    expected_difference_method,
    is_rated_game,
    performance_rating,
    provisional_ratings,
    rate_event,
    rate_in_order,
    rated_games,
    register_gain,
    round_expected,
    whole_event_no_shows,
)

# Tabel 3 and Tabel 4 (§4.5.7): (from, to, over, under) for 6- and 8-player groups.
TABLE_3 = [
    (0, 3, "2.50", "2.50"),
    (4, 10, "2.55", "2.45"),
    (11, 17, "2.60", "2.40"),
    (18, 25, "2.70", "2.30"),
    (26, 32, "2.75", "2.25"),
    (33, 39, "2.80", "2.20"),
    (40, 46, "2.85", "2.15"),
    (47, 53, "2.90", "2.10"),
    (54, 61, "3.00", "2.00"),
    (62, 68, "3.05", "1.95"),
    (69, 76, "3.10", "1.90"),
    (77, 83, "3.15", "1.85"),
    (84, 91, "3.20", "1.80"),
    (92, 98, "3.30", "1.70"),
    (99, 106, "3.35", "1.65"),
    (107, 113, "3.40", "1.60"),
    (114, 121, "3.45", "1.55"),
    (122, 129, "3.50", "1.50"),
    (130, 137, "3.60", "1.40"),
    (138, 145, "3.65", "1.35"),
    (146, 153, "3.70", "1.30"),
    (154, 162, "3.75", "1.25"),
    (163, 170, "3.80", "1.20"),
]
TABLE_4 = [
    (0, 3, "3.50", "3.50"),
    (4, 10, "3.60", "3.40"),
    (11, 17, "3.65", "3.35"),
    (18, 25, "3.75", "3.25"),
    (26, 32, "3.80", "3.20"),
    (33, 39, "3.90", "3.10"),
    (40, 46, "4.00", "3.00"),
    (47, 53, "4.05", "2.95"),
    (54, 61, "4.15", "2.85"),
    (62, 68, "4.20", "2.80"),
    (69, 76, "4.30", "2.70"),
    (77, 83, "4.40", "2.60"),
    (84, 91, "4.45", "2.55"),
    (92, 98, "4.55", "2.45"),
    (99, 106, "4.60", "2.40"),
    (107, 113, "4.70", "2.30"),
    (114, 121, "4.80", "2.20"),
    (122, 129, "4.85", "2.15"),
    (130, 137, "4.95", "2.05"),
    (138, 145, "5.00", "2.00"),
    (146, 153, "5.10", "1.90"),
    (154, 162, "5.20", "1.80"),
    (163, 170, "5.25", "1.75"),
    (171, 179, "5.35", "1.65"),
]


@pytest.mark.rule("004 4.5.7")
@pytest.mark.rule("004 4.5.2.1")
@pytest.mark.parametrize("size,table", [(6, TABLE_3), (8, TABLE_4)])
def test_tables_3_and_4_follow_the_average_method(size, table):
    avg = 2000
    for low, high, over, under in table:
        for d in (low, high):
            assert expected_average_method(avg + d, avg, size) == F(over), (size, d)
            assert expected_average_method(avg - d, avg, size) == F(under), (size, d)


@pytest.mark.rule("004 4.5.2.1")
def test_rounding_examples_of_4521():
    assert round_expected(F("3.33")) == F("3.35")
    assert round_expected(F("3.82")) == F("3.80")
    assert round_expected(F("3.72")) == F("3.70")


@pytest.mark.rule("004 4.5.2.1")
def test_difference_method_sums_table_1_and_rounds():
    # 1800 against 1700 (.64), 1800 (.50), 1900 (.36), 2000 (.24): 1.74 -> 1.75
    assert expected_difference_method(1800, [1700, 1800, 1900, 2000]) == F("1.75")
    # 1650 against 1600 (.57) and 1640 (.51): 1.08 -> 1.10
    assert expected_difference_method(1650, [1600, 1640]) == F("1.10")


@pytest.mark.rule("004 4.5.2.1")
def test_average_method_only_for_all_play_all_within_200():
    assert dsu.average_method_applies(True, [1800, 1900, 2000])
    assert not dsu.average_method_applies(True, [1800, 1900, 2001])
    assert not dsu.average_method_applies(False, [1800, 1900])


@pytest.mark.rule("004 4.5.2.2")
def test_bonus_thresholds_by_number_of_games():
    assert [SEED_EDITION.bonus_threshold(n) for n in range(1, 14)] == [F(3, 2)] * 5 + [F(2)] * 2 + [F(5, 2)] * 2 + [
        F(3)
    ] * 2 + [F(7, 2)] * 2
    assert bonus(F(5), F("1.60"), 5) == F("1.90")
    assert bonus(F(5), F("1.60"), 6) == F("1.40")
    assert bonus(F(4), F("2.50"), 5) == 0  # exactly the threshold: not positive
    assert bonus(F(1), F("2.50"), 5) == 0


@pytest.mark.rule("004 4.5.2.3")
def test_k_by_band():
    k = SEED_EDITION.k_factor
    assert [k(2400), k(2399), k(2000), k(1999), k(1600), k(1599), k(1000)] == [10, 20, 20, 30, 30, 45, 45]


@pytest.mark.rule("004 4.5.2.4")
@pytest.mark.parametrize(
    "old,new,corrected",
    [
        (2390, 2410, 2405),  # up through 2400: 2400 + ½ x 10
        (2405, 2395, 2390),  # down through 2400: 2400 - 2 x 5
        (1990, 2012, 2008),  # up through 2000: 2000 + ⅔ x 12
        (2005, 1990, 1985),  # down through 2000: 2000 - 3/2 x 10
        (1590, 1615, 1610),  # up through 1600: 1600 + ⅔ x 15
        (1610, 1590, 1585),  # down through 1600: 1600 - 3/2 x 10
        (2000, 1996, 1994),  # from the limit itself (K 20 band) downwards
        (1998, 2000, 2000),  # reaching the limit: nothing beyond it
        (1700, 1800, 1800),  # no limit crossed
        (2450, 2410, 2410),
    ],
)
def test_band_crossing_each_limit_both_ways(old, new, corrected):
    assert correct_band_crossing(old, new) == corrected


@pytest.mark.rule("004 4.5.2.4")
def test_band_crossing_two_limits_applies_limit_after_limit():
    # 1590 -> 2300: 1600 + ⅔ x 700 = 2066⅔, then 2000 + ⅔ x 66⅔ = 2044 4/9
    assert correct_band_crossing(1590, 2300) == 2000 + F(2, 3) * (1600 + F(2, 3) * 700 - 2000)
    assert correct_band_crossing(1590, 2300) == F(18400, 9)
    # 2410 -> 1950: 2400 - 2 x 450 = 1500, then 2000 - 3/2 x 500 = 1250, then 1600 - 3/2 x 350 = 1075
    assert correct_band_crossing(2410, 1950) == 1075


@pytest.mark.rule("004 4.5.2.6")
def test_floor():
    assert apply_floor(942) == 1000
    assert apply_floor(1001) == 1001
    assert register_gain(1010, F(-60)) == 1000


@pytest.mark.rule("004 4.5.2")
def test_register_gain_rounds_halves_up():
    assert register_gain(1900, F(27, 2)) == 1914
    assert register_gain(1900, F(-27, 2)) == 1887  # 1886.5 -> 1887


def _rr(results: dict[tuple[str, str], F]) -> tuple[Game, ...]:
    return tuple(Game(w, b, s, round=i + 1) for i, ((w, b), s) in enumerate(results.items()))


@pytest.mark.rule("004 4.5.2")
def test_event_by_the_average_method():
    ratings = {"A": 1850, "B": 1800, "C": 1750, "D": 1700}
    games = _rr(
        {
            ("A", "B"): F(1),
            ("A", "C"): F(1),
            ("A", "D"): F(1),
            ("B", "C"): F(1),
            ("B", "D"): F(1),
            ("C", "D"): F(1),
        }
    )
    result = rate_event(DsuEvent(games, ratings, all_play_all=True))
    assert result.group_average == 1775
    lines = result.players
    assert [lines[p].expected for p in "ABCD"] == [F("1.90"), F("1.60"), F("1.40"), F("1.10")]
    assert [lines[p].new_rating for p in "ABCD"] == [1883, 1812, 1738, 1667]
    assert all(lines[p].method == "average" for p in "ABCD")


@pytest.mark.rule("004 4.5.2.5")
def test_winners_correction_for_a_shared_first_place():
    ratings = {"A": 2000, "B": 1900, "C": 1850, "D": 1820}
    half = F(1, 2)
    games = _rr(
        {
            ("A", "B"): half,
            ("A", "C"): half,
            ("A", "D"): F(1),
            ("B", "C"): F(1),
            ("B", "D"): half,
            ("C", "D"): F(1),
        }
    )
    lines = rate_event(DsuEvent(games, ratings, all_play_all=True)).players
    # average 1892.5 -> 1893; A: D = 107 -> .65 -> 4 x .65 - ½ = 2.10 > W = 2
    assert lines["A"].expected == F("2.10")
    assert lines["A"].winner_corrected
    assert lines["A"].gain == 0 and lines["A"].new_rating == 2000
    # B shares first place but scored above expectation: normal gain 30 x (2 - 1.55) = 13.5
    assert not lines["B"].winner_corrected
    assert lines["B"].new_rating == 1914
    assert lines["C"].new_rating == 1858  # 30 x (1.5 - 1.25)
    assert lines["D"].new_rating == 1802  # 30 x (0.5 - 1.10)


@pytest.mark.rule("004 4.5.2.5")
def test_without_the_winners_correction_the_winner_would_lose_and_cross_2000():
    ratings = {"A": 2000, "B": 1900, "C": 1850, "D": 1820}
    half = F(1, 2)
    games = _rr(
        {
            ("A", "B"): half,
            ("A", "C"): half,
            ("A", "D"): F(1),
            ("B", "C"): F(1),
            ("B", "D"): half,
            ("C", "D"): F(1),
        }
    )
    lines = rate_event(DsuEvent(games, ratings, all_play_all=True, winners=frozenset({"B"}))).players
    assert lines["A"].new_rating == 1997  # 2000 - 20 x 0.1 = 1998, below 2000: 2000 - 3/2 x 2


@pytest.mark.rule("004 4.5.2.6")
@pytest.mark.rule("004 4.5.2.4")
def test_crossing_inside_an_event_and_the_floor():
    ratings = {"A": 1995, "B": 1995, "C": 1995, "L": 1010, "M": 1010, "N": 1030}
    games = (Game("A", "B", F(1)), Game("A", "C", F(1)), Game("L", "M", F(0)), Game("L", "N", F(0)))
    lines = rate_event(DsuEvent(games, ratings)).players
    # A: 2 - 1.00 = 1, K 30 -> 2025, crossing 2000: 2000 + ⅔ x 25 = 2016.67 -> 2017
    assert lines["A"].gain == 30 and lines["A"].new_rating == 2017
    # L: expected .50 + .47 = .97 -> .95, K 45 x -0.95 = -42.75 -> 967.25 -> floor 1000
    assert lines["L"].expected == F("0.95") and lines["L"].new_rating == 1000


@pytest.mark.rule("004 4.5.4.2")
def test_rated_games_rules_4542():
    played = Game("A", "B", F(1))
    reserve = Game("A", "B", F(1), reserve_after_half_hour=True)
    no_show = Game("A", "B", F(1), played=False, no_show="B")
    with_notice = Game("A", "B", F(1), played=False)
    assert is_rated_game(played, EventKind.INDIVIDUAL)
    assert is_rated_game(played, EventKind.DIVISION)
    assert not is_rated_game(reserve, EventKind.DIVISION)
    assert not is_rated_game(reserve, EventKind.RATED_TEAM)
    assert is_rated_game(no_show, EventKind.INDIVIDUAL)
    assert not is_rated_game(no_show, EventKind.DIVISION)
    assert not is_rated_game(no_show, EventKind.RATED_TEAM)
    assert not is_rated_game(with_notice, EventKind.INDIVIDUAL)


@pytest.mark.rule("004 4.5.4.2")
def test_absent_from_the_whole_event_is_not_rated():
    games = [
        Game("A", "X", F(1), played=False, no_show="X", round=1),
        Game("X", "B", F(0), played=False, no_show="X", round=2),
        Game("A", "B", F(1, 2), round=3),
        Game("B", "Y", F(1), played=False, no_show="Y", round=4),
        Game("Y", "A", F(1), round=5),
    ]
    assert whole_event_no_shows(games) == {"X"}
    assert rated_games(games, EventKind.INDIVIDUAL) == games[2:]


@pytest.mark.rule("004 4.5.4.2")
@pytest.mark.rule("004 4.5.2.1")
def test_unrated_game_changes_expected_score_by_the_group_method():
    ratings = {"A": 1800, "B": 1800, "C": 1800, "D": 1800}
    games = _rr({("A", "B"): F(1), ("A", "C"): F(1), ("B", "C"): F(1), ("B", "D"): F(1), ("C", "D"): F(1)})
    games += (Game("A", "D", F(1), played=False),)  # D excused: not rated
    lines = rate_event(DsuEvent(games, ratings, all_play_all=True)).players
    assert lines["A"].games == 2 and lines["A"].expected == F("1.00")  # (2 + 1) x .5 - ½
    assert lines["B"].games == 3 and lines["B"].expected == F("1.50")  # 4 x .5 - ½


@pytest.mark.rule("004 4.5.5.2")
@pytest.mark.rule("004 4.5.5")
def test_performance_rating_4552():
    assert performance_rating([1800, 1600], F(3, 2)) == 1700 + 193
    assert performance_rating([1800, 1600], F(2)) is None  # Tabel 2: "*"
    assert performance_rating([1800, 1600], F(0)) is None
    assert performance_rating([], F(0)) is None


def _two_unrated_games():
    return (
        Game("X", "A", F(1)),
        Game("X", "B", F(1, 2)),
        Game("X", "Y", F(1)),
        Game("Y", "A", F(1, 2)),
        Game("Y", "B", F(1)),
    )


@pytest.mark.rule("004 4.5.5.2")
def test_repeated_passes_until_stable():
    ratings = {"A": 1800, "B": 1600, "X": None, "Y": None}
    result = provisional_ratings(_two_unrated_games(), ratings)
    # hand-computed passes: (1893, 1893), (2037, 1764), (1994, 1812), (2010, 1798), (2006, 1803),
    # (2007, 1802), (2007, 1802)
    assert result.ratings == {"X": 2007, "Y": 1802}
    assert result.stable and result.passes == 7
    # a fixed point: one more pass from the result changes nothing
    assert performance_rating([1800, 1600, 1802], F(5, 2)) == 2007
    assert performance_rating([1800, 1600, 2007], F(3, 2)) == 1802


def test_passes_stopped_early_are_reported_unstable():
    ratings = {"A": 1800, "B": 1600, "X": None, "Y": None}
    result = provisional_ratings(_two_unrated_games(), ratings, max_passes=2)
    assert not result.stable and result.ratings == {"X": 2037, "Y": 1764}


def _cycling_games():
    return (Game("A", "C", F(1, 2)), Game("B", "D", F(1, 2)), Game("C", "D", F(1)))


def test_passes_that_cycle_end_on_the_cycle_average():
    ratings = {"A": 1700, "B": 1500, "C": None, "D": None}
    # passes (C, D): (1700, 1500), (1793, 1407), (1747, 1454), (1770, 1431), (1759, 1442),
    # (1764, 1437), (1762, 1439), (1763, 1438), (1762, 1439) = pass 7: a cycle of two
    result = provisional_ratings(_cycling_games(), ratings)
    assert not result.stable and result.cycle == 2 and result.passes == 9
    assert result.ratings == {"C": 1763, "D": 1439}  # 1762.5 -> 1763, 1438.5 -> 1439


def test_passes_with_a_tolerance():
    ratings = {"A": 1700, "B": 1500, "C": None, "D": None}
    result = provisional_ratings(_cycling_games(), ratings, tolerance=1)
    assert result.stable and result.passes == 8 and result.ratings == {"C": 1763, "D": 1438}


@pytest.mark.rule("004 4.5.5.1")
def test_provisional_ratings_are_used_for_the_opponents():
    ratings = {"A": 1800, "B": 1600, "X": None, "Y": None}
    lines = rate_event(DsuEvent(_two_unrated_games(), ratings)).players
    assert lines["X"].provisional and lines["X"].old_rating == 2007 and lines["X"].new_rating is None
    # A lost to X (2007: .23) and drew Y (1802: .50): W .5, We .73 -> .75, K 30 -> -7.5
    assert lines["A"].expected == F("0.75") and lines["A"].new_rating == 1793  # 1792.5 -> 1793


@pytest.mark.rule("004 4.5.4.1")
@pytest.mark.rule("004 4.5.4")
def test_chronological_order_with_a_start_rating_sent_early():
    first = DsuEvent((Game("A", "B", F(1)),), {"A": None, "B": None}, day=date(2020, 1, 10))
    second = DsuEvent((Game("A", "C", F(1)),), {"A": None, "C": None}, day=date(2020, 1, 20))
    register = {"A": 1995, "B": 1995, "C": 1995}
    # The second event was played with A's start rating 1995, before the first was registered.
    final, _ = rate_in_order([(second, {"A": 1995}), (first, None)], register)
    # first: +15 -> 2010, crossing: 2000 + ⅔ x 10 -> 2007; second: gain 15 (K 30) added -> 2022
    assert final["A"] == 2022
    # in plain order the second event is computed with 2007: We .52 -> .50, K 20 -> +10
    final, _ = rate_in_order([(second, None), (first, None)], register)
    assert final["A"] == 2017


@pytest.mark.rule("004 4.5.2")
def test_editions_by_date(monkeypatch):
    later = replace(SEED_EDITION, name="later", start=date(2024, 6, 1), k_bottom=40)
    monkeypatch.setitem(dsu.DSU_EDITIONS, later.start, later)
    assert dsu_edition_for(date(2024, 5, 31)) is SEED_EDITION
    assert dsu_edition_for(date(2024, 6, 1)) is later
    games = (Game("A", "B", F(1)),)
    ratings = {"A": 1500, "B": 1500}
    assert rate_event(DsuEvent(games, ratings, day=date(2024, 1, 1))).players["A"].k == 45
    assert rate_event(DsuEvent(games, ratings, day=date(2024, 7, 1))).players["A"].k == 40


@pytest.mark.rule("004 4.5.6")
@pytest.mark.rule("004 4.5.6.2")
def test_elo_alignment_456():
    players = [
        AlignmentPlayer(2300, 2250, 40),
        AlignmentPlayer(2200, 2160, 35),
        AlignmentPlayer(2150, 2120, 31),
        AlignmentPlayer(2400, 2300, 30),  # not over 30 games
        AlignmentPlayer(2100, 2000, 50),
    ]  # not over 2100
    alignment = elo_alignment(players)
    assert alignment.compared == 3 and alignment.difference == 40 and alignment.adjustment == -40
    assert alignment.adjust(2300) == 2260  # over 2250: N
    assert alignment.adjust(2245) == 2206  # 2241-2250: N - 1
    assert alignment.adjust(2240) == 2202  # 2231-2240: N - 2
    assert alignment.adjust(2111) == 2100  # N - 14 = 26 -> 2085, raised to 2100
    up = Alignment(3, F(-60), 60)
    assert [up.adjust(r) for r in (2251, 2250, 2121, 2120, 2111, 2110, 2101)] == [
        2311,
        2309,
        2121 + 47,
        2120 + 46,
        2111 + 46,
        2110 + 45,
        2101 + 45,
    ]
    assert alignment.adjust(2110) == 2100  # N - 15 = 25 -> 2085, raised to 2100
    assert Alignment(3, F(-40), 40).adjust(2105) == 2130
    assert Alignment(3, F(-40), 40).adjust(2100) == 2100


@pytest.mark.rule("004 4.5.6.1")
@pytest.mark.parametrize(
    "danish,difference,adjustment",
    [
        ([2324], 24, 0),  # below 25: nothing
        ([2275, 2276], F(-49, 2), 0),
        ([2325], 25, -25),
        ([2327, 2328], F(55, 2), -30),  # 27.5: the nearest number ending in 0 or 5, halves up
        ([2332] * 3 + [2333] * 2, F(162, 5), -30),  # 32.4 -> 30
        ([2332, 2333], F(65, 2), -35),  # 32.5 -> 35
        ([2260], -40, 40),  # Danish ratings lower: adjusted upwards
    ],
)
def test_alignment_number(danish, difference, adjustment):
    result = elo_alignment([AlignmentPlayer(r, 2300, 31) for r in danish])
    assert result.difference == difference
    assert result.adjustment == adjustment


@pytest.mark.rule("004 4.5.2.1")
def test_difference_method_is_nearly_zero_sum():
    """Σ(W - W_e) over an event is zero up to the rounding of each W_e to 0.05."""
    rng = random.Random(4)
    for _ in range(200):
        players = [f"p{i}" for i in range(rng.randint(2, 12))]
        ratings = {p: rng.randint(1000, 2600) for p in players}
        games = tuple(
            Game(a, b, F(rng.choice((0, 1, 2)), 2)) for a in players for b in players if a < b and rng.random() < 0.6
        )
        lines = rate_event(DsuEvent(games, ratings)).players
        total = sum(line.score - line.expected for line in lines.values())
        assert abs(total) <= F(1, 40) * len(players)
