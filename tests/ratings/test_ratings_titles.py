"""Player classes (§23), candidate results (§26), FIDE-rateable events and norms (§4.7) of seed 004."""

from fractions import Fraction as F

import pytest

from ratings.maths.titles import (
    FideEventInfo,
    NormEventInfo,
    NormOpponent,
    NormTitle,
    PlayerClass,
    QualifyingKind,
    candidate_requirement,
    candidate_result,
    candidate_result_during,
    counts_for_fide,
    fide_rateability_failures,
    norm_average,
    norm_check,
    norm_counting_game,
    norm_event_failures,
    norm_points,
    player_class,
)


@pytest.mark.rule("004 23")
def test_player_classes_23():
    assert [player_class(r) for r in (2400, 1900, 1899, 1700, 1699, 1500, 1499, 1000)] == [
        PlayerClass.MASTER,
        PlayerClass.MASTER,
        PlayerClass.FIRST,
        PlayerClass.FIRST,
        PlayerClass.SECOND,
        PlayerClass.SECOND,
        PlayerClass.THIRD,
        PlayerClass.THIRD,
    ]


# §26: (average range, category, percentage, points for 5..11 rounds) as printed.
CANDIDATE_TABLE = [
    (1900, 2100, 1, 100, "5 6 7 8 9 10 11"),
    (2101, 2125, 2, 81, "4 5 5.5 6.5 7.5 8 9"),
    (2126, 2150, 3, 78, "4 4.5 5.5 6 7 8 8.5"),
    (2151, 2175, 4, 76, "4 4.5 5.5 6 7 7.5 8.5"),
    (2176, 2200, 5, 73, "3.5 4.5 5 6 6.5 7.5 8"),
    (2201, 2225, 6, 70, "3.5 4 5 5.5 6.5 7 7.5"),
    (2226, 2250, 7, 67, "3.5 4 4.5 5.5 6 6.5 7.5"),
    (2251, 2275, 8, 64, "3 4 4.5 5 6 6.5 7"),
    (2276, 2300, 9, 60, "3 3.5 4 5 5.5 6 6.5"),
    (2301, 2325, 10, 57, "3 3.5 4 4.5 5 5.5 6.5"),
    (2326, 2350, 11, 53, "2.5 3 3.5 4 5 5.5 6"),
    (2351, 2375, 12, 50, "2.5 3 3.5 4 4.5 5 5.5"),
    (2376, 2400, 13, 47, "2.5 3 3.5 4 4 4.5 5"),
    (2401, 2425, 14, 43, "2 2.5 3 3.5 4 4.5 4.5"),
    (2426, 2450, 15, 40, "2 2.5 3 3 3.5 4 4.5"),
    (2451, 2475, 16, 36, "2 2 2.5 3 3 3.5 4"),
    (2476, 2500, 17, 33, "1.5 2 2.5 2.5 3 3.5 3.5"),
    (2501, 2525, 18, 30, "1.5 2 2 2.5 2.5 3 3.5"),
]


@pytest.mark.rule("004 26")
@pytest.mark.parametrize("low,high,category,percentage,points", CANDIDATE_TABLE)
def test_candidate_table_every_cell(low, high, category, percentage, points):
    for avg in (low, high):
        for rounds, needed in zip(range(5, 12), points.split(), strict=True):
            requirement = candidate_requirement(avg, [avg] * rounds)
            assert requirement.category == category and requirement.percentage == percentage
            assert requirement.points == F(needed), (category, rounds)


@pytest.mark.rule("004 26")
def test_candidate_above_2525_example():
    # "Gennemsnitsrating 2605 giver ratingdifferencen 2351-2605 = -254 ... kvalificeret score på 19 %"
    requirement = candidate_requirement(2605, [2605] * 9)
    assert requirement.category is None and requirement.percentage == 19
    assert requirement.points == F(3, 2)  # 1.71 -> 1.5
    assert candidate_requirement(2605, [2605] * 10).points == 2  # 1.90 -> 2
    assert candidate_requirement(2526, [2526] * 5).percentage == 27  # 2351 - 2526 = -175 -> .27


