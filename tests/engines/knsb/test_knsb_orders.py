"""The transposition and exchange orders of seed 000 D1/D2 and seed 002 D1/D2/D3, from their tables."""

from itertools import islice

import pytest

from pairing.engines.knsb_orders import (
    all_exchanges,
    exchanges,
    floater_subsets,
    s1_parts,
    s2_parts,
    transpositions,
)

# Seed 000 D1 (also seed 004 §4.9.5 D1): S2 = 5, 6, 7, 8.
SEED000_D1 = [
    (5, 6, 7, 8),
    (5, 6, 8, 7),
    (5, 7, 6, 8),
    (5, 7, 8, 6),
    (5, 8, 6, 7),
    (5, 8, 7, 6),
    (6, 5, 7, 8),
    (6, 5, 8, 7),
]


@pytest.mark.rule("000 D1")
def test_seed000_d1_transpositions_a_to_g():
    assert list(islice(transpositions([5, 6, 7, 8]), 8)) == SEED000_D1


@pytest.mark.rule("002 D1")
def test_seed002_d1_720_transpositions_of_six():
    got = list(transpositions([6, 7, 8, 9, 10, 11]))
    assert len(got) == 720
    assert got[0] == (6, 7, 8, 9, 10, 11)
    assert got[1] == (6, 7, 8, 9, 11, 10)
    assert got[5] == (6, 7, 8, 11, 10, 9)
    assert got[12] == (6, 7, 10, 8, 9, 11)
    assert got[23] == (6, 7, 11, 10, 9, 8)
    assert got[24][:3] == (6, 8, 7)
    assert got[719] == (11, 10, 9, 8, 7, 6)


def _letters(s1, s2, n, keep1, keep2):
    """The order of the exchanges whose parts appear in a printed matrix."""
    order = [(a, b) for a, b in exchanges(s1, s2, n) if set(a) in keep1 and set(b) in keep2]
    return {
        (frozenset(a), frozenset(b)): "abcdefghijklmnopqr"[i + (0 if n == 1 else 9)] for i, (a, b) in enumerate(order)
    }


@pytest.mark.rule("000 D2")
def test_seed000_d2_one_player_matrix():
    # rows S2 5, 6, 7; columns S1 4, 3, 2
    matrix = {5: "acf", 6: "beh", 7: "dgi"}
    got = _letters([1, 2, 3, 4], [5, 6, 7, 8], 1, [{4}, {3}, {2}], [{5}, {6}, {7}])
    for row, letters in matrix.items():
        for col, letter in zip((4, 3, 2), letters, strict=True):
            assert got[(frozenset({col}), frozenset({row}))] == letter


@pytest.mark.rule("000 D2")
def test_seed000_d2_two_player_matrix():
    cols = [{3, 4}, {2, 4}, {2, 3}]
    rows = {(5, 6): "jlo", (5, 7): "knq", (6, 7): "mpr"}
    got = _letters([1, 2, 3, 4], [5, 6, 7, 8], 2, cols, [set(r) for r in rows])
    for row, letters in rows.items():
        for col, letter in zip(cols, letters, strict=True):
            assert got[(frozenset(col), frozenset(row))] == letter


@pytest.mark.rule("000 D2")
def test_seed000_d2_odd_group_lowers_every_number_by_one():
    # 7 players: S1 = 1, 2, 3; S2 = 4..7; the matrix with every number one lower.
    first = list(islice(exchanges([1, 2, 3], [4, 5, 6, 7], 1), 3))
    assert first == [((3,), (4,)), ((3,), (5,)), ((2,), (4,))]


SEED002_ONE = [  # rows S2 6..11, columns S1 5, 4, 3, 2, 1
    [1, 3, 6, 10, 15],
    [2, 5, 9, 14, 20],
    [4, 8, 13, 19, 24],
    [7, 12, 18, 23, 27],
    [11, 17, 22, 26, 29],
    [16, 21, 25, 28, 30],
]

