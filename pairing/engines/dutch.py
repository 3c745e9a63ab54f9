"""The FIDE (Dutch) system, C.04.3 in force since 1 February 2026.

Brackets are paired top-down by weighted maximum matching: every criterion of Art. 2 (C1-C21) is a
bit field of one integer edge weight, more significant fields for higher criteria, so a maximum
weight matching is a pairing that no other pairing beats on the criteria taken in order. The
generation order of Art. 3 / 4 (the first candidate in the order of transpositions and exchanges
wins a tie) is reproduced by deciding in that order: which moved-down players (MDPs) are paired and
their opponents, which players are exchanged between S1 and S2, and the S1 players' opponents. A
sequence of such decisions is settled by one solve with low-order fields below the criteria (a
field per player, earlier players more significant); the exchanges by fixing one player at a time.
The field layout follows the published description of the reference programs.

Completion (C4) holds for the whole round: a bracket is solved on its own players and the next
scoregroup, every player who could still be paired lower down (or receive the bye) having a
stand-in partner worth half a pair in the completion field; when the players left cannot then all
be paired, or few players are left below, the bracket is solved with every unpaired player.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import rustworkx

from .colours import ColourState, Edition, Float, allocate, bye_eligible, colour_state, float_in_round
from .matching import max_weight_matching
from .notes import NONE, Note, joined, note_text
from .registry import PairingSystem
from .state import Board, Bye, Colour, InvalidInput, Kind, NoValidPairing, Pairing, Player, TournamentState

_MISSING = -1
_FEW_BELOW = 12
# What each quality criterion the explanation counts is about (C.04.3 Art. 2).
_CRITERION_NAMES = {
    "C10": note_text("dutch.c10", "topscorers: colour difference beyond 2"),
    "C11": note_text("dutch.c11", "topscorers: same colour three times"),
    "C12": note_text("dutch.c12", "colour preference not met"),
    "C13": note_text("dutch.c13", "strong colour preference not met"),
    "C14/C16": note_text("dutch.c14", "downfloat again"),
    "C15/C17": note_text("dutch.c15", "upfloat again"),
}
# The explanation: one line per bracket (Art. 3-4), then the bye (C.04.1 c, Art. 2 C2).
_BRACKET = note_text("dutch.bracket", "bracket %(score)s: %(residents)s residents")
_MDPS = note_text("dutch.mdps", "MDPs %(players)s")
_PAIRS = note_text("dutch.pairs", "pairs %(pairs)s")
_DOWNFLOATERS = note_text("dutch.downfloaters", "downfloaters %(players)s")
_UNMET = note_text("dutch.unmet", "criteria not met: %(criteria)s")
_CRITERION = note_text("dutch.criterion", "%(criterion)s (%(name)s) ×%(count)s")
_NOBODY = note_text("dutch.nobody", "nobody to pair")
_ONE_PLAYER = note_text("dutch.one_player", "one player: the bye")
_BYE = note_text("dutch.bye", "pairing-allocated bye: %(player)s (score %(score)s, %(games)s games played)")


@dataclass(slots=True)
class _Info:
    """What the criteria need of one player to pair (scores in half points)."""

    player: Player
    score: int
    colour: ColourState
    eligible: bool
    float1: Float | None
    float2: Float | None
    played: int
    rank: int = 0


def _half(points: float) -> int:
    return int(round(points * 2))


@dataclass
class _Round:
    """One round-pairing in progress. Vertices are indices into `info` (score desc, TPN asc)."""

    state: TournamentState
    edition: Edition
    info: list[_Info]

    def __post_init__(self) -> None:
        info = self.info
        self.n = len(info)
        self.rounds_played = self.state.round_to_pair - 1
        self.last_round = self.rounds_played >= self.state.total_rounds - 1
        self.forbidden = [set(p.player.opponents()) for p in info]
        # Pairs barred by C1 or C3, as sets of vertices (computed once; the rest are compatible).
        index = {p.player.id: v for v, p in enumerate(info)}
        self.barred: list[set[int]] = [{index[o] for o in f if o in index} for f in self.forbidden]
        absolute = [v for v, p in enumerate(info) if p.colour.absolute]
        for i, a in enumerate(absolute):
            for b in absolute[i + 1 :]:
                if not self._c3_allows(a, b):
                    self.barred[a].add(b)
                    self.barred[b].add(a)
        self.ids = [p.player.id for p in info]
        # Bit offsets per score (lowest score first), wide enough to count its scoregroup.
        self.shift: dict[int, int] = {}
        offset = 0
        biggest = 0
        i = self.n - 1
        while i >= 0:
            j = i
            while j > 0 and info[j - 1].score == info[i].score:
                j -= 1
            size = i - j + 1
            self.shift[info[i].score] = offset
            offset += size.bit_length()
            biggest = max(biggest, size)
            i = j - 1
        self.groups_shift = offset
        self.size_bits = max(biggest.bit_length(), 1)
        self.bye_score = 0
        self.single_is_bye = False
        self.played_rank: dict[int, int] = {}

    # ---------------------------------------------------------------- criteria of one pair

    def _c3_allows(self, a: int, b: int) -> bool:
        """C3: not the same absolute preference, unless a topscorer (A.7 / 1.8: more than half the
        maximum score) is involved when the last round is paired."""
        pa, pb = self.info[a], self.info[b]
        ca, cb = pa.colour, pb.colour
        if not ca.absolute or not cb.absolute or ca.preference is not cb.preference:
            return True
        return self.last_round and (pa.score > self.rounds_played or pb.score > self.rounds_played)

    def compatible(self, a: int, b: int) -> bool:
        """C1 (no rematch) and C3."""
        return b not in self.barred[a]

    def bye_candidate(self, a: int) -> bool:
        """C2 eligibility, and no more than the score chosen for the bye (C5)."""
        return self.info[a].eligible and self.info[a].score <= self.bye_score

    def weight(self, h: int, lo: int, current: bool, following: bool, single: bool) -> int:
        """The edge weight of higher player `h` against lower player `lo` (h < lo), field by field
        from the most significant: C4/C5, C6, C7, C8 (two fields), C9, C10-C13, C14-C17, C18-C21,
        and room for the generation order. `current`/`following`: `lo` is in this bracket / the next;
        `single`: C9 applies (the bracket's single downfloater is the future bye)."""
        if not self.compatible(h, lo):
            return 0
        ph, pl = self.info[h], self.info[lo]
        sb, gs = self.size_bits, self.groups_shift
        w = 1 + (not self.bye_candidate(h)) + (not self.bye_candidate(lo))
        w = (w << sb) | current
        w <<= gs
        if current:
            w |= 1 << self.shift[ph.score]
        w = (w << sb) | following
        w <<= gs
        if following:
            w |= 1 << self.shift[ph.score]
        w <<= sb
        if single:
            if ph.score == self.bye_score:
                w |= self.played_rank[ph.played]
            if pl.score == self.bye_score:
                w += self.played_rank[pl.played]
        # C10-C13, only for pairs inside the current bracket.
        ch, cl = ph.colour, pl.colour
        same = cl.preference is ch.preference
        c10 = current and (cl.imbalance <= 1 or ch.imbalance <= 1 or not same)
        if cl.imbalance == ch.imbalance:
            third = cl.repeated is None or cl.repeated is not ch.repeated
        else:
            loser = ch if cl.imbalance > ch.imbalance else cl
            third = cl.preference is None or loser.repeated is not cl.preference.opposite
        c11 = current and (not cl.absolute or not ch.absolute or not same or third)
        c12 = current and (cl.preference is None or ch.preference is None or not same)
        c13 = current and (
            (not cl.strong and not cl.absolute)
            or (not ch.strong and not ch.absolute)
            or (cl.absolute and ch.absolute)
            or not same
        )
        for bit in (c10, c11, c12, c13):
            w = (w << sb) | bit
        higher_score = ph.score > pl.score
        for back in (1, 2):
            if self.rounds_played < back:
                continue
            fl = pl.float1 if back == 1 else pl.float2
            fh = ph.float1 if back == 1 else ph.float2
            w <<= sb
            if current:
                w |= fl is Float.DOWN
                w += (not higher_score) and fh is Float.DOWN
            w <<= sb
            if current:
                w |= not (higher_score and fl is Float.UP)
        for back in (1, 2):
            if self.rounds_played < back:
                continue
            fl = pl.float1 if back == 1 else pl.float2
            fh = ph.float1 if back == 1 else ph.float2
            w <<= gs
            if current:
                w += (fl is Float.DOWN) << self.shift[pl.score]
                w += (fh is Float.DOWN) << self.shift[ph.score]
            w <<= gs
            if current and not (fl is Float.UP and higher_score):
                w |= 1 << self.shift[ph.score]
        return w << (3 * sb + 1)

    def low_bits(self) -> int:
        """Width of everything below the C4/C5 field."""
        sb, gs = self.size_bits, self.groups_shift
        bits = 3 * sb + 2 * gs + 4 * sb + 3 * sb + 1
        for back in (1, 2):
            if self.rounds_played >= back:
                bits += 2 * sb + 2 * gs
        return bits


def _prepare(state: TournamentState, edition: Edition) -> list[_Info]:
    """The players to pair, in pairing order (C.04.3 1.2: score, then pairing number)."""
    rounds = state.round_to_pair - 1
    for p in state.players:
        if len(p.history) < rounds:
            raise InvalidInput(f"player {p.id} has {len(p.history)} rounds of history, {rounds} expected")
    score_of = {p.id: [0.0] * (rounds + 1) for p in state.players}
    for p in state.players:
        total = 0.0
        for k in range(rounds):
            total += p.history[k].score or 0.0
            score_of[p.id][k + 1] = total
    infos = []
    for p in state.to_pair():
        infos.append(
            _Info(
                player=p,
                score=_half(score_of[p.id][rounds]),
                colour=colour_state(p),
                eligible=bye_eligible(p, edition),
                float1=float_in_round(p, rounds - 1, score_of, edition) if rounds >= 1 else None,
                float2=float_in_round(p, rounds - 2, score_of, edition) if rounds >= 2 else None,
                played=sum(1 for r in p.history if r.played),
            )
        )
    infos.sort(key=lambda x: (-x.score, x.player.id))
    # E.5 gives the initial colour to odd pairing numbers, counted over the players who take part
    # in this round or were paired in an earlier one (absent from the start: not numbered).
    present = {x.player.id: x for x in infos}
    number = 0
    for p in sorted(state.players, key=lambda q: q.id):
        if p.id in present or any(r.paired or r.kind is Kind.PAIRING_BYE for r in p.history):
            number += 1
            if p.id in present:
                present[p.id].rank = number
    return infos


def _complete(rnd: _Round, vertices: list[int]) -> bool:
    """C4: can `vertices` all be paired but one bye candidate (C1-C3, C2 for the bye)?"""
    m = len(vertices)
    if m <= 1:
        return m == 0 or rnd.info[vertices[0]].eligible
    graph = rustworkx.PyGraph()
    graph.add_nodes_from(vertices)
    noncand = [0 if rnd.bye_candidate(v) else 1 for v in vertices]
    edges = []
    for a in range(m):
        for b in range(a + 1, m):
            if rnd.compatible(vertices[a], vertices[b]):
                edges.append((a, b, 1 + noncand[a] + noncand[b]))
    graph.add_edges_from(edges)
    matching = rustworkx.max_weight_matching(graph, weight_fn=lambda w: w)
    value = sum(1 + noncand[a] + noncand[b] for a, b in matching)
    return len(matching) == m // 2 and value == m // 2 + sum(noncand)


def _bye_prepass(rnd: _Round) -> None:
    """Fix the score of the pairing-allocated bye (C5) by one matching of the whole round, and
    whether C9 applies to the first bracket; raise NoValidPairing when C1-C4 cannot hold."""
    n = rnd.n
    info = rnd.info
    if n % 2 == 0:
        rnd.bye_score = 0
        if not _complete(rnd, list(range(n))):
            raise NoValidPairing("the players cannot all be paired without breaking an absolute criterion")
        return
    ranks = sorted(set(rnd.shift.values()))
    rank_of = {s: ranks.index(rnd.shift[s]) for s in rnd.shift}
    top = info[0].score
    flag_unit = n + 1
    shift_unit = flag_unit * (2 * len(ranks) * n + 1)
    graph = rustworkx.PyGraph()
    graph.add_nodes_from(range(n))
    edges = []
    for a in range(n):
        for b in range(a + 1, n):
            if rnd.compatible(a, b):
                comp = 1 + (not info[a].eligible) + (not info[b].eligible)
                value = (
                    comp * shift_unit
                    + (rank_of[info[a].score] + rank_of[info[b].score]) * flag_unit
                    + (info[b].score >= top)
                )
                edges.append((a, b, value))
    graph.add_edges_from(edges)
    mate = {}
    for a, b in rustworkx.max_weight_matching(graph, weight_fn=lambda w: w):
        mate[a], mate[b] = b, a
    unmatched = [v for v in range(n) if v not in mate]
    if len(unmatched) != 1 or not info[unmatched[0]].eligible:
        raise NoValidPairing("the players cannot all be paired without breaking an absolute criterion")
    rnd.bye_score = info[unmatched[0]].score
    if rnd.bye_score >= top:
        rnd.single_is_bye = all(info[mate[v]].score >= top for v in range(n) if info[v].score >= top and v in mate)
    # C9: pairing a player with many unplayed rounds is worth more, so the bye goes to the fewest.
    played = sorted((p.played for p in info if p.score == rnd.bye_score), reverse=True)
    rnd.played_rank = {}
    for k, games in enumerate(played):
        rnd.played_rank[games] = k
    if not _complete(rnd, list(range(n))):
        raise NoValidPairing("the players cannot all be paired without breaking an absolute criterion")


class _Pairer:
    """The bracket loop (Art. 3-4) over a prepared round."""

    def __init__(self, rnd: _Round, shortcuts: bool = True) -> None:
        self.rnd = rnd
        self.n = rnd.n
        self.shortcuts = shortcuts  # False: every transposition by the full solve (to check them)
        self.weights: dict[tuple[int, int], int] = {}
        self.initial_single = rnd.single_is_bye
        self.active = set(range(rnd.n))  # not yet finalised
        self.pairs: list[tuple[int, int]] = []
        self.full = False
        self.local: list[int] = []
        self.low = rnd.low_bits()
        self.lines: list[Note] = []
        self.outlets: list[int] = []
        self.journal: dict[tuple[int, int], int] | None = None  # weights before this bracket

    # ------------------------------------------------------------ weights and solving

    def get(self, a: int, b: int) -> int:
        key = (a, b) if a < b else (b, a)
        w = self.weights.get(key)
        if w is None:
            w = self.rnd.weight(key[0], key[1], False, False, self.initial_single)
            self.weights[key] = w
        return w

    def put(self, a: int, b: int, w: int) -> None:
        key = (a, b) if a < b else (b, a)
        if self.journal is not None and key not in self.journal:
            self.journal[key] = self.weights.get(key, _MISSING)
        self.weights[key] = w

    def solve(
        self, extra: dict[tuple[int, int], int] | None = None, shift: int = 0, among: list[int] | None = None
    ) -> list[int]:
        """The current optimum as mate[v] (v itself: unmatched; n + v: paired below the graph).

        With `extra`, every weight is shifted left by `shift` bits and the edges in `extra` (keyed
        by (smaller, larger) vertex) weigh what it says instead: low-order fields that settle a whole
        sequence of decisions in one solve. With `among`, only those players are paired, among
        themselves and without private partners."""
        vertices = self._vertices() if among is None else among
        stand_in = self._stand_ins(shift) if among is None else [0] * self.n
        edges = []
        for i, a in enumerate(vertices):
            for b in vertices[i + 1 :]:
                w = self.get(a, b) << shift
                if extra is not None:
                    w = extra.get((a, b), w)
                if w:
                    w = 2 * w - stand_in[a] - stand_in[b]
                    if w > 0:
                        edges.append((a, b, w))
        found = max_weight_matching(vertices, edges)
        return [found.get(v, self.n + v if stand_in[v] else v) for v in range(self.n)]

    def _vertices(self) -> list[int]:
        """The players of the graph solved now: the bracket and the next scoregroup, or all left."""
        return sorted(self.active) if self.full else [v for v in self.local if v in self.active]

    def _stand_ins(self, shift: int = 0) -> list[int]:
        """Per vertex, the value of its private partner (0: none).

        Weights are doubled: a private partner is worth half a pair in the C4/C5 field, so every
        way of covering the same players weighs the same there. Instead of a partner vertex, its
        value c(y) is subtracted from every edge at y: a matching M then weighs
        sum(2w, M) - sum(c, players M pairs), which is sum(2w, M) + sum(c, players left to their
        partners) less a constant, so the same matchings are optimal on half the vertices."""
        stand_in = [0] * self.n
        if not self.full:
            unit = 1 << (self.low + shift)
            for y in self.outlets:
                if y in self.active:
                    stand_in[y] = (1 + 2 * (not self.rnd.bye_candidate(y))) * unit
        return stand_in

    def in_order(
        self, optimum: list[int], s1: list[int], s2: list[int], criteria: Callable[[int, int], int]
    ) -> list[int] | None:
        """The first transposition when it is optimal, without a solve (None when it is not).

        S1 against S2 in order (S1[i] - S2[i]) is the first candidate of the order of
        transpositions (Art. 4), and it maximises the exchange fields (every pair headed by an S1
        player, the lowest ones). `optimum` is a maximum-weight matching of this graph under the
        criteria weights `criteria` (no exchange or order fields). When S1 against S2 with the
        rest of `optimum` weighs as much under those weights, it meets every criterion as well as
        any pairing can, so it is the pairing the transposition solve would choose."""
        n = self.n
        pairs = list(zip(s1, s2, strict=False))
        if len(pairs) < len(s1) or not all(criteria(a, b) for a, b in pairs):
            return None
        taken = {v for pair in pairs for v in pair}
        vertices = set(self._vertices())
        best = [(v, m) for v, m in enumerate(optimum) if v < m < n and v in vertices and m in vertices]
        rest = [(v, m) for v, m in best if v not in taken and m not in taken]
        stand_in = self._stand_ins()

        def weight(matching: list[tuple[int, int]]) -> int:
            return sum(2 * criteria(a, b) - stand_in[a] - stand_in[b] for a, b in matching)

        if weight(pairs + rest) < weight(best):
            return None
        mate = [n + v if stand_in[v] else v for v in range(n)]
        for a, b in pairs + rest:
            mate[a], mate[b] = b, a
        return mate

    # ------------------------------------------------------------ the bracket loop

    def run(self) -> list[tuple[int, int]]:
        rnd, info = self.rnd, self.rnd.info
        order = list(range(self.n))
        pos = 0
        top = info[0].score if info else 0
        current: list[int] = []
        while pos < self.n and info[pos].score >= top:
            current.append(pos)
            pos += 1
        movers = 0  # how many of `current` are MDPs
        while len(current) > 1 or pos < self.n:
            bracket_end = len(current)
            group_start = pos
            if pos < self.n:
                score = info[pos].score
                while pos < self.n and info[pos].score >= score:
                    current.append(order[pos])
                    pos += 1
            bracket_movers = current[:movers]
            saved_single = rnd.single_is_bye
            self.journal = {}
            # Few players left below: solve with all of them (their pairs bound the look-ahead).
            self.full = len(self.active) - len(current) <= _FEW_BELOW
            state = self._bracket(current, movers, bracket_end, group_start)
            if not self.full and not _complete(rnd, sorted(self.active)):
                self._undo(state)
                rnd.single_is_bye = saved_single
                self.journal = {}
                self.full = True
                state = self._bracket(current, movers, bracket_end, group_start)
            self.journal = None
            mate, matched = state[0], state[1]
            nxt: list[int] = []
            movers = 0
            single = self.n % 2 == 1 and group_start < self.n and rnd.bye_score == info[group_start].score
            for idx, v in enumerate(current):
                if idx < bracket_end and matched[v]:
                    continue
                nxt.append(v)
                if idx < bracket_end:
                    movers += 1
                partner = mate[v]
                partner_score = info[partner].score if partner < self.n else -1
                if partner_score < rnd.bye_score:
                    single = False
            self._explain(current[:bracket_end], state[2], nxt[:movers], bracket_movers)
            rnd.single_is_bye = single
            current = nxt
        return self.pairs

    def _undo(self, state: tuple) -> None:
        assert self.journal is not None
        for key, old in self.journal.items():
            if old == _MISSING:
                self.weights.pop(key, None)
            else:
                self.weights[key] = old
        for a, b in state[2]:
            self.active.add(a)
            self.active.add(b)
            self.pairs.remove((a, b))

    def _finalize(self, a: int, b: int, made: list[tuple[int, int]]) -> None:
        self.active.discard(a)
        self.active.discard(b)
        self.pairs.append((a, b))
        made.append((a, b))

    def _explain(self, bracket: list[int], made: list[tuple[int, int]], floaters: list[int], movers: list[int]) -> None:
        """One line per bracket: its MDPs, pairs, downfloaters and the quality criteria not met."""
        info = self.rnd.info
        if not bracket:
            return

        def name(v: int) -> str:
            return f"{info[v].player.id} ({info[v].score / 2:g})"

        residents = [v for v in bracket if v not in movers]
        score = info[residents[0]].score / 2 if residents else info[bracket[-1]].score / 2
        parts = [_BRACKET(score=f"{score:g}", residents=len(residents))]
        if movers:
            parts.append(_MDPS(players=[name(v) for v in movers]))
        parts.append(_PAIRS(pairs=[f"{info[a].player.id}-{info[b].player.id}" for a, b in made] or NONE()))
        if floaters:
            parts.append(_DOWNFLOATERS(players=[name(v) for v in floaters]))
        unmet: list[Note] = []
        counts = {"C12": 0, "C13": 0, "C10": 0, "C11": 0, "C14/C16": 0, "C15/C17": 0}
        for a, b in made:
            ca, cb = info[a].colour, info[b].colour
            if ca.preference is not None and ca.preference is cb.preference:
                counts["C12"] += 1
                if (ca.strong or ca.absolute) and (cb.strong or cb.absolute) and not (ca.absolute and cb.absolute):
                    counts["C13"] += 1
                if ca.absolute and cb.absolute:
                    counts["C10" if ca.imbalance > 1 and cb.imbalance > 1 else "C11"] += 1
            if info[a].score > info[b].score and info[b].float1 is Float.UP:
                counts["C15/C17"] += 1
        for v in floaters:
            if info[v].float1 is Float.DOWN and v not in movers:
                counts["C14/C16"] += 1
        for key, value in counts.items():
            if value:
                unmet.append(_CRITERION(criterion=key, name=_CRITERION_NAMES[key](), count=value))
        parts.append(_UNMET(criteria=unmet or NONE()))
        self.lines.append(joined(parts))

    def _bracket(self, players: list[int], movers: int, end: int, group_start: int) -> tuple:
        """Pair one bracket: `players[:movers]` are the MDPs, `players[movers:end]` the residents,
        `players[end:]` the next scoregroup. Returns (mate, matched, pairs made)."""
        rnd, n = self.rnd, self.n
        self.local = list(players)
        inside = set(players)
        outside = [v for v in self.active if v not in inside]
        # Players who could also be paired further down (or receive the bye) get a private partner
        # standing for that in the bracket's own graph; C4 is checked on the whole round afterwards.
        odd = self.n % 2 == 1
        self.outlets = (
            [y for y in players if (odd and rnd.bye_candidate(y)) or any(rnd.compatible(y, o) for o in outside)]
            if outside or odd
            else []
        )
        made: list[tuple[int, int]] = []
        vx = players
        res_hi = group_start  # first vertex of the next scoregroup
        res_lo = group_start - (end - movers)
        in_res = lambda m: res_lo <= m < res_hi  # noqa: E731
        size = len(players)
        base: dict[tuple[int, int], int] = {}
        for li in range(movers, size):
            for si in range(li):
                w = rnd.weight(vx[si], vx[li], li < end, li >= end, rnd.single_is_bye)
                base[(li, si)] = w
                self.put(vx[si], vx[li], w)

        def ewc(si: int, li: int, si_rem: int, rem_pairs: int) -> int:
            w = base[(li, si)]
            if w:
                add = 1 if si_rem < rem_pairs else 0
                add <<= 2 * rnd.size_bits
                add -= si_rem
                add <<= 1
                w += add
            return w

        matched = [False] * n
        # The MDPs: which are paired (higher scores first, within a score the earliest that can
        # be) and their opponents (each in turn the highest resident that keeps the optimum). One
        # solve: below the criteria, a bit per MDP (earlier MDPs more significant) for being paired
        # in the bracket, then a field per MDP holding its opponent's rank.
        if movers:
            bb = (end - movers + 1).bit_length()
            order_bits = movers * bb
            shift = movers + order_bits
            extra = {}
            for pi in range(movers):
                v = vx[pi]
                bonus = 1 << (order_bits + movers - 1 - pi)
                for oi in range(movers, end):
                    w = base[(oi, pi)]
                    if w:
                        extra[(v, vx[oi])] = (w << shift) + bonus + ((end - oi) << ((movers - 1 - pi) * bb))
            mate = self.solve(extra, shift)
            for pi in range(movers):
                v = vx[pi]
                if in_res(mate[v]):
                    m = mate[v]
                    matched[v] = matched[m] = True
                    self._finalize(v, m, made)
        else:
            mate = self.solve()
        # The remainder: exchanges, then S1's opponents.
        remainder = [oi for oi in range(movers, end) if mate[vx[oi]] >= res_lo and not matched[vx[oi]]]
        rem_pairs = sum(1 for oi in remainder if mate[vx[oi]] < vx[oi])
        for j, oi in enumerate(remainder):
            for i in range(j):
                pi = remainder[i]
                self.put(vx[pi], vx[oi], ewc(pi, oi, i, rem_pairs))

        def transpositions(s1: list[int]) -> list[int]:
            """Solve with each S1 player in turn preferring the earliest S2 player (the order of
            transpositions): a low-order field per S1 player, earlier players more significant,
            holds the partner's position counted from the end of the remainder."""
            bb = (len(remainder) + 1).bit_length()
            shift = len(s1) * bb
            extra = {}
            for i, pi in enumerate(s1):
                v = vx[pi]
                for k, oi in enumerate(remainder):
                    w = self.get(v, vx[oi]) if oi > pi else 0
                    if w:
                        extra[(v, vx[oi])] = (w << shift) + ((len(remainder) - k) << ((len(s1) - 1 - i) * bb))
            # When the optimum pairs every remainder player inside the remainder (nobody floats
            # from it), every pairing as good keeps doing so and the players outside cannot gain
            # or lose by how the remainder is paired: solve the remainder alone, keep the rest.
            members = {vx[oi] for oi in remainder}
            if self.shortcuts and 2 * len(s1) == len(remainder) and all(mate[v] in members for v in members):
                inside = self.solve(extra, shift, among=sorted(members))
                if all(inside[v] != v and inside[v] in members for v in members):
                    return [inside[v] if v in members else mate[v] for v in range(n)]
            return self.solve(extra, shift)

        def finalize_s1(s1: list[int]) -> None:
            for pi in s1:
                v = vx[pi]
                m = mate[v]
                if m < n and m != v:
                    matched[v] = matched[m] = True
                    self._finalize(v, m, made)

        # Solved once with S1 as it stands; when no exchange is needed that is already the answer.
        if rem_pairs:
            local = {v: i for i, v in enumerate(vx)}
            in_remainder = set(remainder)

            def criteria(a: int, b: int) -> int:
                """The weight without the exchange fields that the remainder's pairs now carry."""
                i, j = local.get(a, -1), local.get(b, -1)
                if i in in_remainder and j in in_remainder:
                    return base[(max(i, j), min(i, j))]
                return self.get(a, b)

            s1, s2 = remainder[:rem_pairs], remainder[rem_pairs:]
            first = self.in_order(mate, [vx[i] for i in s1], [vx[i] for i in s2], criteria) if self.shortcuts else None
            mate = first or transpositions(s1)
        else:
            mate = self.solve()

        def exchanged_s1(v: int) -> bool:
            return mate[v] <= v or mate[v] >= res_hi

        def in_s1_role(v: int) -> bool:
            return v < mate[v] < res_hi

        exchanges = sum(1 for oi in remainder[:rem_pairs] if exchanged_s1(vx[oi]))
        if not exchanges:
            finalize_s1([pi for pi in remainder[:rem_pairs] if in_s1_role(vx[pi])])
            return mate, matched, made
        left = exchanges
        k = rem_pairs
        while k > 0 and left:
            k -= 1
            pi = remainder[k]
            v = vx[pi]
            if in_s1_role(v):
                for oi in remainder[k + 1 :]:
                    w = ewc(pi, oi, k, rem_pairs)
                    if w:
                        self.put(v, vx[oi], w - 1)
                mate = self.solve()
            exchange = exchanged_s1(v)
            left -= exchange
            for oi in remainder[k + 1 :]:
                if exchange:
                    base[(oi, pi)] = 0
                self.put(v, vx[oi], ewc(pi, oi, k, rem_pairs))
        left = exchanges
        for k in range(rem_pairs, len(remainder)):
            if left <= 1:
                break
            pi = remainder[k]
            v = vx[pi]
            already = in_s1_role(v)
            if not already:
                for oi in remainder[k + 1 :]:
                    w = ewc(pi, oi, k, rem_pairs)
                    if w:
                        self.put(v, vx[oi], w + 1)
                mate = self.solve()
            if in_s1_role(v):
                left -= 1
                for oi in remainder[:k]:
                    base[(pi, oi)] = 0
                    self.put(v, vx[oi], 0)
                for oi in range(end, size):
                    base[(oi, pi)] = 0
                    self.put(v, vx[oi], 0)
            if not already:
                for oi in remainder[k + 1 :]:
                    self.put(v, vx[oi], ewc(pi, oi, k, rem_pairs))
        for i, pi in enumerate(remainder):
            v = vx[pi]
            for oi in remainder[i + 1 :]:
                o = vx[oi]
                if not in_s1_role(v) or in_s1_role(o):
                    base[(oi, pi)] = 0
                self.put(v, o, base[(oi, pi)])
        # S1's opponents: each S1 player in turn the earliest S2 player that keeps the optimum
        # (the order of transpositions). One solve: a low-order field per S1 player, earlier
        # players more significant, holds the partner's position counted from the end.
        s1 = [pi for pi in remainder if in_s1_role(vx[pi])]
        if s1:
            mate = transpositions(s1)
            finalize_s1(s1)
        return mate, matched, made


def pair_round(state: TournamentState, edition: Edition = Edition.FIDE_2026, *, shortcuts: bool = True) -> Pairing:
    """Pair `state.round_to_pair` by the Dutch system of `edition` (2026 criteria C1-C21).

    `shortcuts=False` settles every bracket's transpositions by the full solve, never by S1
    against S2 in order or the remainder alone: the same pairing, slower (tests compare the two)."""
    info = _prepare(state, edition)
    rnd = _Round(state, edition, info)
    if rnd.n == 0:
        return Pairing(boards=[], byes=_requested(state), explanation=[_NOBODY()])
    if rnd.n == 1:
        if not info[0].eligible:
            raise NoValidPairing(f"player {info[0].player.id} cannot receive the bye (C2)")
        bye = [Bye(info[0].player.id, Kind.PAIRING_BYE)]
        return Pairing(boards=[], byes=bye + _requested(state), explanation=[_ONE_PLAYER()])
    _bye_prepass(rnd)
    pairer = _Pairer(rnd, shortcuts)
    pairs = pairer.run()
    paired = {v for pair in pairs for v in pair}
    unpaired = [v for v in range(rnd.n) if v not in paired]
    if len(unpaired) > 1 or (unpaired and not info[unpaired[0]].eligible):
        raise NoValidPairing("no complete round-pairing found")
    boards = []
    for a, b in pairs:
        hi, lo = (a, b) if a < b else (b, a)  # sorted order: hi ranks higher
        colour = allocate(info[hi].colour, info[lo].colour, info[hi].rank, state.top_colour_round1)
        ph, pl = info[hi].player.id, info[lo].player.id
        boards.append((hi, lo, Board(ph, pl) if colour is Colour.WHITE else Board(pl, ph)))
    # Publication order: the higher player's score, the lower player's score, the higher's number.
    boards.sort(key=lambda t: (-info[t[0]].score, -info[t[1]].score, info[t[0]].player.id))
    byes = [Bye(info[v].player.id, Kind.PAIRING_BYE) for v in unpaired]
    lines = pairer.lines
    if unpaired:
        v = unpaired[0]
        lines.append(_BYE(player=info[v].player.id, score=f"{info[v].score / 2:g}", games=info[v].played))
    return Pairing(boards=[t[2] for t in boards], byes=byes + _requested(state), explanation=lines)


def _requested(state: TournamentState) -> list[Bye]:
    return [Bye(pid, kind) for pid, kind in sorted(state.requested_byes.items())]


def _pair(state: TournamentState) -> Pairing:
    return pair_round(state, Edition.FIDE_2026)


SYSTEM = PairingSystem(id="dutch", name="FIDE Dutch system (C.04.3, 2026)", pair=_pair)
