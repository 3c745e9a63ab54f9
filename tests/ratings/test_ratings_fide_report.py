"""The FIDE rating report, month by month (ratings/maths/fide_report.py), checked by hand against B.02.

PD from table 8.1.2, dp from table 8.1.1 (B.02).
"""

from __future__ import annotations

from datetime import date
from fractions import Fraction as F

import pytest

from ratings.maths import fide
from ratings.maths.fide_report import (
    EarlierEvent,
    PlayerRecord,
    ReportGame,
    TimeControl,
    fide_report,
    months_before,
    pooled_initial_rating,
)

WIN, DRAW, LOSS = F(1), F(1, 2), F(0)
DAY = date(2026, 1, 10)


def player(key: str, rating: int | None, day: date = DAY, **record) -> PlayerRecord:
    return PlayerRecord(key, {date(day.year, day.month, 1): rating}, **record)


def game(white: str, black: str, score: F, day: date = DAY) -> ReportGame:
    return ReportGame(white, black, score, day)


@pytest.mark.rule("B.02 8.3.3")
def test_a_new_player_keeps_k_40_until_30_games_are_completed():
    """A (1800) has completed 28 games. January: beats B 1800 (PD .50), draws C 1700 (D 100: .64), beats D 1900
    (D -100: .36): W 2½, W_e 1.50, ΣΔ +1.00; K 40 (28 < 30): +40 -> 1840.
    Those 3 games make 31: February, rated on 1840 (no list held: January's rating plus its change), beats B
    (1800 + 0: January's -0.50 x 20 = -10 -> 1790; D 50: .57) -> +0.43 x 20 = +8.6 -> +9 -> 1849.
    """
    feb = date(2026, 2, 7)
    players = [
        player("A", 1800, completed_games=28),
        player("B", 1800),
        player("C", 1700),
        player("D", 1900),
    ]
    games = [game("A", "B", WIN), game("C", "A", DRAW), game("A", "D", WIN), game("B", "A", LOSS, feb)]
    lines = fide_report(players, games, first_day=DAY)
    a = lines["A"]
    assert [(p.rating, p.listed, p.games, p.expected, p.k, p.change) for p in a.periods] == [
        (1800, True, 3, F(150, 100), 40, 40),
        (1840, False, 1, F(57, 100), 20, 9),
    ]
    assert lines["B"].periods[1].rating == 1790
    assert (a.old_rating, a.new_rating, a.change, a.games, a.score) == (1800, 1849, 49, 4, F(7, 2))


@pytest.mark.rule("B.02 8.3.3")
def test_k_10_once_a_published_rating_reached_2400_even_below_it():
    """P (2380) once had a published 2400: K 10. Beats Q 2280 (D 100: .64): +0.36 x 10 = +3.6 -> +4.
    Without that history K 20: +7.2 -> +7. Both rules at once (fewer than 30 games and 2400 reached): the
    2400 rule first, K 10 (docs/ratings.md).
    """
    games = [game("P", "Q", WIN)]
    lines = fide_report([player("P", 2380, ever_2400=True), player("Q", 2280)], games)
    assert (lines["P"].k, lines["P"].change) == (10, 4)
    lines = fide_report([player("P", 2380), player("Q", 2280)], games)
    assert (lines["P"].k, lines["P"].change) == (20, 7)
    lines = fide_report([player("P", 2380, ever_2400=True, completed_games=10), player("Q", 2280)], games)
    assert (lines["P"].k, lines["P"].change) == (10, 4)
    lines = fide_report([player("P", 2380, completed_games=10), player("Q", 2280)], games)
    assert (lines["P"].k, lines["P"].change) == (40, 14)  # 0.36 x 40 = 14.4


@pytest.mark.rule("B.02 8.3.3")
def test_a_list_of_a_later_month_at_2400_gives_k_10_from_then_on():
    """S is 2390 on the January list, 2405 on the February list the club holds, 2395 on March's; S loses to
    T (2290, no list held after January) in March: D 105 -> .64, -0.64 x 10 = -6.4 -> -6 -> 2389.
    With K 20 (no published 2400) it would be -12.8 -> -13. The months without games are periods too.
    """
    jan, feb, mar = date(2026, 1, 1), date(2026, 2, 1), date(2026, 3, 1)
    s = PlayerRecord("S", {jan: 2390, feb: 2405, mar: 2395})
    t = PlayerRecord("T", {jan: 2290})
    lines = fide_report([s, t], [game("S", "T", LOSS, date(2026, 3, 7))], first_day=DAY)
    assert [p.period for p in lines["S"].periods] == [jan, feb, mar]
    assert (lines["S"].old_rating, lines["S"].periods[-1].k, lines["S"].new_rating) == (2390, 10, 2389)
    assert lines["S"].periods[-1].listed and not lines["T"].periods[-1].listed
    s = PlayerRecord("S", {jan: 2390, feb: 2395, mar: 2395})
    lines = fide_report([s, t], [game("S", "T", LOSS, date(2026, 3, 7))], first_day=DAY)
    assert (lines["S"].periods[-1].k, lines["S"].new_rating) == (20, 2382)