SEED002_TWO_COLS = [(5, 4), (5, 3), (5, 2), (5, 1), (4, 3), (4, 2), (4, 1), (3, 2), (3, 1), (2, 1)]
SEED002_TWO = {
    (6, 7): [1, 3, 7, 14, 8, 16, 28, 29, 45, 65],
    (6, 8): [2, 6, 13, 24, 15, 27, 43, 44, 64, 85],
    (6, 9): [4, 11, 22, 37, 25, 41, 60, 62, 83, 104],
    (6, 10): [9, 20, 35, 53, 39, 58, 79, 81, 102, 120],
    (6, 11): [17, 32, 50, 71, 55, 76, 96, 99, 117, 132],
    (7, 8): [5, 12, 23, 38, 26, 42, 61, 63, 84, 105],
    (7, 9): [10, 21, 36, 54, 40, 59, 80, 82, 103, 121],
    (7, 10): [18, 33, 51, 72, 56, 77, 97, 100, 118, 133],
    (7, 11): [30, 48, 69, 90, 74, 94, 113, 115, 130, 141],
    (8, 9): [19, 34, 52, 73, 57, 78, 98, 101, 119, 134],
    (8, 10): [31, 49, 70, 91, 75, 95, 114, 116, 131, 142],
    (8, 11): [46, 67, 88, 108, 92, 111, 126, 128, 139, 146],
    (9, 10): [47, 68, 89, 109, 93, 112, 127, 129, 140, 147],
    (9, 11): [66, 87, 107, 123, 110, 125, 137, 138, 145, 149],
    (10, 11): [86, 106, 122, 135, 124, 136, 143, 144, 148, 150],
}
S1 = [1, 2, 3, 4, 5]
S2 = [6, 7, 8, 9, 10, 11]


@pytest.mark.rule("002 D2")
def test_seed002_d2_one_player_table_all_30():
    got = {pair: i + 1 for i, pair in enumerate(exchanges(S1, S2, 1))}
    assert len(got) == 30
    for r, row in enumerate(SEED002_ONE):
        for c, number in enumerate(row):
            assert got[((5 - c,), (6 + r,))] == number


@pytest.mark.rule("002 D2")
def test_seed002_d2_two_player_table_all_150():
    got = {pair: i + 1 for i, pair in enumerate(exchanges(S1, S2, 2))}
    assert len(got) == 150
    for s2, row in SEED002_TWO.items():
        for s1, number in zip(SEED002_TWO_COLS, row, strict=True):
            assert got[(s1, s2)] == number


@pytest.mark.rule("002 D2")
def test_seed002_d2_difference_numbers_of_the_worked_lines():
    two = list(islice(exchanges(S1, S2, 2), 6))
    assert [sum(b) - sum(a) for a, b in two] == [4, 5, 5, 6, 6, 6]
    three = list(islice(exchanges(S1, S2, 3), 6))
    assert three == [
        ((5, 4, 3), (6, 7, 8)),
        ((5, 4, 3), (6, 7, 9)),
        ((5, 4, 2), (6, 7, 8)),
        ((5, 4, 3), (6, 7, 10)),
        ((5, 4, 3), (6, 8, 9)),
        ((5, 4, 2), (6, 7, 9)),
    ]
    assert [sum(b) - sum(a) for a, b in three] == [9, 10, 10, 11, 11, 11]


@pytest.mark.rule("002 D2")
def test_seed002_d2_lists_of_three_player_parts():
    assert s1_parts(S1, 3) == [
        (5, 4, 3),
        (5, 4, 2),
        (5, 4, 1),
        (5, 3, 2),
        (5, 3, 1),
        (5, 2, 1),
        (4, 3, 2),
        (4, 3, 1),
        (4, 2, 1),
        (3, 2, 1),
    ]
    parts = s2_parts(S2, 3)
    assert len(parts) == 20 and parts[:5] == [(6, 7, 8), (6, 7, 9), (6, 7, 10), (6, 7, 11), (6, 8, 9)]
    assert parts[-1] == (9, 10, 11)


def test_all_exchanges_tries_one_player_before_two():
    sizes = [len(a) for a, _ in all_exchanges([1, 2], [3, 4])]
    assert sizes == [1, 1, 1, 1, 2]


@pytest.mark.rule("002 D3")
def test_seed002_d3_floater_subsets():
    assert floater_subsets(5, 5) == [(1, 2, 3, 4, 5)]
    assert floater_subsets(5, 4) == [(1, 2, 3, 4), (1, 2, 3, 5), (1, 2, 4, 5), (1, 3, 4, 5), (2, 3, 4, 5)]
    three = floater_subsets(5, 3)
    assert three[0] == (1, 2, 3) and three[3] == (1, 3, 4) and three[-1] == (3, 4, 5) and len(three) == 10
    assert floater_subsets(5, 2)[:5] == [(1, 2), (1, 3), (1, 4), (1, 5), (2, 3)]
    assert floater_subsets(5, 1) == [(1,), (2,), (3,), (4,), (5,)]
