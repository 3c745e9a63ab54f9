"""The score-group procedure of the KNSB Swiss systems on rating (seed 000 C1-C15, seed 002 C1-C14).

Both texts pair score groups from the top. In each group they try candidates in a fixed order
(D2 exchanges, then D1 transpositions of S2; in a heterogeneous group D3 floater subsets) and take
the first one meeting the criteria in force; when none does, a criterion is relaxed (the "levels":
seed 000 C9-C12, seed 002 C10) and the same order is walked again; after that the number of pairs
is lowered (seed 000 C15, seed 002 C14).

This module walks those orders exactly but never blindly:
- a transposition is built position by position (its lexicographic order) and a prefix is cut as
  soon as the rest of the group can no longer be completed: an exact bipartite matching test
  (`_Completion`), so the first acceptable transposition is never skipped;
- a level is skipped at once when no pairing of the group at all meets it (a maximum matching of
  the whole group, `_level_possible`), which is exact for the absolute criteria and a necessary
  condition for the colour count x;
- going back (seed 000 C13/C14, seed 002 C12/C13, seed 001 C2/C9) follows the texts: each group's
  procedure yields its candidates in order (`Bracket`), so the group above can be paired again
  from the start or go on where it was (`_Round`); a group going on takes only candidates after
  which all players below can be paired under B1/B2 (`_Lookahead`; the lowest group is tried with
  each, and the test only skips candidates with which it must fail), and whole levels are skipped
  when no candidate at all can pass (`_any_acceptable`).

Edition-specific readings are in `Rules` (seed 000 or seed 002) and cited where used.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property, partial

import rustworkx as rx

from . import colours
from .colours import ColourState, Float, colour_state
from .knsb_orders import all_exchanges
from .matching import has_bipartite_matching
from .notes import Note, joined, note_text
from .state import (
    Board,
    Bye,
    Colour,
    InvalidInput,
    Kind,
    NoValidPairing,
    Pairing,
    Player,
    RoundRecord,
    TournamentState,
)

# Seed 000 A2 C: GM-WGM-IM-WIM-FM-WFM-untitled.
TITLES_000: tuple[str, ...] = ("GM", "WGM", "IM", "WIM", "FM", "WFM")
# Seed 002 A2 C: GM-IM-WGM-FM-WIM-CM-WFM-WCM-untitled.
TITLES_002: tuple[str, ...] = ("GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM")

ABSOLUTE, STRONG, MILD, NONE = 3, 2, 1, 0

# The explanation: one line per score group (its notes), then each board's colour article and the bye.
_C1_DOWN = note_text("knsb.c1_down", "C1: %(players)s move down (no opponent under B1/B2)")
_C2_WAITING = note_text("knsb.c2_waiting", "C2: %(players)s to the waiting room (no opponent)")
_D2 = note_text("knsb.d2", "D2 exchange of %(out)s with %(into)s")
_NO_PAIRS = note_text("knsb.no_pairs", "no pairs")
_C6 = note_text("knsb.c6", "C6 S1 against S2 in order")
_C7 = note_text("knsb.c7", "C7 transposition of S2")
_ANOTHER_FLOATS = note_text("knsb.another_floats", "%(article)s: another player floats so that the next group can pair")
_WENT_BACK = note_text("knsb.went_back", "%(article)s: the groups went back to form one lowest group")
_WENT_ON = note_text("knsb.went_on", "%(article)s: the lowest group could not be paired; this group went on")
_GROUP_LINE = note_text("knsb.group_line", "%(group)s (%(players)s): %(notes)s")
_SCORE_GROUP = note_text("knsb.score_group", "score group %(score)s")
_SCORE_GROUPS = note_text("knsb.score_groups", "score groups %(first)s to %(last)s")
_PLAYERS = note_text("knsb.players", "%(players)s players")
_PLAYERS_MOVED = note_text("knsb.players_moved", "%(players)s players, %(moved)s moved down")
_PLAYERS_WAITING = note_text("knsb.players_waiting", "%(players)s players, %(moved)s from the waiting room")
_BOARD = note_text("knsb.board", "board %(board)s: %(white)s-%(black)s colours by %(article)s")
_BYE = note_text("knsb.bye", "bye: %(player)s (%(why)s)")
_E1 = note_text("knsb.e1", "E1")
_E2 = note_text("knsb.e2", "E2")
_E3 = note_text("knsb.e3", "E3")
_E4 = note_text("knsb.e4", "E4")
_E4_ROUND_ONE = note_text("knsb.e4_round_one", "E4 (round 1: E5/A7 by lot and pairing number)")
_B2_TOP = note_text("knsb.b2_top", "B2 (topscorer's opponent)")


def record_points(record: RoundRecord) -> float:
    """Points of one round; a game still in play counts as a draw (seed 000 F9, seed 002 F9)."""
    if record.score is None:
        return 0.5 if record.kind is Kind.GAME else 0.0
    return record.score


@dataclass(slots=True, eq=False)
class Entrant:
    """A player as the procedure sees him (seed 000/002 A2, A4, A7, B1)."""

    id: int
    number: int  # pairing number: place in the A2 order of round 1 (A2, last paragraph)
    score: float
    key: tuple  # A2 order: score, rating, title, name, pairing number
    cs: ColourState
    strength: int  # ABSOLUTE, STRONG, MILD or NONE (A7)
    floats: tuple[Float | None, Float | None]  # last round, the round before (B5, B6)
    met: frozenset[int]  # B1: opponents over the board (F2: forfeits are no meeting)
    bye_ok: bool  # B1 (seed 000) / B1b (seed 002): may still get the bye
    top: bool  # topscorer: last round, more than 50 % (seed 000 B, seed 002 A10)
    unplayed: int  # rounds without a game (seed 002 A8 w, b)
    pref: Colour | None = None  # the preferred colour (A7), None before the first game
    may_white: bool = True  # B2 allows white (always for a 000 topscorer in the last round)
    may_black: bool = True


@dataclass(frozen=True)
class Rules:
    """What differs between seed 000 (the 1998 FIDE Dutch system) and seed 002."""

    edition: str  # "000" or "002"
    titles: tuple[str, ...]
    float_edition: colours.Edition  # which unplayed rounds count as a downfloat

    @property
    def later(self) -> bool:
        return self.edition == "002"

    @property
    def waiting_room(self) -> bool:
        """Seed 001: no heterogeneous groups but a waiting room, and going back merges no groups."""
        return self.edition == "001"

    @property
    def recut_article(self) -> str:
        """Pairing the group above again when the next group cannot pair the players moved down."""
        return {"000": "C13", "002": "C12", "001": "C2"}[self.edition]

    @property
    def back_article(self) -> str:
        """Going back from a lowest group that cannot be paired."""
        return {"000": "C14", "002": "C13", "001": "C9"}[self.edition]


RULES_000 = Rules("000", TITLES_000, colours.Edition.FIDE_2017)
RULES_002 = Rules("002", TITLES_002, colours.Edition.FIDE_2026)


@dataclass(frozen=True)
class Level:
    """The criteria in force while one order is walked (seed 000 C9-C12, seed 002 C3/C10)."""

    x: int  # pairs allowed to miss a colour preference (seed 000 A8/B4/C12, seed 002 X)
    # Pairs of two strong preferences for one colour allowed: seed 002 Z (A8b, even rounds); seed 000
    # the x of A8's last sentence (the other misses must fall on mild preferences, B4).
    z: int | None
    down5: bool = True
    down6: bool = True
    up5: bool = True
    up6: bool = True
    a7d: bool = False  # seed 002 A7d: strong preferences as absolute (odd rounds)
    b2_top: bool = True  # seed 002 C3b/C10g: B2 also for topscorers
    label: Note | None = None  # the articles that relaxed the criteria, for the explanation


# --------------------------------------------------------------------------- players


def _title_rank(title: str, order: Sequence[str]) -> int:
    title = title.strip().upper()
    return order.index(title) if title in order else len(order)


def _scores_by_round(players: Sequence[Player], rounds: int) -> dict[int, list[float]]:
    out: dict[int, list[float]] = {}
    for p in players:
        running = [0.0]
        for r in p.history[:rounds]:
            running.append(running[-1] + record_points(r))
        out[p.id] = running
    return out


def _bye_ok(player: Player, rules: Rules) -> bool:
    """Seed 000 B1: not after a point without playing (bye or forfeit). Seed 002 B1b: not after a
    point or half point without playing (a bye, or an opponent who did not show up)."""
    if not rules.later:
        return colours.bye_eligible(player, colours.Edition.FIDE_2026)
    for r in player.history:
        unplayed = not r.played and r.kind not in (Kind.ABSENT, Kind.ABSENT_NOTICE)
        if unplayed and record_points(r) > 0:
            return False
    return True


def entrants(state: TournamentState, rules: Rules) -> list[Entrant]:
    """The players to pair, in A2 order, with everything the criteria ask about them."""
    rounds = state.rounds_played
    everyone = state.players
    scores = _scores_by_round(everyone, rounds)
    first = sorted(everyone, key=lambda p: (-p.rating, _title_rank(p.title, rules.titles), p.name, p.id))
    numbers = {p.id: i + 1 for i, p in enumerate(first)}
    last_round = state.round_to_pair == state.total_rounds
    out = []
    for p in state.to_pair():
        score = scores[p.id][min(rounds, len(p.history))]
        cs = colour_state(p)
        top = last_round and score > 0.5 * rounds  # more than 50 % of the maximum score so far
        if cs.preference is None:
            strength = NONE
        elif cs.absolute and not (top and not rules.later):
            strength = ABSOLUTE  # seed 000 A7: not absolute for a topscorer in the last round
        elif cs.difference != 0:
            strength = STRONG
        else:
            strength = MILD
        n = min(rounds, len(p.history))
        fl = [colours.float_in_round(p, i, scores, rules.float_edition) for i in range(n)]
        floats = (fl[-1] if n >= 1 else None, fl[-2] if n >= 2 else None)
        key = (-score, -p.rating, _title_rank(p.title, rules.titles), p.name, numbers[p.id])
        out.append(
            Entrant(
                id=p.id,
                number=numbers[p.id],
                score=score,
                key=key,
                cs=cs,
                strength=strength,
                floats=floats,
                met=frozenset(p.opponents()),
                bye_ok=_bye_ok(p, rules),
                top=top,
                unplayed=sum(1 for r in p.history[:rounds] if not r.played),
                pref=cs.preference,
                may_white=(top and not rules.later) or _fits(cs, Colour.WHITE),
                may_black=(top and not rules.later) or _fits(cs, Colour.BLACK),
            )
        )
    out.sort(key=lambda e: e.key)
    return out


# --------------------------------------------------------------------------- criteria


def _fits(cs: ColourState, colour: Colour) -> bool:
    """B2: after this game the colour difference stays within +-2 and no colour three times running."""
    diff = cs.difference + (1 if colour is Colour.WHITE else -1)
    return abs(diff) <= 2 and cs.repeated is not colour


def b2_exempt(a: Entrant, b: Entrant, rules: Rules, level: Level | None) -> bool:
    """Seed 000 B: B2 does not hold for topscorers in the last round. Seed 002 B2 NB: it may be
    ignored for topscorers (only after C10g), and a non-topscorer meeting a topscorer counts as one."""
    if not rules.later:
        return False
    return (level is None or not level.b2_top) and (a.top or b.top)


def absolute_ok(a: Entrant, b: Entrant, rules: Rules, level: Level | None = None) -> bool:
    """B1 and B2 for a pair. `level` None: the most relaxed reading (seed 002 after C10g)."""
    if b.id in a.met:
        return False
    if (a.may_white and b.may_black) or (a.may_black and b.may_white):
        return True
    return b2_exempt(a, b, rules, level)


def unpairable(group: Sequence[Entrant], rules: Rules) -> list[Entrant]:
    """Seed 000 C1, seed 002 C1, seed 001 C2: players with no opponent in the group under B1/B2."""
    return [e for e in group if not any(o is not e and absolute_ok(e, o, rules) for o in group)]


def conflict(a: Entrant, b: Entrant) -> bool:
    """Seed 000 A8/B4, seed 002 A8a: the pair cannot give both players their preference."""
    return a.pref is not None and a.pref is b.pref


def strong_conflict(a: Entrant, b: Entrant) -> bool:
    """Seed 002 A7d/A8b, seed 000 A8 (last sentence) and B4: both have (at least) a strong preference
    for the same colour, so a strong preference is missed (not only a mild one)."""
    return conflict(a, b) and a.strength >= STRONG and b.strength >= STRONG


def _float_exempt(e: Entrant, rules: Rules) -> bool:
    """Seed 000 B: B5 and B6 do not hold for topscorers in the last round."""
    return e.top and not rules.later


def down_bad(e: Entrant, level: Level, rules: Rules) -> bool:
    """B5/B6 for a player about to float down (or get the bye: seed 000 A5, seed 002 B1b)."""
    if _float_exempt(e, rules):
        return False
    return (level.down5 and e.floats[0] is Float.DOWN) or (level.down6 and e.floats[1] is Float.DOWN)


def up_bad(e: Entrant, level: Level, rules: Rules) -> bool:
    """B5/B6 for a player who floats up (he meets someone with a higher score)."""
    if _float_exempt(e, rules):
        return False
    return (level.up5 and e.floats[0] is Float.UP) or (level.up6 and e.floats[1] is Float.UP)


# --------------------------------------------------------------------------- matching tests


class _Lookahead:
    """Can these players all be paired under B1/B2, with at most one bye for a player allowed one?"""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.cache: dict[frozenset[int], bool] = {}

    def even(self, players: Sequence[Entrant]) -> bool:
        """All of `players` (an even number) can be paired under B1/B2."""
        return len(players) % 2 == 0 and self(players)

    def __call__(self, players: Sequence[Entrant]) -> bool:
        key = frozenset(e.id for e in players)
        if key not in self.cache:
            self.cache[key] = self._greedy(players) or self._exact(players)
        return self.cache[key]

    def _greedy(self, players: Sequence[Entrant]) -> bool:
        """Two quick tries (each one a proof when it succeeds): every player from the top with the
        next one he may meet, then with the last one he may meet."""
        left = sorted(players, key=lambda e: e.key)
        return self._greedy_order(left, False) or self._greedy_order(left, True)

    def _greedy_order(self, left: list[Entrant], from_bottom: bool) -> bool:
        n = len(left)
        free = [True] * n
        for i, a in enumerate(left):
            if not free[i]:
                continue
            free[i] = False
            others = range(n - 1, i, -1) if from_bottom else range(i + 1, n)
            for j in others:
                if free[j] and absolute_ok(a, left[j], self.rules):
                    free[j] = False
                    break
            else:
                if n % 2 == 0 or not a.bye_ok or any(free):
                    return False
        return True

    def _exact(self, players: Sequence[Entrant]) -> bool:
        g: rx.PyGraph = rx.PyGraph()
        g.add_nodes_from(range(len(players)))
        for i, a in enumerate(players):
            for j in range(i + 1, len(players)):
                if absolute_ok(a, players[j], self.rules):
                    g.add_edge(i, j, 1)
        if len(players) % 2:
            d = g.add_node(-1)
            for i, a in enumerate(players):
                if a.bye_ok:
                    g.add_edge(i, d, 1)
        m = rx.max_weight_matching(g, max_cardinality=True, weight_fn=lambda w: w)
        return 2 * len(m) == g.num_nodes()


def _level_possible(
    players: Sequence[Entrant],
    pairs: int,
    ok: Callable[[Entrant, Entrant], bool],
    may_stay: Callable[[Entrant], bool],
    bad: Callable[[Entrant, Entrant], bool],
    budget: int,
) -> bool:
    """Is there any set of `pairs` pairs among `players` using `ok` pairs, leaving only players
    `may_stay` unpaired, with at most `budget` pairs for which `bad` holds? Exact maximum weight
    matching: a necessary condition for every structured candidate (S1 against S2) of the group."""
    n = len(players)
    leftover = n - 2 * pairs
    if leftover < 0:
        return False
    g: rx.PyGraph = rx.PyGraph()
    g.add_nodes_from(range(n))
    big = 4 * n + 4
    for i, a in enumerate(players):
        for j in range(i + 1, n):
            b = players[j]
            if ok(a, b):
                g.add_edge(i, j, big + (0 if bad(a, b) else 1))
    for _ in range(leftover):
        d = g.add_node(-1)
        for i, a in enumerate(players):
            if may_stay(a):
                g.add_edge(i, d, big + 1)
    m = rx.max_weight_matching(g, max_cardinality=True, weight_fn=lambda w: w)
    if 2 * len(m) != g.num_nodes():
        return False
    misses = sum(1 for u, v in m if u < n and v < n and bad(players[u], players[v]))
    return misses <= budget


class _Completion:
    """Exact test: can S1 positions i.. still be given distinct S2 partners (and the S2 players left
    over all be allowed to float), given the partners fixed so far? Kuhn's augmenting paths over a
    matching kept from step to step."""

    def __init__(self, left: int, right: int, adj: list[list[int]], stay: list[bool]) -> None:
        # Left nodes: S1 positions 0..left-1, then one "leftover slot" per S2 player not paired.
        self.slots = right - left
        self.adj = adj + [[j for j in range(right) if stay[j]] for _ in range(self.slots)]
        self.nl = left + self.slots
        self.match_r = [-1] * right
        self.match_l = [-1] * self.nl
        self.fixed = [False] * self.nl
        self.blocked = [False] * right

    def _augment(self, u: int, seen: list[bool]) -> bool:
        for v in self.adj[u]:
            if self.blocked[v] or seen[v]:
                continue
            seen[v] = True
            w = self.match_r[v]
            if w == -1 or (not self.fixed[w] and self._augment(w, seen)):
                self.match_r[v] = u
                self.match_l[u] = v
                return True
        return False

    def start(self) -> bool:
        right = len(self.match_r)
        for u in range(self.nl):  # a greedy matching first, then augmenting paths for the rest
            for v in self.adj[u]:
                if self.match_r[v] == -1:
                    self.match_r[v] = u
                    self.match_l[u] = v
                    break
        return all(self.match_l[u] != -1 or self._augment(u, [False] * right) for u in range(self.nl))

    def fix(self, u: int, v: int) -> list[tuple[list[int], list[int]]] | None:
        """Fix S1 position u to S2 player v; None (state unchanged) when the rest becomes impossible."""
        saved = (self.match_l[:], self.match_r[:])
        if self.match_l[u] != v:
            w = self.match_r[v]
            old = self.match_l[u]
            self.match_l[u] = -1
            if old != -1:
                self.match_r[old] = -1
            self.match_r[v] = u
            self.match_l[u] = v
            if w != -1:
                self.match_l[w] = -1
                self.blocked[v] = True
                ok = self._augment(w, [False] * len(self.match_r))
                self.blocked[v] = False
                if not ok:
                    self.match_l, self.match_r = saved
                    return None
        self.fixed[u] = True
        return [saved]

    def unfix(self, u: int, token: list[tuple[list[int], list[int]]]) -> None:
        self.fixed[u] = False
        self.match_l, self.match_r = token[0]


# --------------------------------------------------------------------------- the search


@dataclass
class Candidate:
    pairs: list[tuple[Entrant, Entrant]]
    floaters: list[Entrant]
    note: Note | None


class Mode:
    """What a group's candidates must allow below them (seed 000 C13/C14, seed 002 C12/C13)."""

    FIRST = "first"  # the procedure's first candidate stands; nothing below is looked at
    GO_BACK = "go back"  # 000 C14 / 002 C13: the lowest group must become pairable
    RECUT = "recut"  # 000 C13 / 002 C12: other floaters, with whom the next group reaches p pairs


