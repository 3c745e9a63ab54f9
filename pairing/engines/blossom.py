"""Maximum-weight matching in general graphs, exact for integer weights of any size.

The primal-dual blossom method of Edmonds (1965) in the O(n³) form Galil describes ("Efficient
algorithms for finding maximum matching in graphs", ACM Computing Surveys 18, 1986): stages of
growing alternating trees over edges of zero slack, shrinking odd cycles into blossoms, and
changing the duals by the least of four deltas when no tight edge is left to use. Every vertex and
every non-trivial blossom remembers its least-slack edge towards an S-blossom, so a dual change
costs O(n) instead of O(m).

The pairing engines encode their criteria as bit fields of one edge weight: weights of several
hundred bits are normal here, so everything is Python integers. Vertices are 0..n-1; blossoms take
the numbers n..2n-1. An edge is addressed by its index k; its two ends are the "endpoints" 2k
(its first vertex) and 2k + 1 (its second), so `end ^ 1` is the other end of the same edge.

Duals are kept doubled (a vertex starts at the largest weight, an edge's slack is
u(a) + u(b) - 2·w), which keeps every dual change an integer.
"""

from __future__ import annotations

_NONE = -1
_FREE, _S, _T = 0, 1, 2
_MARK = 4  # added to an S label while looking for the base of a new blossom


