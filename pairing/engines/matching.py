"""Maximum-weight matching on general graphs with integer weights of any size.

The pairing systems encode their lexicographic criteria as bit fields of one integer edge weight,
so weights often need more than a machine word. Two exact implementations of one method (the
primal-dual blossom method):

* `Matcher`: compiled (`matcher.cpp`, built by `make setup`), weights of a fixed number of 64-bit
  words chosen per graph, graphs given edge by edge or by vertex classes, and solved again from the
  previous optimum after some weights change (a change at one vertex costs a few augmentations).
* `blossom` (Python integers): the reference, and the fallback when the compiled module is absent;
  `PyMatcher` offers the same interface on top of it, solving from scratch each time.

`max_weight_matching` solves one graph: bit ranges that are zero in every weight are squeezed out
first (`compact`); rustworkx (Rust, 128-bit signed weights) solves the graphs whose weights then
fit with room for its doubled duals, the compiled matcher (or `blossom`) the others.
`has_bipartite_matching` answers the unweighted question whether every player of one side can be
given his own partner on the other.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence

import rustworkx

from . import blossom

try:
    from ._matcher import ffi as _ffi
    from ._matcher import lib as _lib
except ImportError:  # not built: the pure-Python matcher serves
    _ffi = _lib = None

COMPILED = _lib is not None

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
    if COMPILED:
        solver = Matcher(len(vertices), max(weights).bit_length())
        solver.set_values(edge_list)
        found = solver.solve()
    else:
        found = blossom.max_weight_matching(len(vertices), edge_list)
    for a, b in enumerate(found):
        if b != -1:
            mate[vertices[a]] = vertices[b]
    return mate


def words_for(bits: int) -> int:
    """64-bit words for weights of `bits` bits: twice the weight and the duals must fit."""
    return max(1, (bits + 4 + 63) // 64)


class MatcherError(ValueError):
    """The compiled matcher refused its input."""


class Matcher:
    """A maximum-weight matching on vertices 0..n-1 (compiled), kept as edge weights change.

    Weights are integers below 2^bits (given at creation). An edge is set by its weight (0: no
    edge), or all pairs of a vertex list at once by classes (`build_classes`), after which
    `set_deltas` changes a vertex's edges relative to their class weight. `solve` returns each
    vertex's partner or -1; it starts from the previous optimum, so only the vertices whose edges
    changed since (and their partners) are matched again.
    """

    def __init__(self, n: int, bits: int) -> None:
        if _lib is None:
            raise MatcherError("the compiled matcher is not built (make setup)")
        self.n = n
        self.words = words_for(bits)
        self.limit = 64 * self.words - 4
        handle = _lib.mw_new(n, self.words)
        if handle == _ffi.NULL:
            raise MemoryError("no memory for the matcher")
        self._handle = _ffi.gc(handle, _lib.mw_free)

    def _words(self, values: Iterable[int]) -> object:
        size = 8 * self.words
        data = []
        for w in values:
            if w < 0 or w.bit_length() > self.limit:
                raise MatcherError(f"weight {w} does not fit {self.limit} bits")
            data.append(w.to_bytes(size, "little"))
        return _ffi.from_buffer("uint64_t[]", b"".join(data))

    def _call(self, code: int) -> None:
        if code < 0:
            raise MatcherError(f"the compiled matcher refused its input (code {code})")

    def set_values(self, edges: Sequence[tuple[int, int, int]]) -> None:
        """Set the weight of each edge (a, b, w), adding it if missing; w = 0 takes it out. The
        next solve recomputes the dual of each edge's first vertex `a`: list the edges of a
        vertex whose edges change from that vertex."""
        if not edges:
            return
        a = _ffi.new("int[]", [e[0] for e in edges])
        b = _ffi.new("int[]", [e[1] for e in edges])
        self._call(_lib.mw_set_values(self._handle, len(edges), a, b, self._words(e[2] for e in edges)))

    def build_classes(
        self, vertices: Sequence[int], classes: Sequence[int], table: Sequence[int], barred: Sequence[tuple[int, int]]
    ) -> None:
        """Every pair of `vertices` except the `barred` pairs becomes an edge weighing
        table[c(h) * len + c(lo)], h the one listed first, c its class in `classes`."""
        count = len(table)
        size = math.isqrt(count)
        if size * size != count:
            raise MatcherError("the class table must be square")
        flat = [x for pair in barred for x in pair]
        self._call(
            _lib.mw_build_classes(
                self._handle,
                len(vertices),
                _ffi.new("int[]", list(vertices)),
                _ffi.new("int[]", list(classes)),
                size,
                self._words(table),
                len(barred),
                _ffi.new("int[]", flat),
            )
        )

    def set_deltas(self, v: int, others: Sequence[int], deltas: Sequence[int | None]) -> None:
        """The edges from `v` to `others` weigh their class weight plus the delta (None: no edge)."""
        if not others:
            return
        remove = _lib.MW_REMOVE
        values = [remove if d is None else d for d in deltas]
        self._call(
            _lib.mw_set_deltas(
                self._handle, v, len(others), _ffi.new("int[]", list(others)), _ffi.new("int64_t[]", values)
            )
        )

    def remove(self, vertices: Sequence[int]) -> None:
        """Take `vertices` out of the graph: no edge at them until they are restored."""
        if vertices:
            self._call(_lib.mw_remove_vertices(self._handle, len(vertices), _ffi.new("int[]", list(vertices))))

    def restore(self, vertices: Sequence[int]) -> None:
        """Put `vertices` back with their class weights towards every vertex that is not out."""
        if vertices:
            self._call(_lib.mw_restore_vertices(self._handle, len(vertices), _ffi.new("int[]", list(vertices))))

    def solve(self) -> list[int]:
        mate = _ffi.new("int[]", self.n)
        self._call(_lib.mw_solve(self._handle, mate))
        return _ffi.unpack(mate, self.n)

    def certified(self) -> bool:
        """The duals prove the last solution optimal (feasible, tight, exposed vertices at zero)."""
        return _lib.mw_check(self._handle) == 0

    def stats(self) -> tuple[int, int, int]:
        """(stages run, solves, solves that needed no stage) since creation."""
        return tuple(_lib.mw_stat(self._handle, i) for i in range(3))  # type: ignore[return-value]


class PyMatcher:
    """`Matcher`'s interface over the pure-Python matcher, solving from scratch every time."""

    def __init__(self, n: int, bits: int) -> None:
        self.n = n
        self.weights: dict[tuple[int, int], int] = {}
        self.cls: dict[int, tuple[int, int]] = {}  # vertex -> (position, class)
        self.table: Sequence[int] = ()
        self.size = 0
        self.barred: set[tuple[int, int]] = set()
        self.out: set[int] = set()

    @staticmethod
    def _key(a: int, b: int) -> tuple[int, int]:
        return (a, b) if a < b else (b, a)

    def _class_weight(self, a: int, b: int) -> int:
        (pa, ca), (pb, cb) = self.cls[a], self.cls[b]
        return self.table[ca * self.size + cb] if pa < pb else self.table[cb * self.size + ca]

    def set_values(self, edges: Sequence[tuple[int, int, int]]) -> None:
        for a, b, w in edges:
            if a not in self.out and b not in self.out:
                self.weights[self._key(a, b)] = w

    def build_classes(
        self, vertices: Sequence[int], classes: Sequence[int], table: Sequence[int], barred: Sequence[tuple[int, int]]
    ) -> None:
        self.table = table
        self.size = math.isqrt(len(table))
        self.cls = {v: (i, c) for i, (v, c) in enumerate(zip(vertices, classes, strict=True))}
        self.barred = {self._key(a, b) for a, b in barred}
        for i, a in enumerate(vertices):
            for b in vertices[i + 1 :]:
                if self._key(a, b) not in self.barred:
                    self.weights[self._key(a, b)] = self._class_weight(a, b)

    def set_deltas(self, v: int, others: Sequence[int], deltas: Sequence[int | None]) -> None:
        if v in self.out:
            return
        for o, d in zip(others, deltas, strict=True):
            key = self._key(v, o)
            if key not in self.weights or o in self.out:
                continue
            w = self._class_weight(v, o)
            self.weights[key] = 0 if d is None or not w else max(0, w + d)

    def remove(self, vertices: Sequence[int]) -> None:
        self.out.update(vertices)
        for key in self.weights:
            if key[0] in self.out or key[1] in self.out:
                self.weights[key] = 0

    def restore(self, vertices: Sequence[int]) -> None:
        self.out.difference_update(vertices)
        for v in vertices:
            for o in self.cls:
                key = self._key(v, o)
                if o != v and o not in self.out and key in self.weights:
                    self.weights[key] = self._class_weight(v, o)

    def solve(self) -> list[int]:
        mate = [-1] * self.n
        edges = [(a, b, w) for (a, b), w in self.weights.items() if w > 0]
        for a, b in max_weight_matching(list(range(self.n)), edges).items():
            mate[a] = b
        return mate


def new_matcher(n: int, bits: int) -> Matcher | PyMatcher:
    """The compiled matcher when it is built, else the pure-Python one (same answers, slower)."""
    return Matcher(n, bits) if COMPILED else PyMatcher(n, bits)


def first_rows(left: Sequence[int], right: Sequence[int], allowed: Callable[[int, int], bool]) -> list[int] | None:
    """Each player of `left` in turn takes the first player of `right`, in its order, he is allowed to meet
    and that leaves the rest of `left` a complete assignment (`has_bipartite_matching`); None when no
    assignment exists. Without barred pairs row i takes right[i]."""
    result: list[int] = []
    rest = list(right)
    for i, u in enumerate(left):
        for v in rest:
            if not allowed(u, v):
                continue
            others = [x for x in rest if x != v]
            if has_bipartite_matching(left[i + 1 :], others, allowed):
                result.append(v)
                rest = others
                break
        else:
            return None
    return result


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
