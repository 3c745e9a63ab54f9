"""The FIDE (Dutch) system, C.04.3 in force since 1 February 2026.

Brackets are paired top-down by weighted maximum matching: every criterion of Art. 2 (C1-C21) is a
bit field of one integer edge weight, more significant fields for higher criteria, so a maximum
weight matching is a pairing that no other pairing beats on the criteria taken in order. The
generation order of Art. 3 / 4 (the first candidate in the order of transpositions and exchanges
wins a tie) is reproduced by deciding in that order, one decision at a time: which moved-down
players (MDPs) are paired and their opponents, which players are exchanged between S1 and S2, and
the S1 players' opponents. Each decision puts a small field below the criteria on one player's
edges and solves again; the matcher (`matching.Matcher`) starts from the previous optimum, so a
decision costs a few augmentations. The field layout follows the published description of the
reference programs.

Completion (C4) holds for the whole round: a bracket is solved on its own players and the next
scoregroup, every player who could still be paired lower down (or receive the bye) having a
stand-in partner worth half a pair in the completion field; when the players left cannot then all
be paired, or few players are left below, the bracket is solved with every unpaired player.
"""

from __future__ import annotations

from dataclasses import dataclass

from .colours import ColourState, Edition, Float, allocate, bye_eligible, colour_state, float_in_round
from .matching import compact, new_matcher
from .notes import NONE, Note, joined, note_text
from .registry import PairingSystem
from .state import Board, Bye, Colour, InvalidInput, Kind, NoValidPairing, Pairing, Player, TournamentState

_NO_PAIRING = note_text(
    "dutch.no_pairing", "The players cannot all be paired without breaking an absolute criterion (C1-C3)."
)
_NO_BYE = note_text("dutch.no_bye", "Player %(player)s cannot receive the bye (C2).")

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
# In the TD's words: a bracket is the players on one score, its MDPs come down from a higher score, its
# downfloaters go down to the next; the criteria's numbers follow in brackets (the page prints them small).
_BRACKET = note_text("dutch.bracket", "score %(score)s: %(residents)s players")
_MDPS = note_text("dutch.mdps", "come down from more points: %(players)s")
_PAIRS = note_text("dutch.pairs", "paired %(pairs)s")
_DOWNFLOATERS = note_text("dutch.downfloaters", "go down to fewer points: %(players)s")
_UNMET = note_text("dutch.unmet", "wishes not met: %(criteria)s")
_CRITERION = note_text("dutch.criterion", "%(name)s ×%(count)s (%(criterion)s)")
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
        self.forbidden = [self.state.cannot_meet(p.player) for p in info]
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
        self.completion: _Completion | None = None  # C4 over the round, made by _bye_prepass

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
        return self._candidate(self.info[a])

    def _candidate(self, p: _Info) -> bool:
        return p.eligible and p.score <= self.bye_score

    def barred_pairs(self) -> list[tuple[int, int]]:
        """Every pair (a, b), a < b, that C1 or C3 rules out."""
        return [(a, b) for a, others in enumerate(self.barred) for b in others if a < b]

    def weight(self, h: int, lo: int, current: bool, following: bool, single: bool) -> int:
        """The edge weight of higher player `h` against lower player `lo` (h < lo): 0 when C1 or
        C3 rules the pair out, else `pair_weight`."""
        if not self.compatible(h, lo):
            return 0
        return self.pair_weight(self.info[h], self.info[lo], current, following, single)

    def pair_weight(self, ph: _Info, pl: _Info, current: bool, following: bool, single: bool) -> int:
        """The edge weight of a higher player `ph` against a lower one `pl`, field by field from the
        most significant: C4/C5, C6, C7, C8 (two fields), C9, C10-C13, C14-C17, C18-C21, and room
        for the generation order. `current`/`following`: `pl` is in this bracket / the next;
        `single`: C9 applies (the bracket's single downfloater is the future bye). It depends on
        the players' attributes only (`_signature`), so a bracket's weights are a table of them."""
        sb, gs = self.size_bits, self.groups_shift
        w = 1 + (not self._candidate(ph)) + (not self._candidate(pl))
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


def _signature(p: _Info) -> tuple:
    """What `_Round.pair_weight` reads of a player: players alike in it weigh alike."""
    c = p.colour
    return (p.score, p.eligible, p.played, c.imbalance, c.repeated, c.preference, p.float1, p.float2)


