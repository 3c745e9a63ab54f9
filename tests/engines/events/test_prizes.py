"""Prize distribution (pairing.engines.prizes), every case computed by hand."""

from datetime import date
from decimal import Decimal

import pytest

from pairing.engines.prizes import (
    Entrant,
    GroupRule,
    Placing,
    Prize,
    age_on,
    default_sharing,
    distribute,
    split,
)
from pairing.engines.state import InvalidInput

D = Decimal


def cash(*amounts: str) -> list[Prize]:
    return [Prize(D(a)) for a in amounts]


def order(*lines: tuple[int, float, int]) -> list[Placing]:
    return [Placing(player, points, rank) for player, points, rank in lines]


def amounts(awards) -> dict[int, Decimal]:
    return {a.player: a.amount for a in awards}


# Players 1-5: 1 alone on 5 points; 2, 3, 4 on 4 points, separated by the tie-breaks; 5 on 3.
FIELD = order((1, 5, 1), (2, 4, 2), (3, 4, 3), (4, 4, 4), (5, 3, 5))
TABLE = cash("300", "200", "100", "60")


@pytest.mark.rule("004 24")
@pytest.mark.rule("000 F10")
@pytest.mark.rule("001 F12")
def test_shared_on_equal_points_pools_the_places_they_occupy():
    # Places 2-4 hold 200 + 100 + 60 = 360: 120 each (seed 000 F10, seed 001 F12).
    awards = split(FIELD, TABLE, "points")
    assert amounts(awards) == {1: D(300), 2: D(120), 3: D(120), 4: D(120)}
    shared = awards[1]
    assert (shared.first, shared.last, shared.pool, shared.sharers) == (2, 4, D(360), 3)


@pytest.mark.rule("004 24")
def test_by_tiebreak_order_cash_follows_the_places():
    # Seed 004 §24 outside round robins: the tie-breaks (almindelig korrektion) decide.
    awards = split(FIELD, TABLE, "tiebreak")
    assert amounts(awards) == {1: D(300), 2: D(200), 3: D(100), 4: D(60)}
    assert not any(a.shared for a in awards)


@pytest.mark.rule("004 24")
def test_hort_half_by_place_half_shared():
    # Each of 2, 3, 4: half his place's prize + (360 / 2) / 3 = 60. 100 + 60, 50 + 60, 30 + 60.
    awards = split(FIELD, TABLE, "hort")
    assert amounts(awards) == {1: D(300), 2: D(160), 3: D(110), 4: D(90)}
    assert sum(amounts(awards).values()) == D(660)


@pytest.mark.rule("004 24")
def test_equal_on_every_tiebreak_shares_even_by_tiebreak_order():
    # 2 and 3 share rank 2 (every tie-break equal): places 2 and 3 pooled, 150 each; 4 keeps 60.
    field = order((1, 5, 1), (2, 4, 2), (3, 4, 2), (4, 4, 4))
    awards = split(field, TABLE, "tiebreak")
    assert amounts(awards) == {1: D(300), 2: D(150), 3: D(150), 4: D(60)}
    assert awards[1].sharers == 2 and (awards[1].first, awards[1].last) == (2, 3)


@pytest.mark.rule("004 24")
def test_a_block_beyond_the_prize_table_shares_only_what_is_there():
    # Three on 4 points from place 3, only places 1-3 have prizes: 100 / 3 = 33.33 each, rounded down.
    field = order((1, 6, 1), (2, 5, 2), (3, 4, 3), (4, 4, 4), (5, 4, 5))
    awards = split(field, cash("300", "200", "100"), "points")
    assert amounts(awards) == {1: D(300), 2: D(200), 3: D("33.33"), 4: D("33.33"), 5: D("33.33")}
    assert sum(a.amount for a in awards) <= D(600)


@pytest.mark.rule("004 24")
def test_honour_prizes_are_never_divided():
    # Seed 004 §24: in a round robin cash is shared, honour prizes follow the Sonneborn-Berger order.
    field = order((1, 4, 1), (2, 4, 2), (3, 2, 3))
    prizes = [Prize(D(100), "cup"), Prize(D(50))]
    awards = split(field, prizes, "points")
    assert [(a.player, a.amount, a.label) for a in awards] == [(1, D(75), "cup"), (2, D(75), "")]