class _Matcher:
    """One maximum-weight matching computation (not of maximum cardinality)."""

    def __init__(self, n: int, edges: list[tuple[int, int, int]]) -> None:
        self.n = n
        m = len(edges)
        self.end = [0] * (2 * m)  # the vertex at each endpoint
        self.first = [a for a, _, _ in edges]  # the two vertices of each edge, for the slack
        self.second = [b for _, b, _ in edges]
        self.w2 = [0] * m  # twice each edge's weight
        # Per vertex, for each of its edges: (the other vertex, edge index, the other's endpoint, 2w).
        self.incident: list[list[tuple[int, int, int, int]]] = [[] for _ in range(n)]
        top = 0
        for k, (a, b, w) in enumerate(edges):
            self.end[2 * k] = a
            self.end[2 * k + 1] = b
            self.w2[k] = 2 * w
            self.incident[a].append((b, k, 2 * k + 1, 2 * w))
            self.incident[b].append((a, k, 2 * k, 2 * w))
            if w > top:
                top = w
        size = 2 * n
        self.mate = [_NONE] * n  # remote endpoint of a vertex's matched edge
        self.label = [_FREE] * size
        self.label_end = [_NONE] * size  # endpoint (outside) through which a top blossom got its label
        self.top_of = list(range(n))  # top-level blossom containing each vertex
        self.parent = [_NONE] * size
        self.children: list[list[int] | None] = [None] * size
        self.links: list[list[int] | None] = [None] * size  # links[b][i]: end in child i of the edge to child i+1
        self.base = list(range(n)) + [_NONE] * n
        self.best = [_NONE] * size  # least-slack edge to another S-blossom (or from S, for free vertices)
        self.best_list: list[list[int] | None] = [None] * size  # per S-blossom: least-slack edge to each S-blossom
        self.free_ids = list(range(size - 1, n - 1, -1))
        self.dual = [top] * n + [0] * n
        self.tight = [-1] * m  # the stage in which each edge was found to have zero slack
        self.stage = 0
        self.queue: list[int] = []

    # ------------------------------------------------------------------ helpers

    def slack(self, k: int) -> int:
        return self.dual[self.first[k]] + self.dual[self.second[k]] - self.w2[k]

    def leaves(self, b: int) -> list[int]:
        """The vertices inside blossom `b`."""
        if b < self.n:
            return [b]
        out: list[int] = []
        stack = [b]
        n, children = self.n, self.children
        while stack:
            x = stack.pop()
            for c in children[x]:  # type: ignore[union-attr]
                if c < n:
                    out.append(c)
                else:
                    stack.append(c)
        return out

    def assign(self, v: int, label: int, via: int) -> None:
        """Label the top blossom of `v` S or T, reached through endpoint `via`; a T-blossom's mate
        becomes S at once (its base is matched: otherwise the tree would have augmented)."""
        while True:
            b = self.top_of[v]
            self.label[v] = self.label[b] = label
            self.label_end[v] = self.label_end[b] = via
            self.best[v] = self.best[b] = _NONE
            if label == _S:
                self.queue.extend(self.leaves(b))
                return
            partner_end = self.mate[self.base[b]]
            v, label, via = self.end[partner_end], _S, partner_end ^ 1

    def find_base(self, v: int, w: int) -> int:
        """Trace the tree paths from S-vertices `v` and `w` towards their roots in turn: the first
        blossom reached twice is the base of a new blossom; no common blossom means an augmenting
        path (returns _NONE)."""
        label, label_end, end, top_of = self.label, self.label_end, self.end, self.top_of
        visited: list[int] = []
        found = _NONE
        while v != _NONE:
            b = top_of[v]
            if label[b] & _MARK:
                found = self.base[b]
                break
            visited.append(b)
            label[b] = _S | _MARK
            if label_end[b] == _NONE:
                v = _NONE  # a root
            else:
                t = top_of[end[label_end[b]]]  # the T-blossom above
                v = end[label_end[t]]
            if w != _NONE:
                v, w = w, v
        for b in visited:
            label[b] = _S
        return found

    # ------------------------------------------------------------------ blossoms

    def shrink(self, base: int, k: int) -> None:
        """Make a blossom of the cycle closed by tight edge `k` between two S-vertices."""
        end, top_of, label_end, parent = self.end, self.top_of, self.label_end, self.parent
        v, w = end[2 * k], end[2 * k + 1]
        bb, bv, bw = top_of[base], top_of[v], top_of[w]
        b = self.free_ids.pop()
        self.base[b] = base
        self.parent[b] = _NONE
        parent[bb] = b
        # Children in cyclic order from the base; links[i] lies in child i and joins child i + 1.
        v_side: list[int] = []
        v_links: list[int] = []
        while bv != bb:
            parent[bv] = b
            v_side.append(bv)
            v_links.append(label_end[bv])
            bv = top_of[end[label_end[bv]]]
        children = [bb] + v_side[::-1]
        links = v_links[::-1] + [2 * k]
        while bw != bb:
            parent[bw] = b
            children.append(bw)
            links.append(label_end[bw] ^ 1)
            bw = top_of[end[label_end[bw]]]
        self.children[b] = children
        self.links[b] = links
        self.label[b] = _S
        self.label_end[b] = label_end[bb]
        self.dual[b] = 0
        label = self.label
        for x in self.leaves(b):
            if label[top_of[x]] == _T:
                self.queue.append(x)  # former T-vertices are S now and must be scanned
            top_of[x] = b
        # The new blossom's least-slack edges to each other S-blossom, from its children's lists.
        best_to: dict[int, int] = {}
        best_slack: dict[int, int] = {}
        for c in children:
            if self.best_list[c] is None:
                candidates = [e[1] for x in self.leaves(c) for e in self.incident[x]]
            else:
                candidates = self.best_list[c]  # type: ignore[assignment]
            for e in candidates:
                i, j = end[2 * e], end[2 * e + 1]
                if top_of[j] == b:
                    i, j = j, i
                bj = top_of[j]
                if bj != b and label[bj] == _S:
                    s = self.slack(e)
                    if bj not in best_to or s < best_slack[bj]:
                        best_to[bj] = e
                        best_slack[bj] = s
            self.best_list[c] = None
            self.best[c] = _NONE
        self.best_list[b] = list(best_to.values())
        self.best[b] = _NONE
        least = None
        for bj, e in best_to.items():
            if least is None or best_slack[bj] < least:
                least = best_slack[bj]
                self.best[b] = e

    def expand(self, b: int, end_of_stage: bool) -> None:
        """Dissolve blossom `b` into its children; a T-blossom's children are relabelled along
        the even path from the entry child to the base (mid-stage only)."""
        n, end, top_of = self.n, self.end, self.top_of
        children = self.children[b]
        links = self.links[b]
        assert children is not None and links is not None
        for c in children:
            self.parent[c] = _NONE
            if c < n:
                top_of[c] = c
            elif end_of_stage and self.dual[c] == 0:
                self.expand(c, end_of_stage)
            else:
                for x in self.leaves(c):
                    top_of[x] = c
        if not end_of_stage and self.label[b] == _T:
            label, label_end = self.label, self.label_end
            entry = top_of[end[label_end[b] ^ 1]]
            j = children.index(entry)
            size = len(children)
            # Walk to the base over an even number of children.
            if j & 1:
                j -= size
                step, trick = 1, 0
            else:
                step, trick = -1, 1
            p = label_end[b]
            while j != 0:
                label[end[p ^ 1]] = _FREE
                label[end[links[j - trick] ^ trick ^ 1]] = _FREE
                self.assign(end[p ^ 1], _T, p)
                self.tight[links[j - trick] >> 1] = self.stage
                j += step
                p = links[j - trick] ^ trick
                self.tight[p >> 1] = self.stage
                j += step
            c = children[j]
            label[end[p ^ 1]] = label[c] = _T
            label_end[end[p ^ 1]] = label_end[c] = p
            self.best[c] = _NONE
            # The other children: T again if reachable from outside, else free.
            j += step
            while children[j] != entry:
                c = children[j]
                if label[c] == _S:
                    j += step
                    continue
                reached = _NONE
                for x in self.leaves(c):
                    if label[x] != _FREE:
                        reached = x
                        break
                if reached != _NONE:
                    label[reached] = _FREE
                    label[end[self.mate[self.base[c]]]] = _FREE
                    self.assign(reached, _T, label_end[reached])
                j += step
        self.label[b] = self.label_end[b] = _NONE
        self.children[b] = self.links[b] = None
        self.base[b] = _NONE
        self.best_list[b] = None
        self.best[b] = _NONE
        self.free_ids.append(b)

    def rotate(self, b: int, v: int) -> None:
        """Swap matched and unmatched edges inside blossom `b` on the even path from vertex `v`
        to the base, making `v` the new base."""
        n, end, mate = self.n, self.end, self.mate
        t = v
        while self.parent[t] != b:
            t = self.parent[t]
        if t >= n:
            self.rotate(t, v)
        children = self.children[b]
        links = self.links[b]
        assert children is not None and links is not None
        i = j = children.index(t)
        if i & 1:
            j -= len(children)
            step, trick = 1, 0
        else:
            step, trick = -1, 1
        while j != 0:
            j += step
            t = children[j]
            p = links[j - trick] ^ trick
            if t >= n:
                self.rotate(t, end[p])
            j += step
            t = children[j]
            if t >= n:
                self.rotate(t, end[p ^ 1])
            mate[end[p]] = p ^ 1
            mate[end[p ^ 1]] = p
        self.children[b] = children[i:] + children[:i]
        self.links[b] = links[i:] + links[:i]
        self.base[b] = self.base[children[i]]

    def augment(self, k: int) -> None:
        """Flip the augmenting path through tight edge `k` (from both of its ends to their roots)."""
        end, top_of, label_end, mate, n = self.end, self.top_of, self.label_end, self.mate, self.n
        for s, p in ((end[2 * k], 2 * k + 1), (end[2 * k + 1], 2 * k)):
            while True:
                bs = top_of[s]
                if bs >= n:
                    self.rotate(bs, s)
                mate[s] = p
                if label_end[bs] == _NONE:
                    break  # the root: a free vertex
                bt = top_of[end[label_end[bs]]]
                s = end[label_end[bt]]
                j = end[label_end[bt] ^ 1]
                if bt >= n:
                    self.rotate(bt, j)
                mate[j] = label_end[bt]
                p = label_end[bt] ^ 1

    # ------------------------------------------------------------------ the stages

    def run(self) -> list[int]:
        """The matching, stage by stage: each stage grows alternating trees from the free vertices
        and augments once, changing the duals when no tight edge is left; no augmentation: optimum."""
        for stage in range(self.n):
            self.stage = stage
            self._start_stage()
            augmented = False
            while True:
                if self._scan(stage):
                    augmented = True
                    break
                if not self._change_duals(stage):
                    break
            if not augmented:
                break
            self._end_stage()
        end = self.end
        return [end[p] if p != _NONE else _NONE for p in self.mate]

    def _start_stage(self) -> None:
        """Every vertex and blossom unlabelled; the free vertices become the S-roots of the trees."""
        n, label, best, top_of, mate = self.n, self.label, self.best, self.top_of, self.mate
        for i in range(2 * n):
            label[i] = _FREE
            best[i] = _NONE
        for i in range(n, 2 * n):
            self.best_list[i] = None
        self.queue.clear()
        for v in range(n):
            if mate[v] == _NONE and label[top_of[v]] == _FREE:
                self.assign(v, _S, _NONE)

    def _scan(self, stage: int) -> bool:
        """Grow the trees along tight edges from the queued S-vertices: label, shrink a blossom, or
        augment (True); remember each vertex's and blossom's least slack edge for the dual change."""
        queue, dual, top_of, incident, tight = self.queue, self.dual, self.top_of, self.incident, self.tight
        label, best, first, second, w2 = self.label, self.best, self.first, self.second, self.w2
        while queue:
            v = queue.pop()
            dv = dual[v]
            bv = top_of[v]
            for w, k, p, wk in incident[v]:
                bw = top_of[w]
                if bv == bw:
                    continue
                s = 0
                if tight[k] != stage:
                    s = dv + dual[w] - wk
                    if s <= 0:
                        tight[k] = stage
                if tight[k] == stage:
                    lw = label[bw]
                    if lw == _FREE:
                        self.assign(w, _T, p ^ 1)
                    elif lw == _S:
                        found = self.find_base(v, w)
                        if found != _NONE:
                            self.shrink(found, k)
                            bv = top_of[v]
                        else:
                            self.augment(k)
                            return True
                    elif label[w] == _FREE:
                        # w lies in a T-blossom and is reached for the first time.
                        label[w] = _T
                        self.label_end[w] = p ^ 1
                elif label[bw] == _S:
                    b = top_of[v]
                    e = best[b]
                    if e == _NONE or s < dual[first[e]] + dual[second[e]] - w2[e]:
                        best[b] = k
                elif label[w] == _FREE:
                    e = best[w]
                    if e == _NONE or s < dual[first[e]] + dual[second[e]] - w2[e]:
                        best[w] = k
        return False

    def _change_duals(self, stage: int) -> bool:
        """No tight edge left to use: change the duals by the least delta; False when a vertex dual
        reaches zero (the matching is optimal)."""
        n, end, w2, dual, label, top_of, tight = (
            self.n,
            self.end,
            self.w2,
            self.dual,
            self.label,
            self.top_of,
            self.tight,
        )
        best, parent, base, first, second = self.best, self.parent, self.base, self.first, self.second
        queue = self.queue
        kind = 1
        delta = min(dual[:n])  # delta 1: a vertex dual reaches zero (optimum)
        chosen = _NONE
        for v in range(n):
            e = best[v]
            if e != _NONE and label[top_of[v]] == _FREE:
                d = dual[first[e]] + dual[second[e]] - w2[e]
                if d < delta:
                    delta, kind, chosen = d, 2, e
        for b in range(2 * n):
            e = best[b]
            if e != _NONE and label[b] == _S and parent[b] == _NONE:
                d = (dual[first[e]] + dual[second[e]] - w2[e]) >> 1
                if d < delta:
                    delta, kind, chosen = d, 3, e
        for b in range(n, 2 * n):
            if base[b] >= 0 and parent[b] == _NONE and label[b] == _T and dual[b] < delta:
                delta, kind, chosen = dual[b], 4, b
        for v in range(n):
            lb = label[top_of[v]]
            if lb == _S:
                dual[v] -= delta
            elif lb == _T:
                dual[v] += delta
        for b in range(n, 2 * n):
            if base[b] >= 0 and parent[b] == _NONE:
                if label[b] == _S:
                    dual[b] += delta
                elif label[b] == _T:
                    dual[b] -= delta
        if kind == 1:
            return False
        if kind == 2:
            tight[chosen] = stage
            i, j = end[2 * chosen], end[2 * chosen + 1]
            if label[top_of[i]] == _FREE:
                i, j = j, i
            queue.append(i)
        elif kind == 3:
            tight[chosen] = stage
            queue.append(end[2 * chosen])
        else:
            self.expand(chosen, False)
        return True

    def _end_stage(self) -> None:
        """End of stage: S-blossoms whose dual fell to zero are dissolved."""
        n, parent, base, label, dual = self.n, self.parent, self.base, self.label, self.dual
        for b in range(n, 2 * n):
            if parent[b] == _NONE and base[b] >= 0 and label[b] == _S and dual[b] == 0:
                self.expand(b, True)


def max_weight_matching(n: int, edges: list[tuple[int, int, int]]) -> list[int]:
    """A maximum-weight matching of the graph on vertices 0..n-1 with edges (a, b, weight > 0):
    each vertex's partner, or -1. Only the total weight counts, not the number of pairs."""
    if not edges:
        return [_NONE] * n
    return _Matcher(n, edges).run()
