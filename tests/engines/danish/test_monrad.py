"""Monrad: seed 004 §4.9.1-4.9.2 and seeds README item 13."""

import itertools
import random

import pytest

from pairing.engines import registry
from pairing.engines.monrad import checkpoint_round, next_round_pairable, placing
from pairing.engines.notes import english
from pairing.engines.state import Board, InvalidInput, Kind, NoValidPairing
from tests.engines.danish.danish_helpers import boards_of, play_rounds, state_of


def pair(state):
    return registry.pair(state, "monrad")


@pytest.mark.rule("004 4.9.1")
def test_round_one_two_has_white_against_one():
    result = pair(state_of(play_rounds(6, [])))
    assert boards_of(result) == [(2, 1), (4, 3), (6, 5)]
    assert result.byes == []


@pytest.mark.rule("004 4.9.1")
def test_reranking_by_points_then_previous_placing_and_colours():
    # Round 1: 2 beats 1, 4-3 drawn, 6 loses to 5.  Points: 2 and 5 one, 3 and 4 a half.
    players = play_rounds(6, [[(2, 1, 1.0), (4, 3, 0.5), (6, 5, 0.0)]])
    state = state_of(players)
    assert placing(state) == [2, 5, 3, 4, 1, 6]
    # 2 v 5; 3 has met 4, so 3 v 1; 4 v 6.  5 has fewer whites; 1 and 3 equal: the lower placed (1)
    # has white; 4 and 6 equal: 6.
    assert boards_of(pair(state)) == [(5, 2), (1, 3), (6, 4)]


@pytest.mark.rule("004 4.9.1")
def test_placing_keeps_previous_order_on_equal_points():
    rounds = [[(2, 1, 0.0), (4, 3, 0.0), (6, 5, 0.0)], [(3, 1, 1.0), (5, 2, 0.5), (4, 6, 0.5)]]
    state = state_of(play_rounds(6, rounds))
    # After round 1: 1, 3, 5 (one point each, lot order), then 2, 4, 6.
    assert placing(state, 1) == [1, 3, 5, 2, 4, 6]
    # Round 2: 3 two points; 5 and 1 ... 1 lost to 3: 1 point, 5 1.5, 2 0.5, 4 0.5, 6 0.5.
    assert placing(state) == [3, 5, 1, 2, 4, 6]


@pytest.mark.rule("004 4.9.1")
@pytest.mark.rule("004 4.9.2")
def test_last_pair_opened_when_the_lowest_cannot_be_paired():
    # All drawn in round 1: placing stays 1..6.  1 v 3 (2 met), 2 v 4, and 5 has met 6:
    # §4.9.2 opens 2-4 and pairs 2, 4, 5, 6 again: 2 v 5, 4 v 6.
    state = state_of(play_rounds(6, [[(2, 1, 0.5), (4, 3, 0.5), (6, 5, 0.5)]]))
    result = pair(state)
    assert boards_of(result) == [(3, 1), (5, 2), (6, 4)]
    assert any("last 1 pair(s)" in line for line in english(result.explanation))


@pytest.mark.rule("004 4.9.1")
def test_two_pairs_opened():
    # 8 players, all drawn, placing 1..8.  Greedy: 1-2, 3-4, 5-6, and 7 has met 8.  Opening 5-6 does
    # not help (5 has met 7 and 8); opening 3-4 too: 3 v 4 fails again, 3 v 5, then 4 v 6 (met),
    # 4 v 7 and 6 v 8.
    rounds = [
        [(7, 8, 0.5), (5, 1, 0.5), (6, 3, 0.5), (2, 4, 0.5)],
        [(5, 7, 0.5), (8, 3, 0.5), (1, 4, 0.5), (2, 6, 0.5)],
        [(5, 8, 0.5), (7, 1, 0.5), (2, 3, 0.5), (4, 6, 0.5)],
    ]
    state = state_of(play_rounds(8, rounds))
    assert placing(state) == list(range(1, 9))
    result = pair(state)
    assert sorted(tuple(sorted(b)) for b in boards_of(result)) == [(1, 2), (3, 5), (4, 7), (6, 8)]
    assert any("last 2 pair(s)" in line for line in english(result.explanation))


