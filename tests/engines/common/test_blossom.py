"""The exact maximum-weight matching (`pairing/engines/blossom.py`) against exhaustive search."""

from __future__ import annotations

import random
from functools import cache

import pytest
import rustworkx

from pairing.engines import matching
from pairing.engines.blossom import max_weight_matching


def best_by_search(n: int, edges: list[tuple[int, int, int]]) -> int:
    """The largest total weight of any matching, by trying every matching (small graphs only)."""
    weight = {}
    for a, b, w in edges:
        weight[(a, b)] = weight[(b, a)] = w

    @cache
    def best(free: frozenset[int]) -> int:
        if not free:
            return 0
        v = min(free)
        rest = free - {v}
        value = best(rest)  # v stays unmatched
        for u in rest:
            if (v, u) in weight:
                value = max(value, weight[(v, u)] + best(rest - {u}))
        return value

    return best(frozenset(range(n)))


def total(mate: list[int], edges: list[tuple[int, int, int]]) -> int:
    weight = {}
    for a, b, w in edges:
        weight[(a, b)] = weight[(b, a)] = w
    for v, m in enumerate(mate):
        assert m == -1 or mate[m] == v, "the partner relation is symmetric"
        assert m == -1 or (v, m) in weight, "only edges of the graph are used"
    return sum(weight[(v, m)] for v, m in enumerate(mate) if m > v)


def random_graph(rng: random.Random, n: int) -> list[tuple[int, int, int]]:
    density = rng.random()
    style = rng.randrange(4)
    edges = []
    for a in range(n):
        for b in range(a + 1, n):
            if rng.random() < density:
                if style == 0:
                    w = rng.randint(1, 10)
                elif style == 1:
                    w = rng.randint(1, 2)  # many ties: many blossoms
                elif style == 2:
                    w = rng.randint(1, 9) << rng.randint(0, 400)  # criteria fields far apart
                else:
                    w = (1 << 300) + rng.randint(0, 3)  # wider than 128 bits, nearly equal
                edges.append((a, b, w))
    return edges


@pytest.mark.parametrize("seed", range(8))
def test_optimal_on_small_graphs(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(250):
        n = rng.randint(1, 11)
        edges = random_graph(rng, n)
        assert total(max_weight_matching(n, edges), edges) == best_by_search(n, edges)


def test_odd_cycles_nested_into_blossoms() -> None:
    """Two triangles joined by a path: the optimum needs blossoms shrunk and expanded again."""
    edges = [(0, 1, 8), (1, 2, 9), (0, 2, 10), (2, 3, 7), (3, 4, 6), (4, 5, 8), (5, 6, 9), (4, 6, 10), (6, 7, 3)]
    mate = max_weight_matching(8, edges)
    # 0-1, 2-3, 4-5, 6-7: 8 + 7 + 8 + 3; taking either triangle's heaviest edge loses more.
    assert mate == [1, 0, 3, 2, 5, 4, 7, 6]
    assert total(mate, edges) == best_by_search(8, edges) == 26


def test_a_heavier_single_edge_beats_two_lighter_pairs() -> None:
    """Maximum weight, not maximum cardinality: 0-1-2-3 with the middle edge heaviest."""
    edges = [(0, 1, 2), (1, 2, 5), (2, 3, 2)]
    assert max_weight_matching(4, edges) == [-1, 2, 1, -1]


def test_agrees_with_rustworkx_on_larger_graphs() -> None:
    """Where weights fit rustworkx's integers, both give the same total on graphs too big to search."""
    rng = random.Random(99)
    for _ in range(30):
        n = rng.randint(20, 70)
        edges = [(a, b, rng.randint(1, 50)) for a in range(n) for b in range(a + 1, n) if rng.random() < 0.3]
        graph = rustworkx.PyGraph()
        graph.add_nodes_from(range(n))
        graph.add_edges_from(edges)
        weight = {(a, b): w for a, b, w in edges}
        expected = sum(weight[min(a, b), max(a, b)] for a, b in rustworkx.max_weight_matching(graph, weight_fn=int))
        assert total(max_weight_matching(n, edges), edges) == expected


def test_dispatcher_keeps_vertex_names_and_wide_weights_exact() -> None:
    """`matching.max_weight_matching` takes any vertex names; a 1-unit difference below 2^400
    decides between two otherwise equal pairings."""
    big = 1 << 400
    edges = [(10, 20, big), (30, 40, big), (10, 30, big), (20, 40, big + 1)]
    mate = matching.max_weight_matching([10, 20, 30, 40], edges)
    assert mate == {10: 30, 30: 10, 20: 40, 40: 20}


def test_compacting_weights_keeps_the_order_of_every_matching_total() -> None:
    """Criteria fields far apart squeezed together: every sum of up to `pairs` weights compares
    with every other exactly as before (ties included), and the widths shrink."""
    from itertools import combinations

    from pairing.engines.matching import compact

    rng = random.Random(5)
    for _ in range(300):
        weights = [
            sum(rng.randint(0, 3) << rng.choice([0, 40, 41, 90, 200, 201, 202]) for _ in range(3)) for _ in range(7)
        ]
        pairs = 3
        squeezed = compact(weights, pairs)
        assert max(squeezed).bit_length() <= max(weights).bit_length()
        subsets = [c for r in range(pairs + 1) for c in combinations(range(7), r)]
        before = [sum(weights[i] for i in c) for c in subsets]
        after = [sum(squeezed[i] for i in c) for c in subsets]
        for i in range(len(subsets)):
            for j in range(i + 1, len(subsets)):
                assert (before[i] > before[j]) == (after[i] > after[j])
                assert (before[i] == before[j]) == (after[i] == after[j])
    assert compact([1 << 300, 1 << 150], 1) == [0b100000, 0b100]  # two zero bits of room kept below each run