@dataclass
class _Context:
    rules: Rules
    odd_round: bool
    lookahead: _Lookahead
    lower: list[Entrant]  # players of all lower score groups
    last: bool  # the lowest score group: a leftover gets the bye
    next_group: list[Entrant] = field(default_factory=list)
    mode: str = Mode.FIRST
    recut: _Recut | None = None  # Mode.RECUT: what the other floaters must allow
    merged: bool = False  # a lowest group formed by 000 C14 / 002 C13 from several groups
    stuck: list[Entrant] = field(default_factory=list)  # moved down by C1 (seed 001: C2)

    @property
    def below(self) -> list[Entrant]:
        """Everyone who will be paired below this group's pairs, but its floaters."""
        return [*self.stuck, *self.lower]

    @cached_property
    def below_pairs(self) -> list[tuple[int, int]]:
        """The pairs of `below` (by position) B1/B2 allow: the same for every split going back."""
        below = self.below
        return [
            (k, m)
            for k in range(len(below))
            for m in range(k + 1, len(below))
            if absolute_ok(below[k], below[m], self.rules)
        ]

    def set_aside(self, group: list[Entrant]) -> tuple[list[Entrant], list[Note]]:
        """Seed 000/002 C1, 001 C2: players of `group` without any opponent in it under B1/B2 move
        down (the lowest group keeps them: going back is its answer). The rest and the note."""
        self.stuck = [] if self.last else unpairable(group, self.rules)
        if not self.stuck:
            return group, []
        ids = [e.id for e in self.stuck]
        note = _C2_WAITING(players=ids) if self.rules.waiting_room else _C1_DOWN(players=ids)
        return [e for e in group if e not in self.stuck], [note]

    def accept(self, floaters: Sequence[Entrant]) -> bool:
        """May these players float down (or, in the lowest group, is this one left for the bye)?"""
        if self.last:
            return len(floaters) <= 1
        if self.mode == Mode.GO_BACK:
            return self.lookahead([*floaters, *self.below])
        if self.mode == Mode.RECUT:
            assert self.recut is not None
            return self.recut.accepts(floaters)
        return True

    def whole_group_may_move(self) -> bool:
        """000 C15 / 002 C14a: p = 0, the group moves down as a whole. Going back (000 C14, 002 C13)
        that is where the group has no pairing left: it merges with the lowest one instead. 001 C8:
        the whole group in the waiting room is its last pairing, going back too (C9)."""
        return not self.last and (self.mode == Mode.FIRST or self.rules.waiting_room)

    def leftovers_possible(self, count: int) -> bool:
        """Can a candidate leaving `count` players over be accepted at all?"""
        if self.last:
            return count <= 1
        if self.mode == Mode.RECUT:
            assert self.recut is not None
            return count == self.recut.count
        return True