def _lexicographically_first(order, met):
    """Brute force: the perfect matching whose pair list, in placing order, is smallest."""
    position = {p: i for i, p in enumerate(order)}
    best = None

    def rec(rest, acc):
        nonlocal best
        if not rest:
            key = [(position[a], position[b]) for a, b in acc]
            if best is None or key < best[0]:
                best = (key, list(acc))
            return
        top = rest[0]
        for other in rest[1:]:
            if other not in met[top]:
                rec([p for p in rest if p not in (top, other)], acc + [(top, other)])

    rec(list(order), [])
    return None if best is None else best[1]


@pytest.mark.rule("004 4.9.1")
@pytest.mark.rule("004 4.9.2")
@pytest.mark.parametrize("seed", range(25))
def test_exchanges_equal_the_first_pairing_in_placing_order(seed):
    # §4.9.2's opening of the last pairs finds the first pairing in placing order.
    rng = random.Random(seed)
    n = 8
    rounds = []
    met = {i: set() for i in range(1, n + 1)}
    for _ in range(4):
        for _attempt in range(200):
            ids = list(range(1, n + 1))
            rng.shuffle(ids)
            pairs = list(zip(ids[::2], ids[1::2], strict=True))
            if all(b not in met[a] for a, b in pairs):
                break
        else:
            break
        for a, b in pairs:
            met[a].add(b)
            met[b].add(a)
        rounds.append([(a, b, rng.choice([0.0, 0.5, 1.0])) for a, b in pairs])
    state = state_of(play_rounds(n, rounds))
    order = placing(state)
    expected = _lexicographically_first(order, met)
    if expected is None:
        with pytest.raises(NoValidPairing):
            pair(state)
        return
    got = pair(state)
    pos = {p: i for i, p in enumerate(order)}
    got_pairs = sorted(tuple(sorted((b.white, b.black), key=pos.__getitem__)) for b in got.boards)
    assert got_pairs == sorted(tuple(p) for p in expected)


@pytest.mark.rule("004 4.9.1")
def test_odd_field_dummy_x_gives_the_lowest_the_bye():
    result = pair(state_of(play_rounds(5, [])))
    assert boards_of(result) == [(2, 1), (4, 3)]
    assert [(b.player, b.kind, b.points) for b in result.byes] == [(5, Kind.PAIRING_BYE, 1.0)]


@pytest.mark.rule("004 4.9.1")
def test_nobody_gets_a_second_bye():
    # Round 1: 2-1, 4-3 drawn, 5 had the bye (1 point): placing 5, 1, 2, 3, 4.
    state = state_of(play_rounds(5, [[(2, 1, 0.5), (4, 3, 0.5), (5, 0, 1.0)]]))
    assert placing(state) == [5, 1, 2, 3, 4]
    result = pair(state)
    # 5 v 1, 2 v 3, and 4 takes X.
    assert [b.player for b in result.byes] == [4]
    assert boards_of(result) == [(1, 5), (3, 2)]


@pytest.mark.rule("004 4.9.1")
def test_even_number_of_withdrawals_leaves_an_even_field():
    rounds = [[(2, 1, 1.0), (4, 3, 1.0), (6, 5, 1.0)]]
    state = state_of(play_rounds(6, rounds, withdrawn={5: 2, 6: 2}))
    result = pair(state)
    assert result.byes == []
    # Placing 2, 4, 6, 1, 3, 5; present 2, 4, 1, 3.
    assert boards_of(result) == [(4, 2), (3, 1)]


@pytest.mark.rule("004 4.9.1")
def test_odd_number_of_withdrawals_first_withdrawn_takes_x_place():
    # Round 1: 2, 4 and 6 win.  6 withdraws: he stands in as X, placed lowest.  Greedy 2-4, 1-3 leaves
    # 5 with X = 6, whom he met: 1-3 is opened; 1 v 5, 3 takes X (the bye).
    rounds = [[(2, 1, 1.0), (4, 3, 1.0), (6, 5, 1.0)]]
    state = state_of(play_rounds(6, rounds, withdrawn={6: 2}))
    result = pair(state)
    assert boards_of(result) == [(4, 2), (5, 1)]
    assert [b.player for b in result.byes] == [3]
    assert any("withdrawn player 6" in line for line in english(result.explanation))