@pytest.mark.rule("004 26")
def test_candidate_average_includes_own_rating_and_rounds_half_up():
    # own 2000 and five opponents at 2200: 13000 / 6 = 2166.7 -> 2167, category 4 (76 %), not 6
    requirement = candidate_requirement(2000, [2200] * 5)
    assert requirement.average == 2167 and requirement.category == 4 and requirement.points == 4
    # 12603 / 6 = 2100.5 -> 2101: category 2
    assert candidate_requirement(2100, [2100, 2100, 2101, 2101, 2101]).category == 2
    assert candidate_requirement(2100, [2100, 2100, 2101, 2101, 2100]).category == 1
    assert candidate_requirement(1899, [1899] * 5) is None


@pytest.mark.rule("004 26")
def test_candidate_result_needs_five_rounds_and_a_qualifying_event():
    assert candidate_result(2000, [2200] * 5, F(4))
    assert not candidate_result(2000, [2200] * 5, F(7, 2))
    assert not candidate_result(2000, [2200] * 4, F(4))
    assert not candidate_result(2000, [2200] * 5, F(4), kind=None)


@pytest.mark.rule("004 26")
def test_candidate_result_after_five_rounds_in_the_division():
    rounds = [(2200, F(1))] * 4 + [(2200, F(0))] + [(2200, F(0))] * 2
    # after 5 rounds: 4 of 4 needed (76 % of 5 = 3.8 -> 4); after 7: 4 < 5.5
    assert candidate_result_during(2000, rounds, QualifyingKind.DIVISION) == 5
    assert candidate_result_during(2000, rounds, QualifyingKind.REGIONAL_RATED) == 5
    assert candidate_result_during(2000, rounds, QualifyingKind.EMT) is None
    assert candidate_result_during(2000, rounds[:5], QualifyingKind.EMT) == 5


# §4.7.4 table, 9 rounds: points and the average ranges for GM, IM, WGM, WIM.
NORM_TABLE = [
    ("7.5", (2328, 2380), (2178, 2230), (2128, 2180), (1978, 2030)),
    ("7", (2381, 2434), (2231, 2284), (2181, 2234), (2031, 2084)),
    ("6.5", (2435, 2475), (2285, 2325), (2235, 2275), (2085, 2125)),
    ("6", (2476, 2520), (2326, 2370), (2276, 2320), (2126, 2170)),
    ("5.5", (2521, 2557), (2371, 2407), (2321, 2357), (2171, 2207)),
    ("5", (2558, 2600), (2408, 2450), (2358, 2400), (2208, 2250)),
    ("4.5", (2601, 2643), (2451, 2493), (2401, 2443), (2251, 2293)),
    ("4", (2644, 2680), (2494, 2530), (2444, 2480), (2294, 2330)),
    ("3.5", (2681, 2725), (2531, 2575), (2481, 2525), (2331, 2375)),
]
TITLES = (NormTitle.GM, NormTitle.IM, NormTitle.WGM, NormTitle.WIM)


@pytest.mark.rule("004 4.7.4")
@pytest.mark.parametrize("row", NORM_TABLE, ids=[r[0] for r in NORM_TABLE])
def test_norm_table_every_range(row):
    points, *ranges = row
    for title, (low, high) in zip(TITLES, ranges, strict=True):
        for avg in range(low, high + 1):
            assert norm_points(9, avg, title) == F(points), (title, avg)


@pytest.mark.rule("004 4.7.4")
def test_norm_below_the_table_and_above_it():
    assert norm_points(9, 2327, NormTitle.GM) is None
    assert norm_points(9, 1977, NormTitle.WIM) is None
    assert norm_points(9, 2800, NormTitle.GM) == F(7, 2)  # never below 35 %
    assert norm_points(8, 2600, NormTitle.GM) is None  # fewer than 9 games
    # 11 games at 2500: 6.5 / 11 = .59 -> +65 = 2565 is short; 7 / 11 = .64 -> +102 = 2602
    assert norm_points(11, 2500, NormTitle.GM) == 7


def _field(low_ratings=(2100, 2100), titles=("GM", "GM", "GM", "IM", "IM")):
    feds = ["SWE", "NOR", "GER", "DEN", "SWE", "NOR", "DEN", "GER", "DEN"]
    ratings = [2450] * 7 + list(low_ratings)
    titles = list(titles) + [None] * (9 - len(titles))
    return [NormOpponent(r, f, t) for r, f, t in zip(ratings, feds, titles, strict=True)]


