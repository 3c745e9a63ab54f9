"""Maximum-weight matching on small general graphs with integer weights of any size.

The pairing systems encode their lexicographic criteria as bit fields of one integer edge weight,
so weights often need more than 64 bits. rustworkx (Rust, 64-bit weights) solves the graphs whose
weights fit; networkx (pure Python, exact integers) the others.
"""

from __future__ import annotations

from collections.abc import Iterable

import networkx
import rustworkx

_LIMIT = 1 << 62


def max_weight_matching(vertices: list[int], edges: Iterable[tuple[int, int, int]]) -> dict[int, int]:
    """A maximum-weight matching of the graph on `vertices` with edges (u, v, weight > 0).

    Returns the partner of every matched vertex (both directions); unmatched vertices are absent.
    Not necessarily of maximum cardinality: only the total weight counts.
    """
    edge_list = [(u, v, w) for u, v, w in edges if w > 0]
    if not edge_list:
        return {}
    top = max(w for _, _, w in edge_list)
    mate: dict[int, int] = {}
    if top * (len(vertices) // 2 + 1) < _LIMIT:
        index = {v: i for i, v in enumerate(vertices)}
        graph = rustworkx.PyGraph()
        graph.add_nodes_from(vertices)
        graph.add_edges_from([(index[u], index[v], w) for u, v, w in edge_list])
        for a, b in rustworkx.max_weight_matching(graph, weight_fn=lambda w: w):
            mate[vertices[a]] = vertices[b]
            mate[vertices[b]] = vertices[a]
        return mate
    graph = networkx.Graph()
    graph.add_nodes_from(vertices)
    graph.add_weighted_edges_from(edge_list)
    for a, b in networkx.max_weight_matching(graph):
        mate[a] = b
        mate[b] = a
    return mate
