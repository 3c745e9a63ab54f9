"""Whether players can be paired at all: exact matching tests under B1/B2 (`Lookahead`) and under a
level's criteria (`level_possible`), so that the search never walks an order that must fail.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import rustworkx as rx

from .criteria import absolute_ok
from .players import Entrant, Rules


class Lookahead:
    """Can these players all be paired under B1/B2, with at most one bye for a player allowed one?"""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.cache: dict[frozenset[int], bool] = {}

    def even(self, players: Sequence[Entrant]) -> bool:
        """All of `players` (an even number) can be paired under B1/B2."""
        return len(players) % 2 == 0 and self(players)

    def __call__(self, players: Sequence[Entrant]) -> bool:
        key = frozenset(e.id for e in players)
        if key not in self.cache:
            self.cache[key] = self._greedy(players) or self._exact(players)
        return self.cache[key]

    def _greedy(self, players: Sequence[Entrant]) -> bool:
        """Two quick tries (each one a proof when it succeeds): every player from the top with the
        next one he may meet, then with the last one he may meet."""
        left = sorted(players, key=lambda e: e.key)
        return self._greedy_order(left, False) or self._greedy_order(left, True)

    def _greedy_order(self, left: list[Entrant], from_bottom: bool) -> bool:
        n = len(left)
        free = [True] * n
        for i, a in enumerate(left):
            if not free[i]:
                continue
            free[i] = False
            others = range(n - 1, i, -1) if from_bottom else range(i + 1, n)
            for j in others:
                if free[j] and absolute_ok(a, left[j], self.rules):
                    free[j] = False
                    break
            else:
                if n % 2 == 0 or not a.bye_ok or any(free):
                    return False
        return True

    def _exact(self, players: Sequence[Entrant]) -> bool:
        g: rx.PyGraph = rx.PyGraph()
        g.add_nodes_from(range(len(players)))
        for i, a in enumerate(players):
            for j in range(i + 1, len(players)):
                if absolute_ok(a, players[j], self.rules):
                    g.add_edge(i, j, 1)
        if len(players) % 2:
            d = g.add_node(-1)
            for i, a in enumerate(players):
                if a.bye_ok:
                    g.add_edge(i, d, 1)
        m = rx.max_weight_matching(g, max_cardinality=True, weight_fn=lambda w: w)
        return 2 * len(m) == g.num_nodes()


def level_possible(
    players: Sequence[Entrant],
    pairs: int,
    ok: Callable[[Entrant, Entrant], bool],
    may_stay: Callable[[Entrant], bool],
    bad: Callable[[Entrant, Entrant], bool],
    budget: int,
) -> bool:
    """Is there any set of `pairs` pairs among `players` using `ok` pairs, leaving only players
    `may_stay` unpaired, with at most `budget` pairs for which `bad` holds? Exact maximum weight
    matching: a necessary condition for every structured candidate (S1 against S2) of the group."""
    n = len(players)
    leftover = n - 2 * pairs
    if leftover < 0:
        return False
    g: rx.PyGraph = rx.PyGraph()
    g.add_nodes_from(range(n))
    big = 4 * n + 4
    for i, a in enumerate(players):
        for j in range(i + 1, n):
            b = players[j]
            if ok(a, b):
                g.add_edge(i, j, big + (0 if bad(a, b) else 1))
    for _ in range(leftover):
        d = g.add_node(-1)
        for i, a in enumerate(players):
            if may_stay(a):
                g.add_edge(i, d, big + 1)
    m = rx.max_weight_matching(g, max_cardinality=True, weight_fn=lambda w: w)
    if 2 * len(m) != g.num_nodes():
        return False
    misses = sum(1 for u, v in m if u < n and v < n and bad(players[u], players[v]))
    return misses <= budget