@pytest.mark.rule("004 4.7.4")
def test_norm_with_the_two_lowest_raised():
    opponents = _field()
    # raw average (7 x 2450 + 2 x 2100) / 9 = 2372.2; raised to 2250: 21650 / 9 = 2405.6 -> 2406
    assert norm_average(opponents, NormTitle.GM) == 2406
    result = norm_check("DEN", opponents, F(7), NormTitle.GM)
    assert result.achieved and result.required_points == 7
    # the IM floor is 2100: nothing to raise, 2372 needs 5.5 (row 2371-2407)
    assert norm_average(opponents, NormTitle.IM) == 2372
    assert norm_check("DEN", opponents, F(11, 2), NormTitle.IM).achieved


@pytest.mark.rule("004 4.7.4")
def test_norm_raises_an_unrated_opponent_and_never_lowers():
    opponents = _field(low_ratings=(2450, None))
    assert norm_average(opponents, NormTitle.GM) == 2428  # (8 x 2450 + 2250) / 9 = 2427.8
    assert norm_average(_field(low_ratings=(2450, 2450)), NormTitle.GM) == 2450


@pytest.mark.rule("004 4.7.4")
def test_norm_participant_requirements():
    two_unrated = _field(low_ratings=(None, None))
    assert "more than one opponent without a rating" in norm_check("DEN", two_unrated, F(9), NormTitle.GM).failures
    same = [NormOpponent(2500, "DEN", "GM")] * 9
    failures = norm_check("DEN", same, F(9), NormTitle.GM).failures
    assert "fewer than a third of the opponents are foreign" in failures
    assert "fewer than 3 federations" in failures
    few_titles = _field(titles=("GM", "GM", "GM", "IM"))
    assert (
        "fewer than half the opponents are title holders" in norm_check("DEN", few_titles, F(9), NormTitle.GM).failures
    )
    cm_only = _field(titles=("GM", "GM", "IM", "IM", "CM", "CM"))
    failures = norm_check("DEN", cm_only, F(9), NormTitle.GM).failures
    assert failures == (
        "fewer than half the opponents are title holders",
        "too few titled opponents for a GM norm",
    )
    # IM: two GMs suffice; one GM and two IMs too (a GM counts as an IM)
    assert norm_check("DEN", _field(titles=("GM", "GM", "FM", "FM", "FM")), F(6), NormTitle.IM).achieved
    assert norm_check("DEN", _field(titles=("GM", "IM", "IM", "FM", "FM")), F(6), NormTitle.IM).achieved
    assert not norm_check("DEN", _field(titles=("GM", "IM", "FM", "FM", "FM")), F(6), NormTitle.IM).achieved


@pytest.mark.rule("004 4.7.4")
def test_norm_event_requirements():
    good = NormEventInfo(
        max_games_per_day=2,
        base_minutes=90,
        increment_seconds=30,
        games=9,
        duration_days=9,
        team_event=False,
        individual_match=False,
        international_arbiter=True,
    )
    assert norm_event_failures(good) == []
    bad = NormEventInfo(
        max_games_per_day=3,
        base_minutes=90,
        increment_seconds=0,
        games=7,
        duration_days=120,
        team_event=False,
        individual_match=True,
        international_arbiter=False,
    )
    assert len(norm_event_failures(bad)) == 6


def _event(**changes):
    base = dict(
        closed=True,
        players=12,
        rated_players=4,
        duration_days=9,
        team_championship=False,
        max_rounds_per_day=2,
        max_hours_per_day=F(10),
        base_minutes=120,
    )
    return FideEventInfo(**(base | changes))


@pytest.mark.rule("004 4.7.2")
def test_fide_rateability_472():
    assert fide_rateability_failures(_event()) == []
    assert fide_rateability_failures(_event(players=13)) != []  # 4 of 13 is less than a third
    assert fide_rateability_failures(_event(players=9, rated_players=3)) != []  # fewer than 4
    assert fide_rateability_failures(_event(closed=False, rated_players=0)) == []
    assert fide_rateability_failures(_event(duration_days=91)) != []
    assert fide_rateability_failures(_event(duration_days=91, team_championship=True)) == []
    assert fide_rateability_failures(_event(max_rounds_per_day=4)) != []
    assert fide_rateability_failures(_event(max_hours_per_day=F(25, 2))) != []
    assert fide_rateability_failures(_event(base_minutes=90, increment_seconds=30)) == []
    assert fide_rateability_failures(_event(base_minutes=90, increment_seconds=0)) != []
    assert fide_rateability_failures(_event(smoking_allowed=True)) != []