@dataclass
class _Recut:
    """Seed 000 C13 / seed 002 C12: the group above is paired again so that someone else floats
    (002: "een andere groep van dezelfde grootte en met hetzelfde aantal punten") and the next group
    can pair every floater."""

    rules: Rules
    before: frozenset[int]  # the floaters with whom the next group cannot reach p pairs
    count: int
    scores: tuple[float, ...] | None  # seed 002: the same points
    stuck: list[Entrant]  # moved down by C1 of the group above: they float in any case
    residents: list[Entrant]  # the next group

    def accepts(self, floaters: Sequence[Entrant]) -> bool:
        if len(floaters) != self.count or frozenset(e.id for e in floaters) == self.before:
            return False
        if self.scores is not None and self.scores != _scores(floaters):
            return False
        return next_group_can_pair([*floaters, *self.stuck], floaters, self.residents, self.rules)


def _scores(players: Sequence[Entrant]) -> tuple[float, ...]:
    return tuple(sorted((e.score for e in players), reverse=True))


def next_group_can_pair(
    movers: Sequence[Entrant], floaters: Sequence[Entrant], residents: Sequence[Entrant], rules: Rules
) -> bool:
    """Can the next group pair the players moved down into it (seed 000 C13: "in de daaropvolgende
    groep wel p paringen", seed 002 C12: "P1 paringen")? Each of `floaters` needs an opponent under
    B1/B2 there (C1); in a heterogeneous group (fewer than half moved down, A3) every player moved
    down needs his own opponent among the residents: a bipartite matching."""
    pool = [*movers, *residents]
    if not all(any(o is not f and absolute_ok(f, o, rules) for o in pool) for f in floaters):
        return False
    if 2 * len(movers) >= len(pool) or rules.waiting_room:
        return True  # homogeneous; seed 001 C2 asks only for an opponent
    return has_bipartite_matching(
        range(len(movers)), range(len(residents)), lambda i, j: absolute_ok(movers[i], residents[j], rules)
    )


