"""Helpers shared by the Danish Chess Union systems (seed 004 §4.9.1-4.9.6).

Monrad, Dansk Schweizer and Dubov (1997) read a player's points the same way
(an adjourned game counts as a draw, §4.9.1 and §4.9.3 rule 1.1) and all
three need to know whether a set of players can still be paired without a
forbidden pair, which is a perfect-matching question.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .matching import max_weight_matching
from .state import Kind, Player

Allowed = Callable[[int, int], bool]


def points(player: Player, rounds: int | None = None) -> float:
    """Points for pairing: a game still in play counts as a draw (§4.9.1, §4.9.3 rule 1.1)."""
    records = player.history if rounds is None else player.history[:rounds]
    total = 0.0
    for record in records:
        if record.score is None:
            total += 0.5 if record.kind is Kind.GAME else 0.0
        else:
            total += record.score
    return total


def has_perfect_matching(players: Sequence[int], allowed: Allowed) -> bool:
    """True when `players` can all be paired using only allowed pairs.

    A quick greedy pairing, mended by short exchanges, proves most cases; only when it leaves
    players over does the exact maximum-matching test decide.
    """
    n = len(players)
    if n % 2:
        return False
    if n == 0:
        return True
    if _greedy_perfect(players, allowed):
        return True
    edges = [(players[i], players[j], 1) for i in range(n) for j in range(i + 1, n) if allowed(players[i], players[j])]
    # With unit weights the maximum-weight matching is one of maximum cardinality.
    return len(max_weight_matching(list(players), edges)) == n


def _greedy_perfect(players: Sequence[int], allowed: Allowed) -> bool:
    """Whether first-fit pairing, then swapping partners with one formed pair, pairs everybody.

    A True answer is a proof (a perfect matching was built); False means "not found this way".
    """
    free = list(players)
    pairs: list[tuple[int, int]] = []
    over: list[int] = []
    while free:
        top = free.pop(0)
        for i, other in enumerate(free):
            if allowed(top, other):
                pairs.append((top, other))
                del free[i]
                break
        else:
            over.append(top)
    while over:
        u, v = over.pop(), over.pop()
        for i, (a, b) in enumerate(pairs):  # u-a and v-b (or u-b and v-a) instead of a-b
            if allowed(u, a) and allowed(v, b):
                pairs[i] = (u, a)
                pairs.append((v, b))
                break
            if allowed(u, b) and allowed(v, a):
                pairs[i] = (u, b)
                pairs.append((v, a))
                break
        else:
            return False
    return True


def first_matching(order: Sequence[int], allowed: Allowed) -> list[tuple[int, int]] | None:
    """The first pairing of `order` in list order, or None when there is none.

    The highest remaining player takes the nearest following player he may
    meet whose removal leaves the rest pairable; this is the depth-first
    search the Danish texts describe, with a matching test instead of blind
    backtracking.
    """
    if not has_perfect_matching(order, allowed):
        return None
    rest = list(order)
    pairs: list[tuple[int, int]] = []
    while rest:
        top = rest[0]
        for candidate in rest[1:]:
            if not allowed(top, candidate):
                continue
            remaining = [p for p in rest[1:] if p != candidate]
            if has_perfect_matching(remaining, allowed):
                pairs.append((top, candidate))
                rest = remaining
                break
        else:  # pragma: no cover - excluded by the matching test above
            return None
    return pairs
