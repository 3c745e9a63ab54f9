"""Rating groups: seed 004 §65."""

import pytest

from pairing.engines.groups import check_groups, group_sizes, rating_groups, strength_order, title_rank
from pairing.engines.state import InvalidInput, Player


def players(n: int) -> list[Player]:
    # Start numbers in reverse rating order: the strongest is number n.
    return [Player(i, national_rating=1000 + 7 * i) for i in range(1, n + 1)]


@pytest.mark.rule("004 65")
def test_round_robin_groups_of_the_chosen_size_strongest_together():
    groups = rating_groups(players(30), 10, round_robin=True)
    assert [[p.id for p in g] for g in groups] == [
        list(range(30, 20, -1)),
        list(range(20, 10, -1)),
        list(range(10, 0, -1)),
    ]


@pytest.mark.rule("004 65")
def test_a_small_rest_joins_the_lowest_group_a_large_one_forms_its_own():
    assert group_sizes(33, 10, round_robin=True) == [10, 10, 13]
    assert group_sizes(35, 10, round_robin=True) == [10, 10, 10, 5]
    assert group_sizes(35, 10, round_robin=True, merge_below=6) == [10, 10, 15]
    assert group_sizes(7, 10, round_robin=True) == [7]


@pytest.mark.rule("004 65")
@pytest.mark.parametrize("n", range(2, 60))
@pytest.mark.parametrize("size", [4, 5, 7, 8, 9, 10, 12])
def test_outside_a_round_robin_only_one_group_is_odd(n, size):
    sizes = group_sizes(n, size, round_robin=False)
    assert sum(sizes) == n
    assert all(s > 0 for s in sizes)
    assert sum(s % 2 for s in sizes) <= 1
    assert all(s % 2 == 0 for s in sizes[:-1])  # the odd group, if any, is the lowest
    assert all(abs(s - size) <= 1 for s in sizes[:-1])
    check_groups(sizes, round_robin=False)


@pytest.mark.rule("004 65")
def test_odd_group_size_outside_a_round_robin_alternates_one_up_one_down():
    # 41 players in groups of 9: 9, 9, 9, 9, 5 would give five odd groups.
    assert group_sizes(41, 9, round_robin=False) == [10, 8, 10, 8, 5]
    assert group_sizes(41, 9, round_robin=True) == [9, 9, 9, 9, 5]
    assert group_sizes(36, 9, round_robin=False) == [10, 8, 10, 8]


@pytest.mark.rule("004 65")
def test_the_odd_groups_move_the_strongest_of_the_group_below_up():
    groups = rating_groups(players(27), 9, round_robin=False)
    assert [len(g) for g in groups] == [10, 8, 9]
    assert [p.id for p in groups[0]] == list(range(27, 17, -1))


@pytest.mark.rule("004 65")
def test_a_given_division_with_two_odd_groups_is_refused_outside_a_round_robin():
    check_groups([9, 9], round_robin=True)
    with pytest.raises(InvalidInput):
        check_groups([9, 9, 8], round_robin=False)


@pytest.mark.rule("004 65")
def test_strength_order_dsu_rating_title_elo_lot():
    field = [
        Player(1, national_rating=1800, rating=2000),
        Player(2, national_rating=1800, rating=1900, title="CM"),
        Player(3, national_rating=1800, rating=1950, title="FM"),
        Player(4, national_rating=1900),
        Player(5, national_rating=1800, rating=2100),
    ]
    assert [p.id for p in strength_order(field, seed=1)] == [4, 3, 2, 5, 1]
    assert title_rank("gm") < title_rank("IM") < title_rank("WGM") < title_rank("FM") < title_rank("")


@pytest.mark.rule("004 65")
def test_group_size_must_be_at_least_two():
    with pytest.raises(InvalidInput):
        group_sizes(10, 1, round_robin=True)