@pytest.mark.rule("B.02 7.2.1")
def test_a_rating_below_1400_drops_off_the_list():
    """D 1410 loses to 1500 (D -90: .38), 1450 (D -40: .44) and 1600 (D -190: .25): W_e 1.07, -1.07 x 20 = -21.4
    -> -21: 1389 < 1400: off the list, no new rating. In the next month D counts as unrated for the opponents:
    X's game against D is not rated."""
    feb = date(2026, 2, 7)
    players = [player("D", 1410), player("X", 1500), player("Y", 1450), player("Z", 1600)]
    games = [game("X", "D", WIN), game("D", "Y", LOSS), game("Z", "D", WIN), game("X", "D", WIN, feb)]
    lines = fide_report(players, games, first_day=DAY)
    d = lines["D"]
    assert (d.periods[0].expected, d.periods[0].change, d.off_list, d.new_rating, d.change) == (
        F(107, 100),
        -21,
        True,
        None,
        None,
    )
    assert lines["X"].periods[1].games == 0 and lines["X"].periods[0].games == 1
    assert not lines["X"].off_list and lines["X"].new_rating is not None


@pytest.mark.rule("B.02 8.2")
def test_initial_rating_of_the_reference_example():
    """5 games against 1600, 1700, 1800, 1900, 2000, score 3: Ra = (9000 + 2 x 1800) / 7 = 1800,
    p = (3 + 1) / 7 = 0.571 -> .57 -> dp 50: 1850. The opponents' games against U are not rated."""
    opponents = {"A": 1600, "B": 1700, "C": 1800, "D": 1900, "E": 2000}
    results = {"A": WIN, "B": WIN, "C": WIN, "D": LOSS, "E": LOSS}
    players = [player("U", None)] + [player(k, r) for k, r in opponents.items()]
    games = [game("U", k, s) for k, s in results.items()]
    lines = fide_report(players, games)
    u = lines["U"]
    assert (u.initial.value, u.initial.opponents_average, u.initial_games, u.new_rating) == (1850, 1800, 5, 1850)
    assert (u.old_rating, u.change, u.games, u.score) == (None, None, 5, 3)
    assert all(lines[k].games == 0 and lines[k].new_rating == r for k, r in opponents.items())


@pytest.mark.rule("B.02 8.2")
def test_initial_rating_maximum_2200_minimum_games_and_under_1400():
    """5 wins against 2200: Ra = (11000 + 3600) / 7 = 2085.7, p = 6/7 -> .86 -> dp 309: 2394.7 -> at most 2200.
    5 losses against 1400: Ra = (7000 + 3600) / 7 = 1514.3, p = 1/7 -> .14 -> dp -309: 1205, under 1400: not
    published (B.02 7.2.1). 4 games: no rating."""
    strong = fide.initial_rating([2200] * 5, F(5))
    assert (strong.value, strong.published) == (2200, True)
    weak = fide.initial_rating([1400] * 5, F(0))
    assert (weak.value, weak.published) == (1205, False)
    assert fide.initial_rating([1800] * 4, F(2)).value is None
    # in the report: ½ of 5 against 1400: p = 1.5 / 7 -> .21, dp -230: 1284.3 -> 1284, not published
    players = [player("U", None)] + [player(f"O{i}", 1400) for i in range(5)]
    games = [game("U", f"O{i}", DRAW if i == 0 else LOSS) for i in range(5)]
    u = fide_report(players, games)["U"]
    assert (u.initial.value, u.initial.published, u.new_rating) == (1284, False, None)
    # 0 of 5 in a first event: the zero score is disregarded, no games remain
    u = fide_report(players, [game("U", f"O{i}", LOSS) for i in range(5)])["U"]
    assert (u.initial.value, u.initial_games, u.new_rating) == (None, 0, None)


@pytest.mark.rule("B.02 7.1.4")
def test_earlier_results_are_pooled_within_26_months_and_a_first_zero_is_disregarded():
    """Earlier: 0/2 against 1500, 1500 (February 2024; the first event, zero: disregarded), 1/2 against 1500,
    1500 (December 2024); now 2/3 against 1700, 1800, 1900 (January 2026).
    Ra = (1500 + 1500 + 1700 + 1800 + 1900 + 3600) / 7 = 12000 / 7 = 1714.29, p = (3 + 1) / 7 -> .57, dp 50:
    1764.29 -> 1764, on 5 games. An event more than 26 months back is left out: 1/1 against 2000 in
    November 2023 (26 months and 9 days back) would otherwise make 6 games.
    A later event's zero counts: 0/1 against 1500 in March 2025 after the December 2024 event:
    Ra = (1500 x 3 + 1700 + 1800 + 1900 + 2 x 1800) / 8 = 13500 / 8
    = 1687.5, p = (1 + 0 + 2 + 1) / 8 = .50, dp 0: 1687.5 -> 1688 (halves up), on 6 games.
    """
    zero = EarlierEvent(date(2024, 2, 5), (1500, 1500), F(0))
    earlier = EarlierEvent(date(2024, 12, 14), (1500, 1500), F(1))
    now = EarlierEvent(DAY, (1700, 1800, 1900), F(2))
    rating, games = pooled_initial_rating([zero, earlier], now)
    assert (rating.value, games) == (1764, 5)
    assert rating.opponents_average == F(12000, 7)
    assert months_before(DAY, 26) == date(2023, 11, 10)
    rating, games = pooled_initial_rating([EarlierEvent(date(2023, 11, 1), (2000,), F(1)), earlier], now)
    assert (rating.value, games) == (1764, 5)
    # within the window the first event's zero is disregarded, a later event's zero counts
    rating, games = pooled_initial_rating([earlier, EarlierEvent(date(2025, 3, 1), (1500,), F(0))], now)
    assert (rating.value, games) == (1688, 6)


