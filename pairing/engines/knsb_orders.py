"""The orders in which the KNSB Swiss systems try candidates (seed 000 D, seed 002 D).

Positions are 1-based sequence numbers inside a score group ("volgordenummers"): S1 holds
positions 1..p, S2 the rest, both ordered by A2.

- D1 (seed 000 D1, seed 002 D1.1): transpositions of S2 in ascending lexicographic order
  ("plaats alle getallen ... in opklimmende volgorde"). Seed 002 D1.2: in a heterogeneous group only
  the first |S1| players of S2 are paired, so only those prefixes matter.
- D2 (seed 000 D2, seed 002 D2 with README item 11): exchanges of N players between S1 and S2,
  by the difference number sum(S2 part) - sum(S1 part), ties by the S1 part in descending
  lexicographic order ("neem de laagstgeklasseerde van S1"), then the S2 part in ascending
  lexicographic order ("daarna de hoogst geklasseerde van S2").
- D3 (seed 002 D3): subsets of M1 of the M0 floaters, in lexicographic order.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations, permutations


def transpositions(s2: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Seed 000 D1 / seed 002 D1.1: every order of S2, in ascending lexicographic order of positions.

    `s2` must be in A2 order; the identity comes first and the reverse last.
    """
    yield from permutations(s2)


def s1_parts(s1: Sequence[int], n: int) -> list[tuple[int, ...]]:
    """Seed 002 D2 "lijst van S1 verwisselingen": N-subsets of S1, descending lexicographic order.

    Each subset is written highest position first (5,4 / 5,3 / ... / 2,1).
    """
    ordered = sorted(s1, reverse=True)
    return list(combinations(ordered, n))


def s2_parts(s2: Sequence[int], n: int) -> list[tuple[int, ...]]:
    """Seed 002 D2 "lijst van S2 verwisselingen": N-subsets of S2, ascending lexicographic order."""
    return list(combinations(sorted(s2), n))


def exchanges(s1: Sequence[int], s2: Sequence[int], n: int) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Seed 002 D2 (exact procedure, README item 11) and seed 000 D2: the exchanges of `n` players.

    The loop of the exact procedure: Δ from VMIN to VMAX; for each Δ the S1 parts in the order of
    `s1_parts` (I), for each the S2 parts in the order of `s2_parts` (J) whose difference is Δ.
    Generated lazily: a group of 60 has 1.5 million two-player exchanges.
    """
    left = s1_parts(s1, n)
    by_sum: dict[int, list[tuple[int, ...]]] = {}
    for b in s2_parts(s2, n):
        by_sum.setdefault(sum(b), []).append(b)
    if not left or not by_sum:
        return
    sums = [sum(a) for a in left]
    v_min = min(by_sum) - max(sums)
    v_max = max(by_sum) - min(sums)
    for delta in range(v_min, v_max + 1):
        for a, total in zip(left, sums, strict=True):
            for b in by_sum.get(total + delta, ()):
                yield a, b


def all_exchanges(s1: Sequence[int], s2: Sequence[int]) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """All exchanges: first of one player, then of two, ... (seed 000 D2's two matrices in turn)."""
    for n in range(1, min(len(s1), len(s2)) + 1):
        yield from exchanges(s1, s2, n)


def floater_subsets(m0: int, m1: int) -> list[tuple[int, ...]]:
    """Seed 002 D3: which M1 of the floaters 1..M0 go into S1, in decreasing priority."""
    return list(combinations(range(1, m0 + 1), m1))