@pytest.mark.rule("004 4.7.2")
@pytest.mark.rule("004 4.7.1")
def test_games_counting_for_fide_472():
    assert counts_for_fide(True, True, False)
    assert not counts_for_fide(False, True, False)
    assert not counts_for_fide(True, True, False, against_computer=True)
    assert not counts_for_fide(True, False, False, F(5))
    assert counts_for_fide(True, False, True, F(1))
    assert not counts_for_fide(True, False, True, F(1, 2))


@pytest.mark.rule("004 4.7.4")
def test_games_counting_for_a_norm_474():
    assert norm_counting_game(True)
    assert not norm_counting_game(False)
    assert not norm_counting_game(True, against_computer=True)
    assert not norm_counting_game(True, adjudicated=True)
    assert not norm_counting_game(True, forfeited_in_advance=True)
    assert not norm_counting_game(True, opponent_federation_excluded=True)


@pytest.mark.rule("004 26")
@pytest.mark.parametrize("kind", [QualifyingKind.REGIONAL_RATED, QualifyingKind.DIVISION])
def test_a_regional_rated_events_final_answer_agrees_with_its_round_five_answer(kind):
    """004 §26: "Kandidatresultater kan i divisionsturneringen og ratede hovedkredsturneringer desuden
    opnås efter fem eller flere spillede runder, uden at følgende runders resultater kan fjerne det
    opnåede kandidatresultat." Own 2200, five opponents at 2200: average 2200, category 5, 73 % of 5 =
    3.65 -> 3½ needed; 5/5 is a candidate result after round 5 and at the end alike."""
    rounds = [(2200, F(1))] * 5
    assert candidate_result_during(2200, rounds, kind) == 5
    assert candidate_result(2200, [2200] * 5, F(5), kind)
    # 3½ of 5 is just enough, 3 is not; after 7 rounds 4½ of 7 (73 % of 7 = 5.11 -> 5) is not.
    assert candidate_result(2200, [2200] * 5, F(7, 2), kind)
    assert not candidate_result(2200, [2200] * 5, F(3), kind)
    assert not candidate_result(2200, [2200] * 7, F(9, 2), kind)
    # 3 of 5 (3½ needed), 4 of 6 (73 % of 6 = 4.38 -> 4½), 5 of 7 (5.11 -> 5): reached after round 7.
    late = [(2200, F(1))] * 3 + [(2200, F(0))] * 2 + [(2200, F(1))] * 2
    assert candidate_result_during(2200, late, kind) == 7
    # 4 of 5, then two losses: reached after round 5, and it stays.
    early = [(2200, F(1))] * 3 + [(2200, F(1, 2))] * 2 + [(2200, F(0))] * 2
    assert candidate_result_during(2200, early, kind) == 5
    assert not candidate_result(2200, [2200] * 4, F(4), kind)  # fewer than five rounds never


WIM_SHORT = "too few titled opponents for a WIM norm"


@pytest.mark.rule("004 4.7.4")
@pytest.mark.parametrize(
    "titles, enough",
    [
        (("WIM", "WIM", "WIM"), True),
        (("WIM", "FM", "FM"), True),  # two FMs
        (("WIM", "WIM", "FM"), True),  # an FM counts as a WIM (higher titles count toward the lower)
        (("WIM", "WIM", "WGM"), True),
        (("FM", "FM"), True),
        (("GM", "FM"), True),
        (("WIM", "WIM", "WFM"), False),  # WFM is below WIM
        (("WIM", "WIM"), False),
        (("GM", "WIM"), False),  # two at or above WIM, but only one of GM / IM / WGM / FM
        (("WIM", "WIM", "CM"), False),
    ],
)
def test_wim_norm_title_combinations(titles, enough):
    """004 §4.7.4, "Øvrige krav" for the WIM norm: "Min 3 WIM eller 2 GM / IM / WGM / FM". The rule
    ranks FM above WIM (two FMs do what three WIMs do), so a higher title counts toward the lower
    requirement: exchanging a WIM for an FM never loses the norm (docs/ratings.md)."""
    opponents = _field(titles=titles)
    failures = norm_check("DEN", opponents, F(9), NormTitle.WIM).failures
    assert (WIM_SHORT not in failures) is enough
