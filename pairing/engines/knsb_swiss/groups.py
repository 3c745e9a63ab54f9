"""One score group's candidates in the order of seed 000/002 C4-C8: homogeneous (S1 against S2, D1,
D2) and heterogeneous (the players moved down first, then the rest as a homogeneous group).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import rustworkx as rx

from ..notes import note_text
from .context import Candidate, Context, Mode, pair_ok, sizes_possible
from .criteria import Level, absolute_ok, conflict, down_bad, strong_conflict
from .pairable import level_possible
from .players import Entrant
from .transpositions import splits, transpositions

# How a homogeneous group's candidate came about (C6, C7; D2 in `transpositions`).
_NO_PAIRS = note_text("knsb.no_pairs", "no pairs")
_C6 = note_text("knsb.c6", "C6 S1 against S2 in order")
_C7 = note_text("knsb.c7", "C7 transposition of S2")


def stay_rule(ctx: Context, level: Level, alone: bool = False) -> Callable[[Entrant], bool]:
    """Who may be left over: not against B5/B6 for downfloats, and in the lowest group only a
    player allowed the bye (the bye is a downfloat: seed 000 A5, seed 002 B1b).

    `alone`: exactly one player will float, so the acceptance test of the candidate (`accept`)
    depends on him only and is applied here already; the matching tests then see it."""

    def may_stay(e: Entrant) -> bool:
        if down_bad(e, level, ctx.rules):
            return False
        if ctx.last and not e.bye_ok:
            return False
        return not alone or ctx.accept([e])

    return may_stay


def homogeneous(
    ctx: Context,
    players: list[Entrant],
    p: int,
    level: Level,
    spent: tuple[int, int] = (0, 0),
) -> Iterator[Candidate]:
    """The candidates of a homogeneous (remainder) group with p pairs at one level, in order.

    Order: C4/C5 split, C6/C7 transpositions, C8 exchanges (D2), each exchange again with all its
    transpositions. `spent`: colour misses of the heterogeneous part (seed 002: one X per group).
    """
    if not ctx.leftovers_possible(len(players) - 2 * p):
        return
    may_stay = stay_rule(ctx, level, alone=len(players) - 2 * p == 1)
    if p == 0:
        floaters = list(players)
        if all(may_stay(e) for e in floaters) and ctx.accept(floaters):
            yield Candidate([], floaters, _NO_PAIRS())
        return

    def ok(a: Entrant, b: Entrant) -> bool:
        return pair_ok(ctx, level, a, b)

    if ctx.mode != Mode.FIRST and not _any_acceptable(ctx, players, p, ok):
        return
    checked = False
    for s1, s2, how in splits(players, p, exchange=True):
        if how and not checked:
            # Before walking the exchanges: is any pairing of the group possible at this level?
            checked = True
            if not level_possible(players, p, ok, may_stay, conflict, level.x - spent[0]):
                return
            if level.z is not None and not level_possible(
                players, p, ok, may_stay, strong_conflict, level.z - spent[1]
            ):
                return
        for pairs, rest, _ in transpositions(ctx, s1, s2, level, may_stay, spent):
            if not ctx.accept(rest):
                continue
            note = how
            if note is None:
                moved = any(b is not s2[k] for k, (_, b) in enumerate(pairs))
                note = _C7() if moved else _C6()
            yield Candidate(pairs, rest, note)


def _any_acceptable(ctx: Context, players: list[Entrant], p: int, ok: Callable[[Entrant, Entrant], bool]) -> bool:
    """Could any set of `p` pairs of `players` (pairs `ok`) leave floaters `ctx.accept` takes?

    Mode.GO_BACK: the players left over and all lower groups must be pairable under B1/B2 (one bye
    to a player allowed it): a perfect matching of all of them with at least p `ok` pairs inside the
    group. Mode.RECUT into a heterogeneous group: every player of the group is paired inside it or
    given his own resident of the next group, at least p pairs inside. Exact maximum weight
    matchings; every candidate `ctx.accept` takes is such a matching, so `False` skips none."""
    inside = len(players)
    if ctx.mode == Mode.GO_BACK:
        pool = [*players, *ctx.below]
        below_pairs = True
    elif ctx.mode == Mode.RECUT and ctx.recut is not None:
        movers = ctx.recut.count + len(ctx.recut.stuck)
        if 2 * movers >= movers + len(ctx.recut.residents) or ctx.rules.waiting_room:
            return True  # homogeneous next group: no matching condition
        pool = [*players, *ctx.recut.residents]
        below_pairs = False
    else:
        return True
    must = len(pool) if below_pairs else inside
    big = 2 * must + 2
    g: rx.PyGraph = rx.PyGraph()
    g.add_nodes_from(range(len(pool)))
    for i, a in enumerate(pool):
        for j in range(i + 1, len(pool)):
            b = pool[j]
            if j < inside:
                if ok(a, b):
                    g.add_edge(i, j, 2 * big + 1)
            elif (i < inside or below_pairs) and absolute_ok(a, b, ctx.rules):
                g.add_edge(i, j, big * ((i < must) + (j < must)))
    if below_pairs and len(pool) % 2:
        bye = g.add_node(-1)
        must += 1
        for i, a in enumerate(pool):
            if a.bye_ok:
                g.add_edge(i, bye, 2 * big)
    matching = rx.max_weight_matching(g, weight_fn=lambda w: w)
    covered = sum(g.get_edge_data(u, v) // big for u, v in matching)
    internal = sum(1 for u, v in matching if g.get_edge_data(u, v) == 2 * big + 1)
    return covered == must and internal >= p


def heterogeneous(
    ctx: Context,
    s1: list[Entrant],
    s2: list[Entrant],
    level: Level,
    rem_pairs: int,
    rem_level: Callable[[list[Entrant]], Level],
    shared: bool,
    reached: list[bool] | None = None,
) -> Iterator[Candidate]:
    """Floaters S1 against residents S2 (C6/C7 with D1), then the remainder as a homogeneous group.

    Seed 000 C11: a remainder that cannot be paired sends the search back to the next transposition
    of the floaters. `reached` is set when the remainder was reached at all (seed 002 C14b1).
    `shared`: the colour budget X counts over the whole group (seed 002 C6 "ga door vanaf C4");
    otherwise the remainder starts again at C2 with its own x (seed 000 C6).
    """
    if not sizes_possible(ctx, len(s1), len(s2), rem_pairs):
        return

    def always(e: Entrant) -> bool:
        return True

    for pairs, rest, misses in transpositions(ctx, s1, s2, level, always):
        if reached is not None:
            reached[0] = True
        rest = sorted(rest, key=lambda e: e.key)
        spent = misses if shared else (0, 0)
        for cand in homogeneous(ctx, rest, min(rem_pairs, len(rest) // 2), rem_level(rest), spent):
            yield Candidate(pairs + cand.pairs, cand.floaters, cand.note)