def _transpositions(
    ctx: _Context,
    s1: list[Entrant],
    s2: list[Entrant],
    level: Level,
    may_stay: Callable[[Entrant], bool],
    spent: tuple[int, int] = (0, 0),
) -> Iterator[tuple[list[tuple[Entrant, Entrant]], list[Entrant], tuple[int, int]]]:
    """Seed 000 C6/C7 with D1, seed 002 C6/C7 with D1.1/D1.2: S1[i] against the i-th player of a
    transposition of S2, transpositions in lexicographic order; only the first |S1| places matter.

    Yields (pairs, S2 players left over, (colour misses, strong-preference misses)). `spent`: the
    misses of pairs made earlier in the same group (seed 002: X and Z count over the whole group).
    Prefixes that cannot be completed (bipartite matching with the leftover slots) or that already
    exceed x (and, in even rounds of seed 002, z) are cut; nothing the text reaches first is lost.
    """
    p, m = len(s1), len(s2)
    if p > m:
        return
    adj = [[j for j in range(m) if _pair_ok(ctx, level, a, s2[j])] for a in s1]
    stay = [may_stay(b) for b in s2]
    comp = _Completion(p, m, adj, stay)
    if not comp.start():
        return
    x_left = level.x - spent[0]
    z_left = None if level.z is None else level.z - spent[1]
    chosen: list[int] = []
    used = [False] * m
    miss_of = [[conflict(a, b) for b in s2] for a in s1]
    zmiss_of = [[strong_conflict(a, b) for b in s2] for a in s1]
    budget = _Budget(adj, stay, miss_of, zmiss_of, used)
    if not budget.possible(0, x_left, z_left):
        return
    below = _BelowCut(ctx, s2, adj, stay, used) if ctx.mode == Mode.GO_BACK and not ctx.last else None
    if below is not None and not below.possible(0):
        return
    # Colour counts for the bound on the misses still to come: S1 from position i on, S2 unused.
    white1 = [0] * (p + 1)
    black1 = [0] * (p + 1)
    for i in range(p - 1, -1, -1):
        white1[i] = white1[i + 1] + (s1[i].pref is Colour.WHITE)
        black1[i] = black1[i + 1] + (s1[i].pref is Colour.BLACK)
    free2 = {Colour.WHITE: 0, Colour.BLACK: 0, None: 0}
    for b in s2:
        free2[b.pref] += 1

    def bound(i: int) -> int:
        """Fewest misses among S1[i:]: a white-preferring player avoids one only against a player
        without a white preference, and so on (counting only; a lower bound)."""
        w2, b2, n2 = free2[Colour.WHITE], free2[Colour.BLACK], free2[None]
        good = min(white1[i], b2 + n2) + min(black1[i], w2 + n2)
        return white1[i] + black1[i] - min(good, w2 + b2 + n2)

    def walk(
        i: int, misses: int, zmisses: int
    ) -> Iterator[tuple[list[tuple[Entrant, Entrant]], list[Entrant], tuple[int, int]]]:
        if i == p:
            yield (
                [(s1[k], s2[j]) for k, j in enumerate(chosen)],
                [s2[j] for j in range(m) if not used[j]],
                (misses, zmisses),
            )
            return
        row, zrow = miss_of[i], zmiss_of[i]
        for j in adj[i]:
            if used[j]:
                continue
            miss = misses + row[j]
            if miss > x_left:
                continue
            zmiss = zmisses + zrow[j]
            if z_left is not None and zmiss > z_left:
                continue
            colour = s2[j].pref
            free2[colour] -= 1
            if miss + bound(i + 1) > x_left:
                free2[colour] += 1
                continue
            token = comp.fix(i, j)
            if token is None:
                free2[colour] += 1
                continue
            used[j] = True
            budget.visits += 1
            if budget.visits > _VISITS_BEFORE_EXACT and (
                not budget.possible(i + 1, x_left - miss, None if z_left is None else z_left - zmiss)
                or (below is not None and not below.possible(i + 1))
            ):
                used[j] = False
                free2[colour] += 1
                comp.unfix(i, token)
                continue
            chosen.append(j)
            yield from walk(i + 1, miss, zmiss)
            chosen.pop()
            used[j] = False
            free2[colour] += 1
            comp.unfix(i, token)

    yield from walk(0, 0, 0)


