"""The compiled matcher (`pairing/engines/matcher.cpp`) against the Python one (`blossom.py`).

Both are exact maximum-weight matchings, so on every graph their matchings weigh the same (the
matchings themselves may differ where several are optimal). The compiled one is also solved again
after weights change, starting from its previous optimum: after every change it must weigh what a
solve from scratch weighs, and its duals must still prove it optimal (`certified`).
"""

from __future__ import annotations

import random

import pytest

from pairing.engines import blossom, matching
from pairing.engines.matching import Matcher, PyMatcher

from .test_blossom import best_by_search, total


def test_the_compiled_matcher_is_built() -> None:
    """`make setup` compiles it (pip install -e .); without it the engines run on blossom.py."""
    assert matching.COMPILED, "pairing/engines/_matcher is not built: run `make setup`"


def weight(rng: random.Random, bits: int, style: int) -> int:
    if style == 0:  # any value of the width
        return rng.randint(1, (1 << bits) - 1)
    if style == 1:  # criteria fields: few values in a few far-apart fields, many ties
        w = 0
        for _ in range(3):
            w |= rng.randint(0, 3) << rng.randrange(max(1, bits - 2))
        return w or 1
    if style == 2:  # nearly equal: the top bit and a tiny difference
        return (1 << (bits - 1)) + rng.randint(0, 3)
    return rng.randint(1, 2) << (bits - 2 if bits > 2 else 0)  # two values: many blossoms


def random_edges(rng: random.Random, n: int, bits: int, density: float) -> list[tuple[int, int, int]]:
    style = rng.randrange(4)
    return [(a, b, weight(rng, bits, style)) for a in range(n) for b in range(a + 1, n) if rng.random() < density]


def python_total(n: int, edges: list[tuple[int, int, int]]) -> int:
    live = [e for e in edges if e[2] > 0]
    return total(blossom.max_weight_matching(n, live), live)


def compiled(n: int, edges: list[tuple[int, int, int]]) -> Matcher:
    bits = max((w.bit_length() for _, _, w in edges), default=1)
    solver = Matcher(n, bits)
    solver.set_values(edges)
    return solver


@pytest.mark.parametrize("bits", [8, 64, 127, 300, 1000, 4000])
@pytest.mark.parametrize("density", [0.1, 0.5, 1.0])
def test_same_weight_as_the_python_matcher(bits: int, density: float) -> None:
    rng = random.Random(bits * 10 + int(density * 10))
    for _ in range(12 if bits < 1000 else 5):
        n = rng.randint(2, 40)
        edges = random_edges(rng, n, bits, density)
        solver = compiled(n, edges)
        mate = solver.solve()
        assert total(mate, edges) == python_total(n, edges)
        assert solver.certified()


def test_optimal_on_small_graphs_by_exhaustive_search() -> None:
    rng = random.Random(3)
    for _ in range(400):
        n = rng.randint(1, 10)
        edges = random_edges(rng, n, rng.choice([8, 70, 200]), rng.random())
        assert total(compiled(n, edges).solve(), edges) == best_by_search(n, edges)


def test_wider_than_a_machine_word_a_one_unit_difference_decides() -> None:
    big = 1 << 3000
    edges = [(0, 1, big), (2, 3, big), (0, 2, big), (1, 3, big + 1)]
    assert compiled(4, edges).solve() == [2, 3, 0, 1]


@pytest.mark.parametrize("seed", range(6))
def test_solved_again_after_changes_weighs_as_a_solve_from_scratch(seed: int) -> None:
    """Changes at one vertex or several, up and down, edges taken out and added, vertices taken out
    and put back: after each, the warm solve weighs what a cold solve of the same graph weighs."""
    rng = random.Random(seed)
    bits = rng.choice([8, 60, 200, 1500])
    n = rng.randint(6, 36)
    edges = random_edges(rng, n, bits, rng.choice([0.3, 0.8]))
    current = {(a, b): w for a, b, w in edges}
    solver = compiled(n, edges)
    solver.solve()
    out: set[int] = set()
    for _ in range(40):
        move = rng.randrange(4)
        if move == 0:  # one vertex's edges re-weighed
            v = rng.randrange(n)
            change = [(min(v, o), max(v, o), weight(rng, bits, rng.randrange(4)) * rng.randrange(2)) for o in range(n)]
            change = [e for e in change if e[0] != e[1] and e[0] not in out and e[1] not in out]
        elif move == 1:  # a few edges anywhere
            change = []
            for _ in range(rng.randint(1, 5)):
                a, b = sorted(rng.sample(range(n), 2))
                if a not in out and b not in out:
                    change.append((a, b, weight(rng, bits, rng.randrange(4)) * rng.randrange(2)))
        elif move == 2:  # a matched pair leaves the graph
            mate = solver.solve()
            pairs = [(v, m) for v, m in enumerate(mate) if v < m]
            if pairs:
                gone = list(rng.choice(pairs))
                solver.remove(gone)
                out.update(gone)
            change = []
        else:  # a vertex leaves, or comes back with the weights it had
            change = []
            v = rng.randrange(n)
            if v in out:
                continue
            solver.remove([v])
            out.add(v)
        solver.set_values(change)
        for a, b, w in change:
            current[(a, b)] = w
        live = [(a, b, w) for (a, b), w in current.items() if w and a not in out and b not in out]
        mate = solver.solve()
        assert all(mate[v] == -1 for v in out)
        assert total(mate, live) == python_total(n, live)
        assert solver.certified()


