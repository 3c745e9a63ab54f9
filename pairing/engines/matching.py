"""Maximum-weight matching on general graphs with integer weights of any size.

The pairing systems encode their lexicographic criteria as bit fields of one integer edge weight,
so weights often need more than a machine word. Before solving, bit ranges that are zero in every
weight are squeezed out (`compact`); rustworkx (Rust, 128-bit signed weights) then solves the
graphs whose weights fit with room for its doubled duals, and `blossom` (Python integers, exact at
any size) the others. `has_bipartite_matching` answers the unweighted question whether every
player of one side can be given his own partner on the other.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import rustworkx

from . import blossom

# rustworkx keeps weights and duals in i128 and works with twice the largest weight.
_NATIVE_BITS = 120


def _trailing_zeros(x: int) -> int:
    """How many zero bits `x` (not 0) ends in; of ~y, how many one bits y ends in."""
    return (x & -x).bit_length() - 1


def compact(weights: list[int], pairs: int) -> list[int]:
    """The same weights with long runs of bits that are zero in every weight taken out.

    A matching has at most `pairs` edges, so the bits of any run of set bits sum to less than
    2^(its length + bit_length(pairs)): keeping that many zero bits above each run, no sum of a
    matching carries across a removed range. Removing bits that are zero in a number keeps the
    order of such numbers, so every comparison of two matchings' totals comes out the same.
    """
    union = 0
    for w in weights:
        union |= w
    room = pairs.bit_length() + 1
    keep: list[tuple[int, int]] = []  # (lowest bit, length) of each range that stays
    position = 0
    top = union.bit_length()
    while position < top:
        zeros = _trailing_zeros(union >> position)
        if zeros > room:
            position += zeros - room  # drop the rest of the run, keep `room` zero bits below the next run
            zeros = room
        ones = _trailing_zeros(~(union >> (position + zeros)))
        keep.append((position, zeros + ones))
        position += zeros + ones
    if sum(length for _, length in keep) == top:
        return weights
    out = []
    for w in weights:
        value = 0
        shift = 0
        for low, length in keep:
            value |= ((w >> low) & ((1 << length) - 1)) << shift
            shift += length
        out.append(value)
    return out


def max_weight_matching(vertices: list[int], edges: Iterable[tuple[int, int, int]]) -> dict[int, int]:
    """A maximum-weight matching of the graph on `vertices` with edges (u, v, weight > 0).

    Returns the partner of every matched vertex (both directions); unmatched vertices are absent.
    Not necessarily of maximum cardinality: only the total weight counts.
    """
    index = {v: i for i, v in enumerate(vertices)}
    positive = [(index[u], index[v], w) for u, v, w in edges if w > 0]
    if not positive:
        return {}
    weights = compact([w for _, _, w in positive], len(vertices) // 2)
    edge_list = [(a, b, w) for (a, b, _), w in zip(positive, weights, strict=True)]
    mate: dict[int, int] = {}
    if max(weights).bit_length() <= _NATIVE_BITS:
        graph = rustworkx.PyGraph()
        graph.add_nodes_from(vertices)
        graph.add_edges_from(edge_list)
        for a, b in rustworkx.max_weight_matching(graph, weight_fn=lambda w: w):
            mate[vertices[a]] = vertices[b]
            mate[vertices[b]] = vertices[a]
        return mate
    for a, b in enumerate(blossom.max_weight_matching(len(vertices), edge_list)):
        if b != -1:
            mate[vertices[a]] = vertices[b]
    return mate


def has_bipartite_matching(left: Sequence[int], right: Sequence[int], allowed: Callable[[int, int], bool]) -> bool:
    """True when every player of `left` can meet a different player of `right` (allowed pairs only).

    First-fit, then augmenting paths for the players left over (Kuhn's method): exact. With
    columns of equal length this is a perfect matching of the two.
    """
    if len(left) > len(right):
        return False
    free = list(right)
    partner: dict[int, int] = {}  # right player -> left player
    over: list[int] = []
    for u in left:
        for i, v in enumerate(free):
            if allowed(u, v):
                partner[v] = u
                del free[i]
                break
        else:
            over.append(u)

    def augment(u: int, seen: set[int]) -> bool:
        for v in right:
            if v in seen or not allowed(u, v):
                continue
            seen.add(v)
            if v not in partner or augment(partner[v], seen):
                partner[v] = u
                return True
        return False

    return all(augment(u, set()) for u in over)