class _Completion:
    """C4 over the whole round: can the players not yet paired all be paired but one bye candidate
    (C1-C3, C2 for the bye)? One maximum-weight matching of every player, weighing 1 per pair and 1
    more for each end that is no bye candidate on the pairs C1 and C3 allow: they can, exactly when
    it pairs all but one and leaves no non-candidate alone. It is kept through the round: the players
    a bracket pairs leave the graph and the matching is solved again from the one before."""

    def __init__(self, rnd: _Round) -> None:
        self.rnd = rnd
        self.noncand = [0 if rnd.bye_candidate(v) else 1 for v in range(rnd.n)]
        self.out: set[int] = set()
        self.matcher = new_matcher(rnd.n, 2)
        self.matcher.build_classes(list(range(rnd.n)), self.noncand, [1, 2, 2, 3], rnd.barred_pairs())

    def holds(self) -> bool:
        left = [v for v in range(self.rnd.n) if v not in self.out]
        if len(left) <= 1:
            return not left or self.rnd.info[left[0]].eligible
        mate = self.matcher.solve()
        pairs = sum(1 for v in left if mate[v] > v)
        return pairs == len(left) // 2 and all(mate[v] != -1 for v in left if self.noncand[v])

    def pair_off(self, vertices: list[int]) -> None:
        self.out.update(vertices)
        self.matcher.remove(vertices)

    def put_back(self, vertices: list[int]) -> None:
        self.out.difference_update(vertices)
        self.matcher.restore(vertices)


def _bye_prepass(rnd: _Round) -> None:
    """Fix the score of the pairing-allocated bye (C5) by one matching of the whole round, and
    whether C9 applies to the first bracket; raise NoValidPairing when C1-C4 cannot hold."""
    n = rnd.n
    info = rnd.info
    if n % 2 == 0:
        rnd.bye_score = 0
        rnd.completion = _Completion(rnd)
        if not rnd.completion.holds():
            raise NoValidPairing(_NO_PAIRING())
        return
    ranks = sorted(set(rnd.shift.values()))
    rank_of = {s: ranks.index(rnd.shift[s]) for s in rnd.shift}
    top = info[0].score
    flag_unit = n + 1
    shift_unit = flag_unit * (2 * len(ranks) * n + 1)
    # A pair weighs by the players' eligibility and scores alone: a class per such kind of player.
    kinds = sorted({(p.eligible, p.score) for p in info})
    kind_of = {k: i for i, k in enumerate(kinds)}
    table = [
        (1 + (not high_eligible) + (not low_eligible)) * shift_unit
        + (rank_of[high_score] + rank_of[low_score]) * flag_unit
        + (low_score >= top)
        for high_eligible, high_score in kinds
        for low_eligible, low_score in kinds
    ]
    matcher = new_matcher(n, max(table).bit_length())
    matcher.build_classes(list(range(n)), [kind_of[(p.eligible, p.score)] for p in info], table, rnd.barred_pairs())
    mate = {v: m for v, m in enumerate(matcher.solve()) if m != -1}
    unmatched = [v for v in range(n) if v not in mate]
    if len(unmatched) != 1 or not info[unmatched[0]].eligible:
        raise NoValidPairing(_NO_PAIRING())
    rnd.bye_score = info[unmatched[0]].score
    if rnd.bye_score >= top:
        rnd.single_is_bye = all(info[mate[v]].score >= top for v in range(n) if info[v].score >= top and v in mate)
    # C9: pairing a player with many unplayed rounds is worth more, so the bye goes to the fewest.
    played = sorted((p.played for p in info if p.score == rnd.bye_score), reverse=True)
    rnd.played_rank = {}
    for k, games in enumerate(played):
        rnd.played_rank[games] = k
    rnd.completion = _Completion(rnd)
    if not rnd.completion.holds():
        raise NoValidPairing(_NO_PAIRING())


_IN_BRACKET, _IN_NEXT, _BEYOND = 0, 1, 2  # a player's place in a bracket's graph, in pairing order