# The exact test runs at every prefix only once a walk has taken this many steps (it is costly, and
# most walks end quickly).
_VISITS_BEFORE_EXACT = 64


@dataclass
class _Budget:
    """Can S1 positions i.. be paired into the unused S2 players (those left over allowed to float)
    with at most `x` colour misses, and separately with at most `z` strong misses? Exact minimum-miss
    matchings: a necessary condition for every completion, so no transposition the text picks is cut."""

    adj: list[list[int]]
    stay: list[bool]
    miss: list[list[bool]]
    zmiss: list[list[bool]]
    used: list[bool]
    visits: int = 0

    def possible(self, i: int, x: int, z: int | None) -> bool:
        rows = len(self.adj) - i
        for table, left in ((self.miss, x), (self.zmiss, z)):
            if left is None or left >= rows or not any(any(row) for row in table[i:]):
                continue  # the budget cannot run out (no pair left can miss)
            if not self._within(i, table, left):
                return False
        return True

    def _within(self, i: int, table: list[list[bool]], left: int) -> bool:
        p = len(self.adj)
        cols = [j for j in range(len(self.used)) if not self.used[j]]
        col_node = {j: (p - i) + k for k, j in enumerate(cols)}
        slots = len(cols) - (p - i)
        g: rx.PyGraph = rx.PyGraph()
        g.add_nodes_from(range(2 * len(cols)))  # rows, then the unused S2 players, then the slots
        big = 4 * len(cols) + 4
        for r in range(i, p):
            for j in self.adj[r]:
                if not self.used[j]:
                    g.add_edge(r - i, col_node[j], big + (0 if table[r][j] else 1))
        for k in range(slots):
            for j in cols:
                if self.stay[j]:
                    g.add_edge(2 * len(cols) - 1 - k, col_node[j], big + 1)
        matching = rx.max_weight_matching(g, max_cardinality=True, weight_fn=lambda w: w)
        if len(matching) != len(cols):
            return False
        weight = sum(g.get_edge_data(u, v) for u, v in matching)
        return len(matching) * (big + 1) - weight <= left


