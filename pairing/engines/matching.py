"""Maximum-weight matching on general graphs with integer weights of any size.

The pairing systems encode their lexicographic criteria as bit fields of one integer edge weight,
so weights often need more than a machine word. rustworkx (Rust, 128-bit signed weights) solves the
graphs whose weights fit with room for its doubled duals; `blossom` (Python integers, exact at any
size) the others.
"""

from __future__ import annotations

from collections.abc import Iterable

import rustworkx

from . import blossom

# rustworkx keeps weights and duals in i128 and works with twice the largest weight.
_NATIVE_BITS = 120


def max_weight_matching(vertices: list[int], edges: Iterable[tuple[int, int, int]]) -> dict[int, int]:
    """A maximum-weight matching of the graph on `vertices` with edges (u, v, weight > 0).

    Returns the partner of every matched vertex (both directions); unmatched vertices are absent.
    Not necessarily of maximum cardinality: only the total weight counts.
    """
    index = {v: i for i, v in enumerate(vertices)}
    edge_list = [(index[u], index[v], w) for u, v, w in edges if w > 0]
    if not edge_list:
        return {}
    mate: dict[int, int] = {}
    if max(w for _, _, w in edge_list).bit_length() <= _NATIVE_BITS:
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