class _Graph:
    """The graph a bracket is paired on, held by the matcher and changed decision by decision.

    Its vertices are the bracket and the next scoregroup (or, `full`, every player left). An edge
    weighs ((2w - c(a) - c(b)) << D) + low: w the criteria weight of the pair (`_Round.weight`, with
    the exchange fields while they apply); c the value of a player's stand-in partner (a player who
    could also be paired further down, or receive the bye, has one worth half a pair in the
    completion field: subtracting it from every edge at him makes a matching that leaves him to it
    weigh as much as one that pairs him, with no extra vertex); `low` the field of the decision
    being taken, D bits below the criteria. The criteria weights are a table over classes of
    players alike in attributes and place, from which bit ranges no weight uses are squeezed out
    (`matching.compact`); decisions change a player's edges by small deltas."""

    def __init__(self, pairer: _Pairer, players: list[int], movers: int, end: int, outlets: list[int]) -> None:
        rnd = pairer.rnd
        self.rnd = rnd
        self.n = rnd.n
        self.vertices = sorted(pairer.active) if pairer.full else [v for v in players if v in pairer.active]
        self.local = {v: i for i, v in enumerate(self.vertices)}
        self.gone: set[int] = set()
        self.stand_in = [0] * rnd.n
        if not pairer.full:
            unit = 1 << rnd.low_bits()
            for y in outlets:
                if y in pairer.active:
                    self.stand_in[y] = (1 + 2 * (not rnd.bye_candidate(y))) * unit
        self.mdps = set(players[:movers])
        width = (end - movers + 1).bit_length()
        self.low = width + 1 + movers.bit_length() if movers else width
        members = self._classify(players, end)
        self.raw_table = [
            self._criteria(high, high_place, low, low_place, pairer.initial_single)
            for high, high_place, _ in members
            for low, low_place, _ in members
        ]
        # Pairs of MDPs keep the weights their players had when they were paired above.
        self.carried: dict[tuple[int, int], int] = {}
        for a in sorted(self.mdps):
            for b in sorted(self.mdps):
                if a < b and a in self.local and b in self.local and rnd.compatible(a, b):
                    w = pairer.carried.get((a, b))
                    self.carried[(a, b)] = rnd.weight(a, b, False, False, pairer.initial_single) if w is None else w
        self._load([c for _, _, c in members])
        self._found: list[int] | None = None

    def _classify(self, players: list[int], end: int) -> list[tuple[_Info, int, int]]:
        """Sort the vertices into classes of players whose edges weigh alike (`self.cls`): the
        same attributes, place and stand-in. Returns a member of each: (info, place, stand-in)."""
        place = dict.fromkeys(self.vertices, _BEYOND)
        for i, v in enumerate(players):
            place[v] = _IN_BRACKET if i < end else _IN_NEXT
        kinds: dict[tuple, int] = {}
        members: list[tuple[_Info, int, int]] = []
        self.cls: list[int] = []
        for v in self.vertices:
            key = (_signature(self.rnd.info[v]), place[v], self.stand_in[v])
            if key not in kinds:
                kinds[key] = len(members)
                members.append((self.rnd.info[v], place[v], self.stand_in[v]))
            self.cls.append(kinds[key])
        self.classes = len(members)
        return members

    def _load(self, stand_ins: list[int]) -> None:
        """Give the matcher the graph: the class table (doubled, less the stand-ins, squeezed and
        shifted above the decision field), the barred pairs and the MDPs' carried weights."""
        count, local = self.classes, self.local
        values = [
            2 * w - stand_ins[k // count] - stand_ins[k % count] if w else 0 for k, w in enumerate(self.raw_table)
        ]
        carried = [
            (a, b, max(0, 2 * w - self.stand_in[a] - self.stand_in[b]) if w else 0)
            for (a, b), w in self.carried.items()
        ]
        # The exchange fields (3 size_bits + 1 bits, doubled) stay below every squeezed range.
        exchange = (1 << (3 * self.rnd.size_bits + 2)) - 1
        squeezed = compact(values + [w for _, _, w in carried] + [exchange], len(self.vertices) // 2)
        table = [w << self.low for w in squeezed[: len(values)]]
        extra = [w << self.low for w in squeezed[len(values) : len(values) + len(carried)]]
        self.matcher = new_matcher(len(self.vertices), max(table + extra + [1]).bit_length() + 1)
        barred = [(local[a], local[b]) for a in self.vertices for b in self.rnd.barred[a] if b > a and b in local]
        self.matcher.build_classes(list(range(len(self.vertices))), self.cls, table, barred)
        self.matcher.set_values([(local[a], local[b], w) for (a, b, _), w in zip(carried, extra, strict=True)])

    def _criteria(self, high: _Info, high_place: int, low: _Info, low_place: int, initial_single: bool) -> int:
        """w for a higher player against a lower one: C6-C21 count for this bracket (C10-C21) or
        the next (the look-ahead of C6-C9), nothing beyond (C4, C5 only)."""
        if high_place > low_place:
            return 0  # not a pair of the graph: vertices are in pairing order
        if low_place == _BEYOND:
            return self.rnd.pair_weight(high, low, False, False, initial_single)
        return self.rnd.pair_weight(high, low, low_place == _IN_BRACKET, low_place == _IN_NEXT, self.rnd.single_is_bye)

    def raw(self, a: int, b: int) -> int:
        """The criteria weight w of a pair of the graph, without exchange fields (0: no edge)."""
        if a > b:
            a, b = b, a
        if not self.rnd.compatible(a, b):
            return 0
        if a in self.mdps and b in self.mdps:
            return self.carried[(a, b)]
        return self.raw_table[self.cls[self.local[a]] * self.classes + self.cls[self.local[b]]]

    def unit(self, exchange: int, field: int = 0) -> int:
        """The delta that adds `exchange` to w and sets the decision field to `field`."""
        return ((2 * exchange) << self.low) + field

    def set(self, v: int, others: list[int], deltas: list[int | None]) -> None:
        """v's edges to `others`: class weight plus each delta (None: no edge)."""
        local = self.local
        row = [(local[o], d) for o, d in zip(others, deltas, strict=True) if o in local]
        if row:
            self.matcher.set_deltas(local[v], [o for o, _ in row], [d for _, d in row])
            self._found = None

    def remove(self, vertices: list[int]) -> None:
        """Players paired for good leave the graph (the optimum of the rest stays optimal)."""
        self.gone.update(vertices)
        self.matcher.remove([self.local[v] for v in vertices])
        self._found = None

    def alone(self, v: int) -> int:
        """v's entry in a solution when unpaired: n + v with a stand-in partner, else v."""
        return self.n + v if self.stand_in[v] and v not in self.gone else v

    def solve(self) -> _Mates:
        """The current optimum."""
        if self._found is None:
            self._found = self.matcher.solve()
        return _Mates(self, self._found)


class _Mates:
    """Each player's entry in a solution: his partner, n + v (left to his stand-in partner) or v."""

    __slots__ = ("graph", "found")

    def __init__(self, graph: _Graph, found: list[int]) -> None:
        self.graph = graph
        self.found = found

    def __getitem__(self, v: int) -> int:
        g = self.graph
        i = g.local.get(v)
        if i is None or v in g.gone or self.found[i] == -1:
            return g.alone(v)
        return g.vertices[self.found[i]]


class _Bracket:
    """Pair one bracket (Art. 3-4): `players[:movers]` are the MDPs, `players[movers:end]` the
    residents, `players[end:]` the next scoregroup. The generation order (the first candidate in
    the order of transpositions and exchanges wins a tie) is reproduced one decision at a time, each
    a solve after a few edges change below the criteria (the matcher starts from the previous
    optimum): which MDPs are paired and their opponents, which players are exchanged between S1 and
    S2, and each S1 player's opponent."""

    def __init__(self, pairer: _Pairer, players: list[int], movers: int, end: int, group_start: int) -> None:
        self.pairer = pairer
        self.rnd = pairer.rnd
        self.n = pairer.n
        self.vx = players
        self.movers = movers
        self.end = end
        self.res_hi = group_start  # first vertex of the next scoregroup
        self.res_lo = group_start - (end - movers)
        self.matched = [False] * self.n
        self.made: list[tuple[int, int]] = []
        self.zeroed: set[tuple[int, int]] = set()  # (later, earlier) positions in `players`: no edge
        self.remainder: list[int] = []  # positions of the residents not paired with an MDP
        self.rem_pairs = 0
        self.exchange_fields = True  # the remainder's pairs carry their exchange fields
        self.graph = _Graph(pairer, players, movers, end, self._outlets())
        self.mate: _Mates | list[int] = []

    def _outlets(self) -> list[int]:
        """The players who could also be paired further down (or receive the bye): each gets a
        private partner standing for that in the bracket's own graph (C4 is checked on the whole
        round afterwards)."""
        pairer, rnd = self.pairer, self.rnd
        inside = set(self.vx)
        outside = [v for v in pairer.active if v not in inside]
        odd = rnd.n % 2 == 1
        if not outside and not odd:
            return []
        return [y for y in self.vx if (odd and rnd.bye_candidate(y)) or any(rnd.compatible(y, o) for o in outside)]

    def pair(self) -> tuple:
        """Returns (mate, matched, pairs made)."""
        self.mate = self._pair_mdps() if self.movers else self.graph.solve()
        self._find_remainder()
        self._put_exchange_fields()
        s1 = self.remainder[: self.rem_pairs]
        first = self._in_order() if self.rem_pairs and self.pairer.shortcuts else None
        if first is not None:
            self.mate = first
            for v in (self.vx[pi] for pi in s1):
                self.matched[v] = self.matched[first[v]] = True
                self.pairer._finalize(v, first[v], self.made)
        else:
            # Solved with the exchange fields; when no exchange is needed S1's roles are settled.
            self.mate = self.graph.solve()
            exchanges = sum(1 for pi in s1 if self._exchanged_s1(self.vx[pi]))
            if exchanges:
                self._exchange_from_s1(exchanges)
                self._exchange_from_s2(exchanges)
                self._fix_roles()
                s1 = [pi for pi in self.remainder if self._in_s1_role(self.vx[pi])]
            self._transpose(s1)
        self._carry()
        return self.mate, self.matched, self.made

    # ------------------------------------------------------------ helpers

    def _make(self, a: int, b: int) -> None:
        self.matched[a] = self.matched[b] = True
        self.pairer._finalize(a, b, self.made)
        self.graph.remove([a, b])

    def _exchanged_s1(self, v: int) -> bool:
        return self.mate[v] <= v or self.mate[v] >= self.res_hi

    def _in_s1_role(self, v: int) -> bool:
        return v < self.mate[v] < self.res_hi

    def _exchange_field(self, k: int) -> int:
        """The exchange fields of a pair of the remainder headed by its k-th player: a bit for
        being headed by an S1 player (the fewest exchanges), then the head's position (the lowest
        S1 players given away, the highest S2 players taken in)."""
        add = 1 if k < self.rem_pairs else 0
        add <<= 2 * self.rnd.size_bits
        add -= k
        return add << 1

    def _put_row(self, pi: int, others: list[int], exchange: int) -> None:
        """The edges of the player at position pi to those at `others`: criteria weight plus
        `exchange`, or no edge where the pair is taken out."""
        delta = self.graph.unit(exchange)
        deltas = [None if (max(pi, oi), min(pi, oi)) in self.zeroed else delta for oi in others]
        self.graph.set(self.vx[pi], [self.vx[oi] for oi in others], deltas)

    # ------------------------------------------------------------ the steps

    def _pair_mdps(self) -> _Mates:
        """The MDPs: which are paired (higher scores first, within a score the earliest that can
        be), then their opponents (each in turn the highest resident that keeps the optimum).
        Below the criteria, the MDP being decided gets a bonus on its edges to the residents; one
        found to be paired keeps a larger one (a field counting the MDPs that must stay paired)
        while the next are decided. Then each in turn gets a field holding its opponent's rank,
        and the pair is made."""
        g, vx, movers, end = self.graph, self.vx, self.movers, self.end
        width = (end - movers + 1).bit_length()
        keep = 1 << (width + 1)
        residents = vx[movers:end]
        paired: list[int] = []
        for v in vx[:movers]:
            g.set(v, residents, [1 << width] * len(residents))
            if self.res_lo <= g.solve()[v] < self.res_hi:
                paired.append(v)
                g.set(v, residents, [keep] * len(residents))
            else:
                g.set(v, residents, [0] * len(residents))
        for v in paired:
            left = [r for r in residents if not self.matched[r]]
            g.set(v, left, [keep + end - (movers + r - self.res_lo) for r in left])
            m = g.solve()[v]
            if self.res_lo <= m < self.res_hi:  # always: the bonus above keeps v paired in the bracket
                self._make(v, m)
        return g.solve()

    def _find_remainder(self) -> None:
        mate, vx = self.mate, self.vx
        self.remainder = [
            oi for oi in range(self.movers, self.end) if mate[vx[oi]] >= self.res_lo and not self.matched[vx[oi]]
        ]
        self.rem_pairs = sum(1 for oi in self.remainder if mate[vx[oi]] < vx[oi])

    def _put_exchange_fields(self) -> None:
        rem = self.remainder
        for i, pi in enumerate(rem):
            self._put_row(pi, rem[i + 1 :], self._exchange_field(i))

    def _in_order(self) -> list[int] | None:
        """The first transposition when it is optimal, without a solve (None when it is not).

        S1 against S2 in order (S1[i] - S2[i]) is the first candidate of the order of
        transpositions (Art. 4), and it maximises the exchange fields (every pair headed by an S1
        player, the lowest ones). `self.mate` is a maximum-weight matching under the criteria
        weights (no exchange or order fields). When S1 against S2 with the rest of it weighs as
        much under those weights, it meets every criterion as well as any pairing can, so it is
        the pairing the transpositions would choose."""
        n, vx, g = self.n, self.vx, self.graph
        s1 = [vx[pi] for pi in self.remainder[: self.rem_pairs]]
        s2 = [vx[oi] for oi in self.remainder[self.rem_pairs :]]
        pairs = list(zip(s1, s2, strict=False))
        if len(pairs) < len(s1) or not all(g.raw(a, b) for a, b in pairs):
            return None
        taken = {v for pair in pairs for v in pair}
        optimum = self.mate
        best = [(v, optimum[v]) for v in g.vertices if v < optimum[v] < n]
        rest = [(v, m) for v, m in best if v not in taken and m not in taken]

        def weight(matching: list[tuple[int, int]]) -> int:
            return sum(2 * g.raw(a, b) - g.stand_in[a] - g.stand_in[b] for a, b in matching)

        if weight(pairs + rest) < weight(best):
            return None
        mate = [g.alone(v) for v in range(n)]
        for a, b in pairs + rest:
            mate[a], mate[b] = b, a
        return mate

    def _exchange_from_s1(self, exchanges: int) -> None:
        """The S1 players given away: from the lowest up, each that can be while the optimum holds
        (a unit less on its S1 edges tells)."""
        rem, left, k = self.remainder, exchanges, self.rem_pairs
        while k > 0 and left:
            k -= 1
            pi = rem[k]
            v = self.vx[pi]
            field = self._exchange_field(k)
            if self._in_s1_role(v):
                self._put_row(pi, rem[k + 1 :], field - 1)
                self.mate = self.graph.solve()
            exchange = self._exchanged_s1(v)
            left -= exchange
            if exchange:
                self.zeroed.update((oi, pi) for oi in rem[k + 1 :])
            self._put_row(pi, rem[k + 1 :], field)

    def _exchange_from_s2(self, exchanges: int) -> None:
        """The S2 players taken in: from the highest down, each that can be (a unit more on its
        edges towards lower players tells); one taken in heads its pair for good."""
        rem, left = self.remainder, exchanges
        for k in range(self.rem_pairs, len(rem)):
            if left <= 1:
                break
            pi = rem[k]
            v = self.vx[pi]
            field = self._exchange_field(k)
            already = self._in_s1_role(v)
            if not already:
                self._put_row(pi, rem[k + 1 :], field + 1)
                self.mate = self.graph.solve()
            if self._in_s1_role(v):
                left -= 1
                below = list(range(self.end, len(self.vx)))
                self.zeroed.update((pi, oi) for oi in rem[:k])
                self.zeroed.update((oi, pi) for oi in below)
                self._put_row(pi, rem[:k] + below, 0)
            if not already:
                self._put_row(pi, rem[k + 1 :], field)

    def _fix_roles(self) -> None:
        """The exchanges settled: only pairs of an S1 player with a later S2 player stay, at their
        criteria weights."""
        rem, vx = self.remainder, self.vx
        for i, pi in enumerate(rem):
            for oi in rem[i + 1 :]:
                if not self._in_s1_role(vx[pi]) or self._in_s1_role(vx[oi]):
                    self.zeroed.add((oi, pi))
        for i, pi in enumerate(rem):
            self._put_row(pi, rem[i + 1 :], 0)
        self.exchange_fields = False

    def _transpose(self, s1: list[int]) -> None:
        """S1's opponents: each S1 player in turn the earliest S2 player that keeps the optimum
        (the order of transpositions). A field on his edges holds the partner's position counted
        from the end of the remainder; the pair found is made and leaves the graph."""
        rem, g = self.remainder, self.graph
        for pi in s1:
            v = self.vx[pi]
            k0 = rem.index(pi)
            exchange = self._exchange_field(k0) if self.exchange_fields else 0
            later = [k for k in range(k0 + 1, len(rem)) if (rem[k], pi) not in self.zeroed]
            g.set(v, [self.vx[rem[k]] for k in later], [g.unit(exchange, len(rem) - k) for k in later])
            self.mate = g.solve()
            m = self.mate[v]
            if m < self.n and m != v:
                self._make(v, m)

    def _carry(self) -> None:
        """The weights the players floating down keep between themselves: they are the next
        bracket's MDPs, whose mutual pairs are not weighed again (as the bracket left them)."""
        vx, g = self.vx, self.graph
        floaters = [v for v in vx[: self.end] if not self.matched[v]]
        position = {v: i for i, v in enumerate(vx)}
        in_remainder = {vx[oi]: k for k, oi in enumerate(self.remainder)}
        carried: dict[tuple[int, int], int] = {}
        for i, a in enumerate(floaters):
            for b in floaters[i + 1 :]:
                if not self.rnd.compatible(a, b):
                    continue
                w = g.raw(a, b)
                if (position[b], position[a]) in self.zeroed:
                    w = 0
                elif self.exchange_fields and a in in_remainder and b in in_remainder:
                    w += self._exchange_field(in_remainder[a])
                carried[(a, b)] = w
        self.pairer.carried = carried


class _Pairer:
    """The bracket loop (Art. 3-4) over a prepared round."""

    def __init__(self, rnd: _Round, shortcuts: bool = True) -> None:
        self.rnd = rnd
        self.n = rnd.n
        self.shortcuts = shortcuts  # False: every transposition solved, never S1 against S2 in order
        self.initial_single = rnd.single_is_bye
        self.active = set(range(rnd.n))  # not yet finalised
        self.pairs: list[tuple[int, int]] = []
        self.full = False
        self.lines: list[Note] = []
        # The weights of the pairs among the players floating down, as their bracket left them.
        self.carried: dict[tuple[int, int], int] = {}

    # ------------------------------------------------------------ the bracket loop

    def run(self) -> list[tuple[int, int]]:
        rnd, info = self.rnd, self.rnd.info
        completion = rnd.completion
        assert completion is not None  # made by _bye_prepass
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
            saved_carried = self.carried
            # Few players left below: solve with all of them (their pairs bound the look-ahead).
            self.full = len(self.active) - len(current) <= _FEW_BELOW
            state = self._bracket(current, movers, bracket_end, group_start)
            made = [v for pair in state[2] for v in pair]
            completion.pair_off(made)
            if not self.full and not completion.holds():
                completion.put_back(made)
                self._undo(state, saved_carried)
                rnd.single_is_bye = saved_single
                self.full = True
                state = self._bracket(current, movers, bracket_end, group_start)
                completion.pair_off([v for pair in state[2] for v in pair])
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

    def _undo(self, state: tuple, carried: dict[tuple[int, int], int]) -> None:
        self.carried = carried
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
        return _Bracket(self, players, movers, end, group_start).pair()


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
            raise NoValidPairing(_NO_BYE(player=info[0].player.id))
        bye = [Bye(info[0].player.id, Kind.PAIRING_BYE)]
        return Pairing(boards=[], byes=bye + _requested(state), explanation=[_ONE_PLAYER()])
    _bye_prepass(rnd)
    pairer = _Pairer(rnd, shortcuts)
    pairs = pairer.run()
    paired = {v for pair in pairs for v in pair}
    unpaired = [v for v in range(rnd.n) if v not in paired]
    if len(unpaired) > 1 or (unpaired and not info[unpaired[0]].eligible):
        raise NoValidPairing(_NO_PAIRING())
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


SYSTEM = PairingSystem(id="dutch", name="FIDE Dutch system (C.04.3, 2026)", pair=_pair, forbidden_pairs=True)