class _BelowCut:
    """Going back (000 C14, 002 C13, 001 C9): can S1 positions i.. still be given unused S2 players
    so that the S2 players left over (those allowed to stay) and all players below can be paired
    under B1/B2, one bye to a player allowed it? Exact, a perfect matching: the leftovers of every
    candidate `ctx.accept` takes pass it, so no candidate the text would take is cut."""

    def __init__(
        self, ctx: _Context, s2: list[Entrant], adj: list[list[int]], stay: list[bool], used: list[bool]
    ) -> None:
        self.adj, self.used, self.p = adj, used, len(adj)
        self.s2, self.stay, self.lower = s2, stay, ctx.below
        ok = partial(absolute_ok, rules=ctx.rules)
        n2 = len(s2)
        self.s2_pairs = [
            (j, k) for j in range(n2) for k in range(j + 1, n2) if stay[j] and stay[k] and ok(s2[j], s2[k])
        ]
        self.s2_lower = [(j, k) for j in range(n2) if stay[j] for k, e in enumerate(self.lower) if ok(s2[j], e)]
        self.lower_pairs = ctx.below_pairs

    def possible(self, i: int) -> bool:
        rows = self.p - i
        cols = [j for j in range(len(self.s2)) if not self.used[j]]
        col = {j: rows + c for c, j in enumerate(cols)}
        low = rows + len(cols)
        g: rx.PyGraph = rx.PyGraph()
        g.add_nodes_from(range(low + len(self.lower)))
        for r in range(i, self.p):
            for j in self.adj[r]:
                if not self.used[j]:
                    g.add_edge(r - i, col[j], 1)
        for j, k in self.s2_pairs:
            if j in col and k in col:
                g.add_edge(col[j], col[k], 1)
        for j, k in self.s2_lower:
            if j in col:
                g.add_edge(col[j], low + k, 1)
        for k, m in self.lower_pairs:
            g.add_edge(low + k, low + m, 1)
        if g.num_nodes() % 2:
            bye = g.add_node(-1)
            for j in cols:
                if self.stay[j] and self.s2[j].bye_ok:
                    g.add_edge(col[j], bye, 1)
            for k, e in enumerate(self.lower):
                if e.bye_ok:
                    g.add_edge(low + k, bye, 1)
        return 2 * len(rx.max_weight_matching(g, max_cardinality=True, weight_fn=lambda w: w)) == g.num_nodes()


def _splits(
    players: list[Entrant], p: int, exchange: bool
) -> Iterator[tuple[list[Entrant], list[Entrant], Note | None]]:
    """Seed 000 C4/C8 with D2, seed 002 C4/C8a with D2: S1 = the top p, then the exchanges."""
    s1, s2 = players[:p], players[p:]
    yield s1, s2, None
    if not exchange:
        return
    pos = {i + 1: e for i, e in enumerate(players)}
    for a, b in all_exchanges(range(1, p + 1), range(p + 1, len(players) + 1)):
        out, inn = set(a), set(b)
        n1 = sorted([pos[i] for i in range(1, p + 1) if i not in out] + [pos[i] for i in inn], key=lambda e: e.key)
        n2 = sorted(
            [pos[i] for i in range(p + 1, len(players) + 1) if i not in inn] + [pos[i] for i in out],
            key=lambda e: e.key,
        )
        out_ids, into_ids = ("+".join(str(pos[i].id) for i in sorted(part)) for part in (a, b))
        yield n1, n2, _D2(out=out_ids, into=into_ids)


def level_signature(level: Level, players: Sequence[Entrant]) -> tuple:
    """The criteria of `level` that can matter for these players: a float criterion nobody in the
    group could break is left out, so a level that cannot differ from one tried is skipped."""
    down1 = any(e.floats[0] is Float.DOWN for e in players)
    down2 = any(e.floats[1] is Float.DOWN for e in players)
    up1 = any(e.floats[0] is Float.UP for e in players)
    up2 = any(e.floats[1] is Float.UP for e in players)
    return (
        level.x,
        level.z,
        level.down5 and down1,
        level.down6 and down2,
        level.up5 and up1,
        level.up6 and up2,
        level.a7d,
        level.b2_top,
    )


def _stay_rule(ctx: _Context, level: Level, alone: bool = False) -> Callable[[Entrant], bool]:
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
    ctx: _Context,
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
    may_stay = _stay_rule(ctx, level, alone=len(players) - 2 * p == 1)
    if p == 0:
        floaters = list(players)
        if all(may_stay(e) for e in floaters) and ctx.accept(floaters):
            yield Candidate([], floaters, _NO_PAIRS())
        return

    def ok(a: Entrant, b: Entrant) -> bool:
        return _pair_ok(ctx, level, a, b)

    if ctx.mode != Mode.FIRST and not _any_acceptable(ctx, players, p, ok):
        return
    checked = False
    for s1, s2, how in _splits(players, p, exchange=True):
        if how and not checked:
            # Before walking the exchanges: is any pairing of the group possible at this level?
            checked = True
            if not _level_possible(players, p, ok, may_stay, conflict, level.x - spent[0]):
                return
            if level.z is not None and not _level_possible(
                players, p, ok, may_stay, strong_conflict, level.z - spent[1]
            ):
                return
        for pairs, rest, _ in _transpositions(ctx, s1, s2, level, may_stay, spent):
            if not ctx.accept(rest):
                continue
            note = how
            if note is None:
                moved = any(b is not s2[k] for k, (_, b) in enumerate(pairs))
                note = _C7() if moved else _C6()
            yield Candidate(pairs, rest, note)


def _any_acceptable(ctx: _Context, players: list[Entrant], p: int, ok: Callable[[Entrant, Entrant], bool]) -> bool:
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


def _pair_ok(ctx: _Context, level: Level, a: Entrant, b: Entrant) -> bool:
    """B1/B2 as in force, seed 002 A7d (a strong preference acts as an absolute one, so two of the
    same colour are barred as B2 bars two absolute ones), and B5/B6 for the player floating up."""
    if not absolute_ok(a, b, ctx.rules, level):
        return False
    if level.a7d and strong_conflict(a, b) and not b2_exempt(a, b, ctx.rules, level):
        return False
    if a.score != b.score:
        low = b if b.score < a.score else a
        if up_bad(low, level, ctx.rules):
            return False
    return True