@pytest.mark.parametrize("seed", range(4))
def test_graphs_by_classes_with_deltas(seed: int) -> None:
    """A graph given by vertex classes and barred pairs, then changed by deltas per vertex and by
    vertices taken out and put back, against the same graph given edge by edge."""
    rng = random.Random(seed)
    n = rng.randint(8, 40)
    bits = rng.choice([20, 130, 700])
    size = rng.randint(1, 5)
    table = [rng.randint(0, 1 << bits) if rng.random() < 0.9 else 0 for _ in range(size * size)]
    for i in range(size):  # deltas need room below the class weights
        for j in range(size):
            table[i * size + j] <<= 8
    order = rng.sample(range(n), n)
    members = order[: rng.randint(2, n)]
    classes = [rng.randrange(size) for _ in members]
    position = {v: i for i, v in enumerate(members)}
    barred = [tuple(rng.sample(members, 2)) for _ in range(rng.randint(0, n))]
    barred_set = {frozenset(p) for p in barred}

    def class_weight(a: int, b: int) -> int:
        h, lo = (a, b) if position[a] < position[b] else (b, a)
        return table[classes[position[h]] * size + classes[position[lo]]]

    current = {
        (min(a, b), max(a, b)): class_weight(a, b)
        for i, a in enumerate(members)
        for b in members[i + 1 :]
        if frozenset((a, b)) not in barred_set
    }
    for kind in (Matcher, PyMatcher):
        solver = kind(n, bits + 8)
        solver.build_classes(members, classes, table, barred)
        live = {k: w for k, w in current.items()}
        out: set[int] = set()
        assert total(solver.solve(), [(a, b, w) for (a, b), w in live.items() if w]) == python_total(
            n, [(a, b, w) for (a, b), w in live.items()]
        )
        for step in range(25):
            if step % 5 == 4:
                back = sorted(out)
                solver.restore(back)
                out.clear()
                for a, b in live:
                    if a in back or b in back:
                        live[(a, b)] = class_weight(a, b)
            elif step % 5 == 3:
                gone = rng.sample(members, min(2, len(members)))
                solver.remove(gone)
                out.update(gone)
            else:
                v = rng.choice(members)
                others = [o for o in members if o != v]
                deltas = [None if rng.random() < 0.1 else rng.randint(-200, 200) for _ in others]
                solver.set_deltas(v, others, deltas)
                if v not in out:
                    for o, d in zip(others, deltas, strict=True):
                        key = (min(v, o), max(v, o))
                        if key in current and o not in out:
                            w = class_weight(v, o)
                            live[key] = 0 if d is None or not w else max(0, w + d)
            edges = [(a, b, w) for (a, b), w in live.items() if w and a not in out and b not in out]
            mate = solver.solve()
            assert total(mate, edges) == python_total(n, edges)
            if kind is Matcher:
                assert solver.certified()


def test_bad_input_is_refused_with_a_message() -> None:
    solver = Matcher(3, 10)
    with pytest.raises(matching.MatcherError):
        solver.set_values([(0, 0, 5)])
    with pytest.raises(matching.MatcherError):
        solver.set_values([(0, 1, 1 << 200)])
    with pytest.raises(matching.MatcherError):
        solver.build_classes([0, 1], [0, 1], [1, 2, 3], [])


def test_a_change_at_one_vertex_costs_a_few_augmentations() -> None:
    """Solved again from the previous optimum. A change of one vertex's edges frees at most that
    vertex, its partner and its blossom's partner, so it costs at most three stages (one
    augmentation each). Raising every edge of a matched vertex alike keeps the optimum: unless the
    vertex had to leave a blossom (two stages at most), the solve needs no stage at all."""
    rng = random.Random(11)
    n = 60
    edges = random_edges(rng, n, 200, 0.7)
    solver = compiled(n, edges)
    kept = 0
    for _ in range(30):
        mate = solver.solve()
        v = rng.choice([x for x in range(n) if mate[x] != -1])
        stages, solves, idle = solver.stats()
        # Each edge changed is listed from v: v's dual is the one recomputed.
        solver.set_values([(v, a + b - v, w + 5) for a, b, w in edges if v in (a, b)])
        raised = [(a, b, w + 5) if v in (a, b) else (a, b, w) for a, b, w in edges]
        assert total(solver.solve(), raised) == total(mate, edges) + 5
        assert solver.stats()[0] - stages <= 2
        kept += solver.stats()[2] - idle
        edges = raised
        stages = solver.stats()[0]
        changed = [(v, a + b - v, weight(rng, 200, 0)) for a, b, w in edges if v in (a, b)]
        solver.set_values(changed)
        mate = solver.solve()
        assert solver.stats()[0] - stages <= 3
        edges = [e for e in edges if v not in (e[0], e[1])] + changed
        assert total(mate, edges) == python_total(n, edges)
        assert solver.certified()
    assert kept >= 15  # half of them: the others left a blossom