@pytest.mark.rule("004 24")
def test_one_prize_per_player_keeps_the_higher_and_moves_the_group_up():
    # Player 3 is 3rd overall (100) and best under 1800 (150): he keeps 150, leaves the main list,
    # and 4 moves up to 3rd place (100). Player 5 is then best under 1800 after 3: 75.
    field = order((1, 5, 1), (2, 4, 2), (3, 3.5, 3), (4, 3, 4), (5, 2, 5))
    under_1800 = {3, 5}
    result = distribute(field, cash("300", "200", "100"), [(cash("150", "75"), under_1800)], "tiebreak")
    assert {(a.player, a.category, a.amount) for a in result.awards} == {
        (1, 0, D(300)),
        (2, 0, D(200)),
        (4, 0, D(100)),
        (3, 1, D(150)),
        (5, 1, D(75)),
    }
    assert result.excluded == {0: {3}}


@pytest.mark.rule("004 24")
def test_one_prize_per_player_prefers_the_main_prize_when_equal():
    field = order((1, 5, 1), (2, 4, 2), (3, 3, 3))
    result = distribute(field, cash("100", "50"), [(cash("50", "20"), {2, 3})], "tiebreak")
    assert {(a.player, a.category, a.amount) for a in result.awards} == {(1, 0, D(100)), (2, 0, D(50)), (3, 1, D(50))}


@pytest.mark.rule("004 24")
def test_several_prizes_allowed_when_the_regulation_says_so():
    field = order((1, 5, 1), (2, 4, 2))
    result = distribute(field, cash("100"), [(cash("40"), {1, 2})], "tiebreak", one_prize_each=False)
    assert {(a.player, a.amount) for a in result.awards} == {(1, D(100)), (1, D(40))}


@pytest.mark.rule("004 24")
def test_shared_prize_in_a_group_after_exclusions():
    # Main: 1 (300), 2 (200). Women 2, 3, 4: 2 keeps her 200; 3 and 4 on equal points share 80 + 40.
    field = order((1, 5, 1), (2, 4, 2), (3, 3, 3), (4, 3, 4))
    result = distribute(field, cash("300", "200"), [(cash("80", "40"), {2, 3, 4})], "points")
    assert amounts(a for a in result.awards if a.category == 1) == {3: D(60), 4: D(60)}
    assert result.total() == D(620)


@pytest.mark.rule("004 24")
def test_group_rules_by_rating_age_sex_and_strength():
    on = date(2026, 11, 1)
    junior = Entrant(1, rating=1650, sex="w", birth=date(2010, 11, 2), strength_group=3)
    senior = Entrant(2, rating=2150, sex="m", birth=date(1960, 11, 1), strength_group=1)
    private = Entrant(3, rating=0)
    assert age_on(junior.birth, on) == 15 and age_on(senior.birth, on) == 66
    under_1800 = GroupRule("U1800", "rating", (), high=1799)
    youth = GroupRule("U16", "age", (), high=15)
    seniors = GroupRule("65+", "age", (), low=65)
    women = GroupRule("Women", "women", ())
    group_three = GroupRule("Group 3", "strength", (), low=3)
    assert [under_1800.admits(e, on) for e in (junior, senior, private)] == [True, False, True]
    assert [youth.admits(e, on) for e in (junior, senior, private)] == [True, False, False]
    assert [seniors.admits(e, on) for e in (junior, senior, private)] == [False, True, False]
    assert [women.admits(e, on) for e in (junior, senior)] == [True, False]
    assert [group_three.admits(e, on) for e in (junior, senior)] == [True, False]


@pytest.mark.rule("004 24")
def test_invalid_rules_are_refused():
    with pytest.raises(InvalidInput):
        split(FIELD, TABLE, "lottery")
    with pytest.raises(InvalidInput):
        GroupRule("x", "hair colour", ())
    with pytest.raises(InvalidInput):
        GroupRule("x", "rating", (), low=2000, high=1800)
    with pytest.raises(InvalidInput):
        Prize(D(-1))


@pytest.mark.rule("004 24")
def test_each_system_has_its_regulation_as_default():
    # Seeds README item 16.
    assert default_sharing("roundrobin") == "points"
    assert default_sharing("knsb-wp") == "points"
    assert default_sharing("dutch-1998") == "points"
    assert default_sharing("dansk") == "tiebreak"
    assert default_sharing("monrad") == "tiebreak"