def sizes_possible(ctx: _Context, floaters: int, residents: int, rem_pairs: int) -> bool:
    """Could `floaters` paired with as many of `residents`, then up to `rem_pairs` pairs of the
    rest, leave over a number of players `ctx` accepts (by their count alone)?"""
    left = residents - floaters
    return left >= 0 and ctx.leftovers_possible(left - 2 * min(rem_pairs, left // 2))


def heterogeneous(
    ctx: _Context,
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

    for pairs, rest, misses in _transpositions(ctx, s1, s2, level, always):
        if reached is not None:
            reached[0] = True
        rest = sorted(rest, key=lambda e: e.key)
        spent = misses if shared else (0, 0)
        for cand in homogeneous(ctx, rest, min(rem_pairs, len(rest) // 2), rem_level(rest), spent):
            yield Candidate(pairs + cand.pairs, cand.floaters, cand.note)


def count_x(players: Sequence[Entrant]) -> tuple[int, int]:
    """Seed 000 A8: x = w - q or z - q (q = half the group rounded up), not below 0.

    A8, last sentence: "bekijk dan of u x kleiner kunt maken door spelers die een lichte voorkeur te
    hebben, de tegengestelde kleur te geven". Each mild preference for the more wanted colour turned
    round lowers x by one, as long as that colour stays the more wanted one. Returns (x, turned):
    the x of the formula and how many mild preferences A8 turns; x - turned is the smaller x.
    """
    w = sum(1 for e in players if e.pref is Colour.WHITE)
    z = sum(1 for e in players if e.pref is Colour.BLACK)
    q = (len(players) + 1) // 2
    x = max(0, (z - q) if z > w else (w - q))
    many = Colour.BLACK if z > w else Colour.WHITE
    mild = sum(1 for e in players if e.pref is many and e.strength == MILD)
    # Turning one moves one player from the larger count to the smaller: at most half the gap.
    return x, min(mild, x, abs(w - z) // 2)


def count_x1_z1(players: Sequence[Entrant], p0: int, even: bool) -> tuple[int, int | None]:
    """Seed 002 A8: X1 and (even rounds) Z1 by the printed formulas.

    W/B count strong and absolute preferences, w/b (even rounds) mild preferences of players with an
    odd number of unplayed games; a counts players without a game. Players with a mild preference
    and an even number of unplayed games count with W/B too (A7c: they have a preference).
    """
    a = sum(1 for e in players if e.pref is None)
    w = b = 0
    W = B = 0
    for e in players:
        if e.pref is None:
            continue
        loose = even and e.strength == MILD and e.unplayed % 2 == 1
        if e.pref is Colour.WHITE:
            w, W = (w + 1, W) if loose else (w, W + 1)
        else:
            b, B = (b + 1, B) if loose else (b, B + 1)
    x1 = p0 - W - w - a if B + b > W + w else p0 - B - b - a
    if not even:
        return max(0, x1), None
    z1 = p0 - W - b - w - a if B > W else p0 - B - b - w - a
    return max(0, x1), max(0, z1)


# --------------------------------------------------------------------------- round driver


@dataclass
class Outcome:
    pairs: list[tuple[Entrant, Entrant]] = field(default_factory=list)
    bye: Entrant | None = None
    notes: list[Note] = field(default_factory=list)


def score_groups(players: Sequence[Entrant]) -> list[list[Entrant]]:
    groups: list[list[Entrant]] = []
    for e in players:
        if groups and groups[-1][0].score == e.score:
            groups[-1].append(e)
        else:
            groups.append([e])
    return groups


def fmt_score(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{x:g}"


Bracket = Callable[[_Context, list[Entrant], list[Entrant]], Iterator[tuple[Candidate, list[Note]]]]


@dataclass
class _Frame:
    """A score group being paired: its procedure's candidates in the text's order, the one taken."""

    residents: list[Entrant]
    movers: list[Entrant]
    ctx: _Context
    candidates: Iterator[tuple[Candidate, list[Note]]]
    cand: Candidate = field(default_factory=lambda: Candidate([], [], None))
    notes: list[Note] = field(default_factory=list)

    @property
    def floaters(self) -> list[Entrant]:
        return sorted(self.cand.floaters, key=lambda e: e.key)

    def take(self, found: tuple[Candidate, list[Note]], *more: Note) -> None:
        self.cand, self.notes = found[0], [*found[1], *more]


class _Round:
    """Seed 000 C, 001 C and 002 C over the score groups, going back as the texts say:

    - 000 C13 / 002 C12 / 001 C2: when the players moved down leave the next group short (one of
      them without any opponent there, or, in a heterogeneous group, not each with his own), the
      group above is paired again from the start, taking its first pairing in which other players
      (as many; 002: on the same points) float with whom the next group can pair them;
    - 000 C14 / 002 C13: when the lowest group cannot be paired, the second-lowest goes on with its
      procedure where it was; when it has none left (p = 0), the two form the new lowest group and
      the group above goes on, and so on; 001 C9: the same without merging, the groups below the
      one going on being paired again.
    """

    def __init__(
        self, state: TournamentState, rules: Rules, bracket: Bracket, players: list[Entrant] | None = None
    ) -> None:
        self.rules, self.bracket = rules, bracket
        self.odd = state.round_to_pair % 2 == 1
        players = entrants(state, rules) if players is None else players
        self.look = _Lookahead(rules)
        if not self.look(players):
            raise NoValidPairing("no pairing of all players meets B1 and B2")
        self.bands = score_groups(players)  # the residents of each group
        self.merged: list[Entrant] = []  # groups joined to the lowest one by 000 C14 / 002 C13

    def open(self, index: int, movers: list[Entrant], ctx: _Context | None = None) -> _Frame:
        last = index == len(self.bands) - 1
        if ctx is None:
            lower = [e for g in self.bands[index + 1 :] for e in g] + ([] if last else self.merged)
            nxt = [] if last else [*self.bands[index + 1], *(self.merged if index + 2 == len(self.bands) else [])]
            ctx = _Context(self.rules, self.odd, self.look, lower, last, nxt, merged=last and bool(self.merged))
        joined = [*movers, *(self.merged if last else [])]
        return _Frame(self.bands[index], movers, ctx, self.bracket(ctx, joined, self.bands[index]))

    def recut(self, frame: _Frame) -> None:
        """000 C13 / 002 C12 for the group of `frame`, whose floaters the next group cannot pair."""
        stuck = list(frame.ctx.stuck)
        chosen = [e for e in frame.cand.floaters if not any(e is s for s in stuck)]
        residents = frame.ctx.next_group
        if not chosen or next_group_can_pair(frame.cand.floaters, chosen, residents, self.rules):
            return
        recut = _Recut(
            self.rules,
            frozenset(e.id for e in chosen),
            len(chosen),
            _scores(chosen) if self.rules.later else None,
            stuck,
            residents,
        )
        old = frame.ctx
        ctx = _Context(old.rules, old.odd_round, old.lookahead, old.lower, old.last, residents, Mode.RECUT, recut)
        again = self.open(len(self.frames) - 1, frame.movers, ctx)
        found = next(again.candidates, None)
        if found is not None:
            again.take(found, _ANOTHER_FLOATS(article=self.rules.recut_article))
            self.frames[-1] = again

    def run(self) -> Outcome:
        self.frames: list[_Frame] = []
        while True:
            self.descend()
            lowest, found = self.lowest(self.frames[-1].floaters if self.frames else [])
            if found is not None:
                break
            self.go_back()
        lowest.take(found)
        if self.merged:
            lowest.notes.insert(0, _WENT_BACK(article=self.rules.back_article))
        self.frames.append(lowest)
        return self.outcome()

    def descend(self) -> None:
        """Pair the groups above the lowest not paired yet, each with its first pairing."""
        while len(self.frames) < len(self.bands) - 1:
            frame = self.open(len(self.frames), self.frames[-1].floaters if self.frames else [])
            frame.take(next(frame.candidates))  # p = 0 at worst: the whole group moves down
            self.frames.append(frame)
            self.recut(frame)

    def go_back(self) -> None:
        """The lowest group cannot be paired: the group above goes on with its procedure where it was,
        now taking only pairings that leave every player below pairable under B1/B2 (the lowest group
        is tried with each; a pairing failing that test leads nowhere). When it has none left:
        000 C14 / 002 C13: it and the lowest form the new lowest group; 001 C9 (its whole group in
        the waiting room): one more group back, and the groups below are paired again."""
        back = self.rules.back_article
        while self.frames:
            above = self.frames[-1]
            above.ctx.mode, above.ctx.recut = Mode.GO_BACK, None
            found = next(above.candidates, None)
            if found is not None:
                above.take(found, _WENT_ON(article=back))
                return
            self.frames.pop()
            if not self.rules.waiting_room:
                self.merged = [*above.residents, *self.merged]
                del self.bands[len(self.frames)]
                return
        raise NoValidPairing("no pairing of the lowest score group meets B1 and B2")

    def lowest(self, movers: list[Entrant]) -> tuple[_Frame, tuple[Candidate, list[Note]] | None]:
        """The lowest group with these players moved down, and its first pairing of everyone but at
        most one (None when there is none; a matching test first, as no pairing exists without it)."""
        frame = self.open(len(self.frames), movers)
        if not self.look([*movers, *self.merged, *self.bands[-1]]):
            return frame, None
        return frame, next(frame.candidates, None)

    def outcome(self) -> Outcome:
        out = Outcome()
        for frame in self.frames:
            group = [*frame.residents, *(self.merged if frame is self.frames[-1] else [])]
            scores = sorted({e.score for e in group}, reverse=True)
            head = _SCORE_GROUP(score=fmt_score(scores[0]))
            if len(scores) > 1:
                head = _SCORE_GROUPS(first=fmt_score(scores[0]), last=fmt_score(scores[-1]))
            players = _PLAYERS(players=len(group))
            if frame.movers:
                moved = _PLAYERS_WAITING if self.rules.waiting_room else _PLAYERS_MOVED
                players = moved(players=len(group), moved=len(frame.movers))
            out.notes.append(_GROUP_LINE(group=head, players=players, notes=joined(frame.notes)))
            out.pairs.extend(frame.cand.pairs)
        floaters = self.frames[-1].cand.floaters
        if len(floaters) > 1:
            raise NoValidPairing("players left unpaired after the lowest score group")
        out.bye = floaters[0] if floaters else None
        return out


def pair_round(state: TournamentState, rules: Rules, bracket: Bracket, players: list[Entrant] | None = None) -> Outcome:
    """Pair every score group from the top (seed 000 C, 001 C, 002 C) with `bracket`, then the bye.
    `players`: the entrants in the order of the text (seed 001 A4), else the A2 order."""
    return _Round(state, rules, bracket, players).run()


def colour_article(a: Entrant, b: Entrant) -> Note:
    """Which of E1-E4 decided the colours of a pair (a ranked higher)."""
    if a.pref is None and b.pref is None:
        return _E4_ROUND_ONE()
    if colours.preferences_compatible(a.pref, b.pref):
        return _E1()
    if a.strength != b.strength:
        return _E2()
    mine, theirs = colours._first_difference(a.cs, b.cs)
    if mine is not None and theirs is not None:
        return _E3()
    return _E4()


def _b2_allows(hi: Entrant, lo: Entrant, hi_colour: Colour) -> bool:
    if hi_colour is Colour.WHITE:
        return hi.may_white and lo.may_black
    return hi.may_black and lo.may_white


def finish(state: TournamentState, out: Outcome, bye_label: Note) -> Pairing:
    """Colours by E1-E4 (E5 in round 1) and the order of publication (F1)."""
    boards: list[tuple[tuple, Board, Note]] = []
    # Round 1 (000 A7 and E5, 002 E5): the odd-ranked players of S1 get the lot's colour, ranked
    # among the players being paired (an absentee has no place in S1).
    paired = sorted([e for pair in out.pairs for e in pair] + ([out.bye] if out.bye else []), key=lambda e: e.key)
    rank = {e.id: i + 1 for i, e in enumerate(paired)}
    for x, y in out.pairs:
        hi, lo = (x, y) if x.key < y.key else (y, x)
        number = rank[hi.id] if state.rounds_played == 0 else hi.number
        colour = colours.allocate(hi.cs, lo.cs, number, state.top_colour_round1)
        article = colour_article(hi, lo)
        if not _b2_allows(hi, lo, colour) and _b2_allows(hi, lo, colour.opposite):
            # A topscorer's preference is not absolute (000 A7, 001 A5a): B2 still holds for the
            # other player, so he gets the colour B2 leaves him.
            colour, article = colour.opposite, _B2_TOP()
        board = Board(hi.id, lo.id) if colour is Colour.WHITE else Board(lo.id, hi.id)
        order = (-hi.score, -(hi.score + lo.score), hi.key)
        boards.append((order, board, article))
    boards.sort(key=lambda t: t[0])
    notes = list(out.notes)
    for i, (_, board, art) in enumerate(boards, 1):
        notes.append(_BOARD(board=i, white=board.white, black=board.black, article=art))
    byes = []
    if out.bye is not None:
        byes.append(Bye(out.bye.id, Kind.PAIRING_BYE))
        notes.append(_BYE(player=out.bye.id, why=bye_label))
    for pid, kind in state.requested_byes.items():
        byes.append(Bye(pid, kind))
    return Pairing([b for _, b, _ in boards], byes, notes)


def check_state(state: TournamentState) -> None:
    if state.round_to_pair < 1 or state.round_to_pair > state.total_rounds:
        raise InvalidInput(f"round {state.round_to_pair} is outside 1..{state.total_rounds}")