@pytest.mark.rule("004 4.9.1")
def test_three_withdrawals_the_first_of_them_is_x():
    rounds = [[(2, 1, 1.0), (4, 3, 1.0), (6, 5, 1.0), (8, 7, 1.0)]]
    players = play_rounds(8, rounds, withdrawn={8: 2, 7: 3, 6: 3})
    state = state_of(players)
    result = pair(state)
    # Present 2, 4, 1, 3, 5 (placing); X = 8 (withdrew first), met by 7 only: 5 takes the bye.
    assert boards_of(result) == [(4, 2), (3, 1)]
    assert [b.player for b in result.byes] == [5]


@pytest.mark.rule("004 4.9.1")
def test_no_pairing_without_a_repeat_raises():
    rounds = [[(2, 1, 0.5), (4, 3, 0.5)], [(1, 3, 0.5), (2, 4, 0.5)], [(1, 4, 0.5), (2, 3, 0.5)]]
    with pytest.raises(NoValidPairing):
        pair(state_of(play_rounds(4, rounds)))


@pytest.mark.rule("004 4.9.1")
def test_checkpoint_rounds_of_section_4_9_2():
    assert [checkpoint_round(n) for n in (6, 8, 10, 12, 14, 16)] == [3, 4, 5, 6, 7, 8]
    assert checkpoint_round(4) is None and checkpoint_round(18) is None
    assert checkpoint_round(7) == 4


@pytest.mark.rule("004 4.9.1")
def test_lookahead_detects_an_unpairable_next_round():
    # 6 players: if rounds 1-3 pair every odd with every even number, round 4 is impossible.
    rounds = [[(2, 1, 0.5), (4, 3, 0.5), (6, 5, 0.5)], [(1, 4, 0.5), (3, 6, 0.5), (5, 2, 0.5)]]
    state = state_of(play_rounds(6, rounds))
    assert not next_round_pairable(state, [Board(1, 6), Board(2, 3), Board(5, 4)], [])
    assert next_round_pairable(state, [Board(1, 3), Board(2, 4), Board(5, 6)], [])


@pytest.mark.rule("004 4.9.1")
@pytest.mark.rule("004 4.9.2")
def test_lookahead_warning_in_the_explanation():
    # Round 1 all drawn; round 2: 1-3, 2-5, 4-6 drawn.  Round 3: 1 v 4, 2 v 3, 5 v 6?  5-6 met:
    # the engine pairs 1-4, 2-6, 3-5, which leaves round 4 pairable.
    rounds = [[(2, 1, 0.5), (4, 3, 0.5), (6, 5, 0.5)], [(3, 1, 0.5), (5, 2, 0.5), (6, 4, 0.5)]]
    result = pair(state_of(play_rounds(6, rounds), total_rounds=5))
    assert any(line.startswith("Check of §4.9.2") for line in english(result.explanation))
    # The odd/even trap: rounds 1 and 2 pair odd against even; results make round 3 odd v even too.
    trap = [[(2, 1, 1.0), (4, 3, 1.0), (6, 5, 1.0)], [(1, 4, 1.0), (3, 6, 1.0), (5, 2, 1.0)]]
    state = state_of(play_rounds(6, trap), total_rounds=5)
    result = pair(state)
    pairs = {frozenset(b) for b in boards_of(result)}
    odd_even = all(len({x % 2 for x in p}) == 2 for p in pairs)
    assert odd_even == any(line.startswith("WARNING") for line in english(result.explanation))


@pytest.mark.rule("004 4.9.1")
def test_settings_are_validated():
    state = state_of(play_rounds(4, []), lookahead="yes")
    with pytest.raises(InvalidInput):
        pair(state)
    with pytest.raises(InvalidInput):
        pair(state_of(play_rounds(4, []), colour="x"))


@pytest.mark.rule("004 4.9.1")
def test_deterministic():
    rounds = [[(2, 1, 1.0), (4, 3, 0.0), (6, 5, 0.5)]]
    first = pair(state_of(play_rounds(6, rounds)))
    again = pair(state_of(play_rounds(6, rounds)))
    assert first == again
    assert list(itertools.chain.from_iterable(boards_of(first)))