@pytest.mark.rule("B.02 RB")
@pytest.mark.rule("B.02 8.3.1")
def test_rapid_rates_by_the_rapid_rules():
    """X 2700, Y 2000, Z 2150 in January 2026 (after the 1 October 2025 amendment). X beats Y and Z, Z beats Y.

    Standard: X (2650+, real D): Y D 700 -> .99, Z D 550 -> .97: W_e 1.96, +0.04 x 10 = 0.4 -> 0.
    Y: X D -700 capped -400 -> .08, Z D -150 -> .30: -0.38 x 20 = -7.6 -> -8. Z: X D -550 capped -> .08,
    Y D 150 -> .70: +0.22 x 20 = 4.4 -> +4.
    Rapid: X-Y is 700 apart with X above 2600: not rated. X: Z D 550 capped 400 -> .92: +0.08 x 10 = +0.8 -> +1.
    Y: only Z: -0.30 x 20 = -6. Z: as standard, +4.
    """
    players = [player("X", 2700), player("Y", 2000), player("Z", 2150)]
    games = [game("X", "Y", WIN), game("Z", "X", LOSS), game("Y", "Z", LOSS)]
    standard = fide_report(players, games, TimeControl.STANDARD)
    assert [(standard[k].games, standard[k].expected, standard[k].change) for k in "XYZ"] == [
        (2, F(196, 100), 0), (2, F(38, 100), -8), (2, F(78, 100), 4)
    ]  # fmt: skip
    for control in (TimeControl.RAPID, TimeControl.BLITZ):
        rapid = fide_report(players, games, control)
        assert [(rapid[k].games, rapid[k].expected, rapid[k].change) for k in "XYZ"] == [
            (1, F(92, 100), 1), (1, F(30, 100), -6), (2, F(78, 100), 4)
        ]  # fmt: skip


@pytest.mark.rule("B.02 8.3")
def test_a_season_is_rated_month_by_month_on_each_months_list():
    """A 2000, B 1900, C 1800, K 20. September 2025: A beats B (D 100: .64, +0.36), draws C (D 200: .76, -0.26):
    +0.10 x 20 = +2. B: -0.36 x 20 = -7.2 -> -7. C: +0.26 x 20 = +5.2 -> +5.
    October: the club holds the list (A 2010, B 1893, C 1805). B beats C (D 88: .62): B +0.38 x 20 = +7.6 -> +8,
    C -8. November: no list: A 2010 + 0, B 1893 + 8 = 1901, C 1805 - 8 = 1797. C beats A (D -213: .23):
    C +0.77 x 20 = +15.4 -> +15 -> 1812; A -15 -> 1995.
    Old ratings are September's: A 2000 -> 1995, B 1900 -> 1901, C 1800 -> 1812.
    """
    sep, oct_, nov = date(2025, 9, 1), date(2025, 10, 1), date(2025, 11, 1)
    players = [
        PlayerRecord("A", {sep: 2000, oct_: 2010}),
        PlayerRecord("B", {sep: 1900, oct_: 1893}),
        PlayerRecord("C", {sep: 1800, oct_: 1805}),
    ]
    games = [
        game("A", "B", WIN, date(2025, 9, 12)),
        game("C", "A", DRAW, date(2025, 9, 26)),
        game("B", "C", WIN, date(2025, 10, 10)),
        game("C", "A", WIN, date(2025, 11, 14)),
    ]
    lines = fide_report(players, games, first_day=date(2025, 9, 12))
    assert [(p.period, p.rating, p.listed, p.change) for p in lines["A"].periods] == [
        (sep, 2000, True, 2), (oct_, 2010, True, 0), (nov, 2010, False, -15)
    ]  # fmt: skip
    assert [p.change for p in lines["B"].periods] == [-7, 8, 0]
    assert [(p.rating, p.change) for p in lines["C"].periods] == [(1800, 5), (1805, -8), (1797, 15)]
    assert [(lines[k].old_rating, lines[k].new_rating) for k in "ABC"] == [(2000, 1995), (1900, 1901), (1800, 1812)]
