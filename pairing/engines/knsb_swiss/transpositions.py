"""The orders of seed 000/002 D1 (transpositions of S2, walked position by position with exact cuts)
and D2 (exchanges between S1 and S2).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import NamedTuple

import rustworkx as rx

from ..knsb_orders import all_exchanges
from ..notes import Note, note_text
from ..state import Colour
from .context import Context, Mode, pair_ok
from .criteria import Level, absolute_ok, conflict, strong_conflict
from .players import Entrant

# The exchange of D2 that made S1 and S2, for the explanation.
_D2 = note_text("knsb.d2", "D2 exchange of %(out)s with %(into)s")


def transpositions(
    ctx: Context,
    s1: list[Entrant],
    s2: list[Entrant],
    level: Level,
    may_stay: Callable[[Entrant], bool],
    spent: tuple[int, int] = (0, 0),
) -> Iterator[tuple[list[tuple[Entrant, Entrant]], list[Entrant], tuple[int, int]]]:
    """Seed 000 C6/C7 with D1, seed 002 C6/C7 with D1.1/D1.2: S1[i] against the i-th player of a
    transposition of S2, transpositions in lexicographic order; only the first |S1| places matter.

    Yields (pairs, S2 players left over, (colour misses, strong-preference misses)). `spent`: the
    misses of pairs made earlier in the same group (seed 002: X and Z count over the whole group).
    Prefixes that cannot be completed (bipartite matching with the leftover slots) or that already
    exceed x (and, in even rounds of seed 002, z) are cut; nothing the text reaches first is lost.
    """
    p, m = len(s1), len(s2)
    search = _search(ctx, s1, s2, level, may_stay, spent)
    if search is None:
        return
    adj, comp, budget, below, used, miss_of, zmiss_of, x_left, z_left = search
    chosen: list[int] = []
    white1, black1, free2 = _colour_counts(s1, s2)

    def bound(i: int) -> int:
        """Fewest misses among S1[i:]: a white-preferring player avoids one only against a player
        without a white preference, and so on (counting only; a lower bound)."""
        w2, b2, n2 = free2[Colour.WHITE], free2[Colour.BLACK], free2[None]
        good = min(white1[i], b2 + n2) + min(black1[i], w2 + n2)
        return white1[i] + black1[i] - min(good, w2 + b2 + n2)

    def walk(
        i: int, misses: int, zmisses: int
    ) -> Iterator[tuple[list[tuple[Entrant, Entrant]], list[Entrant], tuple[int, int]]]:
        if i == p:
            yield (
                [(s1[k], s2[j]) for k, j in enumerate(chosen)],
                [s2[j] for j in range(m) if not used[j]],
                (misses, zmisses),
            )
            return
        row, zrow = miss_of[i], zmiss_of[i]
        for j in adj[i]:
            if used[j]:
                continue
            miss = misses + row[j]
            if miss > x_left:
                continue
            zmiss = zmisses + zrow[j]
            if z_left is not None and zmiss > z_left:
                continue
            colour = s2[j].pref
            free2[colour] -= 1
            if miss + bound(i + 1) > x_left:
                free2[colour] += 1
                continue
            token = comp.fix(i, j)
            if token is None:
                free2[colour] += 1
                continue
            used[j] = True
            budget.visits += 1
            if budget.visits > _VISITS_BEFORE_EXACT and (
                not budget.possible(i + 1, x_left - miss, None if z_left is None else z_left - zmiss)
                or (below is not None and not below.possible(i + 1))
            ):
                used[j] = False
                free2[colour] += 1
                comp.unfix(i, token)
                continue
            chosen.append(j)
            yield from walk(i + 1, miss, zmiss)
            chosen.pop()
            used[j] = False
            free2[colour] += 1
            comp.unfix(i, token)

    yield from walk(0, 0, 0)


class _Search(NamedTuple):
    adj: list[list[int]]
    comp: Completion
    budget: Budget
    below: BelowCut | None
    used: list[bool]
    miss_of: list[list[int]]
    zmiss_of: list[list[int]]
    x_left: int
    z_left: int | None


def _search(
    ctx: Context,
    s1: list[Entrant],
    s2: list[Entrant],
    level: Level,
    may_stay: Callable[[Entrant], bool],
    spent: tuple[int, int],
) -> _Search | None:
    """What the walk of `transpositions` needs: who may meet whom, the completion check, the miss
    budgets and the cut below; None when no transposition can be completed within the limits."""
    p, m = len(s1), len(s2)
    if p > m:
        return None
    adj = [[j for j in range(m) if pair_ok(ctx, level, a, s2[j])] for a in s1]
    stay = [may_stay(b) for b in s2]
    comp = Completion(p, m, adj, stay)
    if not comp.start():
        return None
    x_left = level.x - spent[0]
    z_left = None if level.z is None else level.z - spent[1]
    used = [False] * m
    miss_of = [[conflict(a, b) for b in s2] for a in s1]
    zmiss_of = [[strong_conflict(a, b) for b in s2] for a in s1]
    budget = Budget(adj, stay, miss_of, zmiss_of, used)
    if not budget.possible(0, x_left, z_left):
        return None
    below = BelowCut(ctx, s2, adj, stay, used) if ctx.mode == Mode.GO_BACK and not ctx.last else None
    if below is not None and not below.possible(0):
        return None
    return _Search(adj, comp, budget, below, used, miss_of, zmiss_of, x_left, z_left)


def _colour_counts(s1: list[Entrant], s2: list[Entrant]) -> tuple[list[int], list[int], dict[Colour | None, int]]:
    """Colour counts for the bound on the misses still to come: the white and black preferences of
    S1 from each position on, and the S2 players by preference."""
    p = len(s1)
    white1 = [0] * (p + 1)
    black1 = [0] * (p + 1)
    for i in range(p - 1, -1, -1):
        white1[i] = white1[i + 1] + (s1[i].pref is Colour.WHITE)
        black1[i] = black1[i + 1] + (s1[i].pref is Colour.BLACK)
    free2: dict[Colour | None, int] = {Colour.WHITE: 0, Colour.BLACK: 0, None: 0}
    for b in s2:
        free2[b.pref] += 1
    return white1, black1, free2


# The exact test runs at every prefix only once a walk has taken this many steps (it is costly, and
# most walks end quickly).
_VISITS_BEFORE_EXACT = 64


class Completion:
    """Exact test: can S1 positions i.. still be given distinct S2 partners (and the S2 players left
    over all be allowed to float), given the partners fixed so far? Kuhn's augmenting paths over a
    matching kept from step to step."""

    def __init__(self, left: int, right: int, adj: list[list[int]], stay: list[bool]) -> None:
        # Left nodes: S1 positions 0..left-1, then one "leftover slot" per S2 player not paired.
        self.slots = right - left
        self.adj = adj + [[j for j in range(right) if stay[j]] for _ in range(self.slots)]
        self.nl = left + self.slots
        self.match_r = [-1] * right
        self.match_l = [-1] * self.nl
        self.fixed = [False] * self.nl
        self.blocked = [False] * right

    def _augment(self, u: int, seen: list[bool]) -> bool:
        for v in self.adj[u]:
            if self.blocked[v] or seen[v]:
                continue
            seen[v] = True
            w = self.match_r[v]
            if w == -1 or (not self.fixed[w] and self._augment(w, seen)):
                self.match_r[v] = u
                self.match_l[u] = v
                return True
        return False

    def start(self) -> bool:
        right = len(self.match_r)
        for u in range(self.nl):  # a greedy matching first, then augmenting paths for the rest
            for v in self.adj[u]:
                if self.match_r[v] == -1:
                    self.match_r[v] = u
                    self.match_l[u] = v
                    break
        return all(self.match_l[u] != -1 or self._augment(u, [False] * right) for u in range(self.nl))

    def fix(self, u: int, v: int) -> list[tuple[list[int], list[int]]] | None:
        """Fix S1 position u to S2 player v; None (state unchanged) when the rest becomes impossible."""
        saved = (self.match_l[:], self.match_r[:])
        if self.match_l[u] != v:
            w = self.match_r[v]
            old = self.match_l[u]
            self.match_l[u] = -1
            if old != -1:
                self.match_r[old] = -1
            self.match_r[v] = u
            self.match_l[u] = v
            if w != -1:
                self.match_l[w] = -1
                self.blocked[v] = True
                ok = self._augment(w, [False] * len(self.match_r))
                self.blocked[v] = False
                if not ok:
                    self.match_l, self.match_r = saved
                    return None
        self.fixed[u] = True
        return [saved]

    def unfix(self, u: int, token: list[tuple[list[int], list[int]]]) -> None:
        self.fixed[u] = False
        self.match_l, self.match_r = token[0]


@dataclass
class Budget:
    """Can S1 positions i.. be paired into the unused S2 players (those left over allowed to float)
    with at most `x` colour misses, and separately with at most `z` strong misses? Exact minimum-miss
    matchings: a necessary condition for every completion, so no transposition the text picks is cut."""

    adj: list[list[int]]
    stay: list[bool]
    miss: list[list[bool]]
    zmiss: list[list[bool]]
    used: list[bool]
    visits: int = 0

    def possible(self, i: int, x: int, z: int | None) -> bool:
        rows = len(self.adj) - i
        for table, left in ((self.miss, x), (self.zmiss, z)):
            if left is None or left >= rows or not any(any(row) for row in table[i:]):
                continue  # the budget cannot run out (no pair left can miss)
            if not self._within(i, table, left):
                return False
        return True

    def _within(self, i: int, table: list[list[bool]], left: int) -> bool:
        p = len(self.adj)
        cols = [j for j in range(len(self.used)) if not self.used[j]]
        col_node = {j: (p - i) + k for k, j in enumerate(cols)}
        slots = len(cols) - (p - i)
        g: rx.PyGraph = rx.PyGraph()
        g.add_nodes_from(range(2 * len(cols)))  # rows, then the unused S2 players, then the slots
        big = 4 * len(cols) + 4
        for r in range(i, p):
            for j in self.adj[r]:
                if not self.used[j]:
                    g.add_edge(r - i, col_node[j], big + (0 if table[r][j] else 1))
        for k in range(slots):
            for j in cols:
                if self.stay[j]:
                    g.add_edge(2 * len(cols) - 1 - k, col_node[j], big + 1)
        matching = rx.max_weight_matching(g, max_cardinality=True, weight_fn=lambda w: w)
        if len(matching) != len(cols):
            return False
        weight = sum(g.get_edge_data(u, v) for u, v in matching)
        return len(matching) * (big + 1) - weight <= left


class BelowCut:
    """Going back (000 C14, 002 C13, 001 C9): can S1 positions i.. still be given unused S2 players
    so that the S2 players left over (those allowed to stay) and all players below can be paired
    under B1/B2, one bye to a player allowed it? Exact, a perfect matching: the leftovers of every
    candidate `ctx.accept` takes pass it, so no candidate the text would take is cut."""

    def __init__(
        self, ctx: Context, s2: list[Entrant], adj: list[list[int]], stay: list[bool], used: list[bool]
    ) -> None:
        self.adj, self.used, self.p = adj, used, len(adj)
        self.s2, self.stay, self.lower = s2, stay, ctx.below
        ok = partial(absolute_ok, rules=ctx.rules)
        n2 = len(s2)
        self.s2_pairs = [
            (j, k) for j in range(n2) for k in range(j + 1, n2) if stay[j] and stay[k] and ok(s2[j], s2[k])
        ]
        self.s2_lower = [(j, k) for j in range(n2) if stay[j] for k, e in enumerate(self.lower) if ok(s2[j], e)]
        self.lower_pairs = ctx.below_pairs

    def possible(self, i: int) -> bool:
        rows = self.p - i
        cols = [j for j in range(len(self.s2)) if not self.used[j]]
        col = {j: rows + c for c, j in enumerate(cols)}
        low = rows + len(cols)
        g: rx.PyGraph = rx.PyGraph()
        g.add_nodes_from(range(low + len(self.lower)))
        for r in range(i, self.p):
            for j in self.adj[r]:
                if not self.used[j]:
                    g.add_edge(r - i, col[j], 1)
        for j, k in self.s2_pairs:
            if j in col and k in col:
                g.add_edge(col[j], col[k], 1)
        for j, k in self.s2_lower:
            if j in col:
                g.add_edge(col[j], low + k, 1)
        for k, m in self.lower_pairs:
            g.add_edge(low + k, low + m, 1)
        if g.num_nodes() % 2:
            bye = g.add_node(-1)
            for j in cols:
                if self.stay[j] and self.s2[j].bye_ok:
                    g.add_edge(col[j], bye, 1)
            for k, e in enumerate(self.lower):
                if e.bye_ok:
                    g.add_edge(low + k, bye, 1)
        return 2 * len(rx.max_weight_matching(g, max_cardinality=True, weight_fn=lambda w: w)) == g.num_nodes()


def splits(
    players: list[Entrant], p: int, exchange: bool
) -> Iterator[tuple[list[Entrant], list[Entrant], Note | None]]:
    """Seed 000 C4/C8 with D2, seed 002 C4/C8a with D2: S1 = the top p, then the exchanges."""
    s1, s2 = players[:p], players[p:]
    yield s1, s2, None
    if not exchange:
        return
    pos = {i + 1: e for i, e in enumerate(players)}
    for a, b in all_exchanges(range(1, p + 1), range(p + 1, len(players) + 1)):
        out, inn = set(a), set(b)
        n1 = sorted([pos[i] for i in range(1, p + 1) if i not in out] + [pos[i] for i in inn], key=lambda e: e.key)
        n2 = sorted(
            [pos[i] for i in range(p + 1, len(players) + 1) if i not in inn] + [pos[i] for i in out],
            key=lambda e: e.key,
        )
        out_ids, into_ids = ("+".join(str(pos[i].id) for i in sorted(part)) for part in (a, b))
        yield n1, n2, _D2(out=out_ids, into=into_ids)
