"""Dansk Schweizer (seed 004 §4.9.3 rules 1-10, arbiter guide §4.9.4; seeds README items 6, 12).

Start numbers are the strength order (3.1). Before each round the players
are split into point groups, each sorted by start number (4.1), and paired
from the top down (4.2):

- a group of an odd size has its middle player as floater (6.1); the rest is
  halved into group a (strong) and group b (weak) and a[i] meets b[i] (5.1);
- a pair that has met (1.2) or whose two players have the same strong colour
  preference is forbidden; the rearrangements of 5.3 are tried in their
  order: moving b players up and re-opening earlier pairs (steps 1-2, i.e.
  b's orders in lexicographic order), moving the lowest a player to b in
  exchange for b's players from the top (4), then the next lowest a player
  (5), then exchanges of two or more players (6), then floaters by 6.2 and
  alternative floaters by 6.3, and finally the whole group as floaters;
- among the arrangements of one floater set, the one that meets the most
  colour preferences is chosen, the earliest in 5.3's order on a tie (5.2);
- floaters are paired before the next group, in start order, each with the
  nearest lower player he may meet, re-opening earlier floater pairs when
  stuck (5.4); a floater with a colour preference takes a lower player with
  the opposite strong preference before one with a weak one (6.3, note);
- when the lowest group cannot be paired, the preceding group's floater pairs
  are re-opened, then alternative floaters are chosen there, or floaters
  where it had none (9.1, 9.2 as README item 12 reads them); from then on the
  players below are paired as one group by points and start numbers (9). The
  whole is a search in this order: the first complete pairing it reaches is
  the pairing.
- An odd field gets a player X, weakest of all (2.1); whoever meets X scores
  1 and counts as having had white (2.2).
- Colours 7.1-7.4 with the strong/weak preferences of the supplementary
  rules; a strong preference must be met, except in the last round between
  two players with more than 50 % (then 7.2-7.4 decide).
- Acceleration (10): `acceleration_groups` strength groups get 0, 1, 2, ...
  pairing points (weakest 0) for the first `acceleration_rounds` rounds
  (0: the whole tournament).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from . import setting_checks as checks
from .danish import first_matching, has_perfect_matching, points
from .matching import has_bipartite_matching
from .notes import Note, joined, note_text
from .registry import PairingSystem
from .state import Board, Bye, Colour, Kind, NoValidPairing, Pairing, Player, TournamentState

W, B = Colour.WHITE, Colour.BLACK

# The explanation (the rules of §4.9.3 in brackets).
_NO_PAIRING = note_text("dansk.no_pairing", "Dansk Schweizer: no pairing without a repeated game (1.2).")
_NO_PAIRING_PREFERENCE = note_text(
    "dansk.no_pairing_preference",
    "Dansk Schweizer: no pairing without a repeated game (1.2) or an unmet strong preference.",
)
_ROUND = note_text("dansk.round", "Dansk Schweizer round %(round)s: point groups paired from the top (4.1-4.2).")
_NOBODY = note_text("dansk.nobody", "No players to pair.")
_RELAXED = note_text(
    "dansk.relaxed",
    "No pairing meets every strong colour preference: they were relaxed to colour rules only (setting "
    "relax_strong_preferences).",
)
_ACCELERATED = note_text("dansk.accelerated", "Acceleration (10): pairing points added by strength group.")
_MEETS_X = note_text("dansk.meets_x", "%(player)s meets X: 1 point, counted as white (2.1-2.2).")
_BOARD = note_text("dansk.board", "Board %(white)s-%(black)s: %(why)s; colours by %(rule)s.")
_SENTENCE = note_text("dansk.sentence", "%(text)s.")
_GROUP = note_text("dansk.group", "Group %(label)s: %(players)s")
_SCORE = note_text("dansk.score", "score %(score)s")
_LOWEST = note_text("dansk.lowest", "lowest group (9)")
_FLOATERS = note_text("dansk.floaters", "floaters %(players)s (%(why)s)")
_REOPENED = note_text(
    "dansk.reopened", "Floater pairs were re-opened before the players below could be paired (5.4, 9.1)."
)
_BELOW_AS_ONE = note_text(
    "dansk.below_as_one", "9: the players below paired as one group by points and start numbers: %(players)s."
)
_WHOLE_FIELD = note_text(
    "dansk.whole_field",
    "9: the point groups cannot be paired one by one (6.3 and 9.1-9.2 exhausted); the whole field was paired as "
    "one group by points and start numbers, each player against the nearest he may meet.",
)
_WHOLE_FIELD_LIMIT = note_text(
    "dansk.whole_field_limit",
    "9: the point groups cannot be paired one by one (6.3 and 9.1-9.2 exhausted, search limit reached); the "
    "whole field was paired as one group by points and start numbers, each player against the nearest he may "
    "meet.",
)
# Why a pair: the a/b arrangement of 5.2-5.3, a floater (5.4) or the whole field (9).
_STEP_52 = note_text("dansk.step_52", "5.2")
_STEP_4 = note_text("dansk.step_4", "5.3 step 4 (%(a)s and %(b)s exchanged)")
_STEP_5 = note_text("dansk.step_5", "5.3 step 5 (%(a)s and %(b)s exchanged)")
_STEP_6 = note_text("dansk.step_6", "5.3 step 6 (%(out)s exchanged with %(into)s)")
_MOVED_UP = note_text("dansk.moved_up", "5.3 steps 1-2 (b players moved up)")
_THEN_MOVED_UP = note_text("dansk.then_moved_up", "%(step)s, then b players moved up")
_A_V_B = note_text("dansk.a_v_b", "%(step)s a v b")
_FLOATER_PAIR = note_text("dansk.floater_pair", "5.4 floater %(floater)s v nearest lower player %(opponent)s")
_NEAREST = note_text("dansk.nearest", "9: nearest player he may meet")
# The floaters of a group (6.1-6.3).
_MIDDLE = note_text("dansk.middle", "6.1 middle player")
_TWO_MIDDLE = note_text("dansk.two_middle", "6.2 two middle players")
_UPWARDS = note_text("dansk.upwards", "6.3: %(player)s exchanged upwards")
_DOWNWARDS = note_text("dansk.downwards", "6.3: %(player)s exchanged downwards")
_ALL = note_text("dansk.all", "6.3: all players of the group")
_NEAREST_ADDED = note_text("dansk.nearest_added", "6.3: nearest above and below added")
# Colours (7.1-7.4, strong preferences first).
_STRONG = note_text("dansk.strong", "strong preference")
_RULE_71 = note_text("dansk.rule_71", "7.1")
_RULE_72 = note_text("dansk.rule_72", "7.2")
_RULE_73 = note_text("dansk.rule_73", "7.3 (previous round)")
_RULE_73_LAST = note_text("dansk.rule_73_last", "7.3 (last %(rounds)s rounds)")
_RULE_74 = note_text("dansk.rule_74", "7.4")
_RULE_74_FIRST = note_text("dansk.rule_74_first", "7.4 (no colours yet: the weaker has white, as 7.1)")


@dataclass(frozen=True, slots=True)
class Preference:
    """A colour preference of the supplementary colour rules (§4.9.3 "Supplerende regler")."""

    colour: Colour | None
    strong: bool = False


def colour_sequence(player: Player) -> list[Colour]:
    """Colours in round order: played games, and the round against X as white (2.2)."""
    seq: list[Colour] = []
    for record in player.history:
        if record.kind is Kind.PAIRING_BYE:
            seq.append(W)
        elif record.played and record.colour:
            seq.append(record.colour)
    return seq


def preference(seq: list[Colour]) -> Preference:
    """Strong: a difference of two, or the same colour in the last two rounds; else weak.

    A difference of two outranks the last two rounds when they disagree
    (e.g. W W W W B B): the balance is the stated first case.
    """
    if not seq:
        return Preference(None)
    diff = seq.count(W) - seq.count(B)
    if abs(diff) >= 2:
        return Preference(B if diff > 0 else W, True)
    if len(seq) >= 2 and seq[-1] == seq[-2]:
        return Preference(seq[-1].opposite, True)
    if diff:
        return Preference(B if diff > 0 else W)
    return Preference(seq[-1].opposite)


class _SearchLimit(NoValidPairing):
    """The search took more than `search_limit` steps."""


@dataclass
class _Context:
    """Everything the search needs about this round's players."""

    state: TournamentState
    x: int | None
    score: dict[int, float]
    seq: dict[int, list[Colour]]
    pref: dict[int, Preference]
    met: dict[int, set[int]]
    last_round: bool
    half: float
    budget: int
    limit: int
    accelerated: bool = False
    relaxed: bool = False  # strong preferences no longer forbid a pair (setting relax_strong_preferences)
    notes: dict[frozenset[int], Note] = field(default_factory=dict)
    met_cache: dict[tuple[int, int], int] = field(default_factory=dict)  # pair -> preferences met (5.2)
    steps: list[Note] = field(default_factory=list)

    def allowed(self, a: int, b: int) -> bool:
        """1.2 no second meeting; a strong preference must be met (except the last round, >50 %)."""
        if b in self.met[a]:
            return False
        if self.x in (a, b):
            other = b if a == self.x else a
            p = self.pref[other]
            return self.relaxed or not (p.strong and p.colour is B)
        if self.relaxed:
            return True
        pa, pb = self.pref[a], self.pref[b]
        if pa.strong and pb.strong and pa.colour == pb.colour:
            return self.last_round and self.score[a] > self.half and self.score[b] > self.half
        return True

    def score_of(self, pid: int) -> float:
        return self.score[pid]

    def tick(self) -> None:
        self.budget += 1
        if self.budget > self.limit:
            raise _SearchLimit(f"Dansk Schweizer: search limit of {self.limit} steps reached")


def allocate(ctx: _Context, p: int, q: int) -> tuple[int, int, Note]:
    """(white, black, rule) for a pair of real players (7.2-7.4, strong preferences first)."""
    pp, pq = ctx.pref[p], ctx.pref[q]
    if pp.strong != pq.strong or (pp.strong and pp.colour != pq.colour):
        strong, other = (p, q) if pp.strong else (q, p)
        if ctx.pref[strong].colour is W:
            return strong, other, _STRONG()
        return other, strong, _STRONG()
    sp, sq = ctx.seq[p], ctx.seq[q]
    wp, wq = sp.count(W), sq.count(W)
    if wp != wq:
        return (p, q, _RULE_72()) if wp < wq else (q, p, _RULE_72())
    for m in range(1, max(len(sp), len(sq)) + 1):
        lp, lq = sp[-m:].count(W), sq[-m:].count(W)
        if lp != lq:
            rule = _RULE_73() if m == 1 else _RULE_73_LAST(rounds=m)
            return (p, q, rule) if lp < lq else (q, p, rule)
    # 7.4: more points, else the stronger, takes the opposite of his previous colour.
    lead, other = (p, q) if (-ctx.score[p], p) < (-ctx.score[q], q) else (q, p)
    if ctx.seq[lead]:
        colour = ctx.seq[lead][-1].opposite
        return (lead, other, _RULE_74()) if colour is W else (other, lead, _RULE_74())
    return other, lead, _RULE_74_FIRST()


def _prefs_met(ctx: _Context, pairs: list[tuple[int, int]]) -> int:
    cache = ctx.met_cache
    total = 0
    for pair in pairs:
        met = cache.get(pair)
        if met is None:
            met = cache[pair] = _pair_prefs_met(ctx, *pair)
        total += met
    return total


def _pair_prefs_met(ctx: _Context, p: int, q: int) -> int:
    """How many of the two players get their preferred colour on this board (5.2)."""
    if ctx.x in (p, q):  # the round against X counts as white (2.2)
        return int(ctx.pref[q if p == ctx.x else p].colour is W)
    white, black, _ = allocate(ctx, p, q)
    return int(ctx.pref[white].colour is W) + int(ctx.pref[black].colour is B)


def _upper_bound(ctx: _Context, players: list[int]) -> int:
    whites = sum(ctx.pref[p].colour is W for p in players)
    blacks = sum(ctx.pref[p].colour is B for p in players)
    free = len(players) - whites - blacks
    surplus = max(0, abs(whites - blacks) - free)
    return whites + blacks - (surplus + 1) // 2


def _compositions(ctx: _Context, rest: list[int]) -> Iterator[tuple[Note, list[int], list[int]]]:
    """a/b splits in the order of 5.3: as 5.1, then steps 4, 5 and 6.

    Step 6 only yields the exchanges after which some arrangement of a against b is legal: each
    partial choice (the players already placed in a or b) is kept only when the group can still
    be paired across the two halves, a perfect-matching test. The splits it skips have no legal
    arrangement, so the arrangements found, and their order, are those of the plain enumeration.
    """
    k = len(rest) // 2
    a, b = rest[:k], rest[k:]
    yield _STEP_52(), a, b
    for i in range(k - 1, -1, -1):  # 5.3 steps 4 (i = k-1) and 5 (i < k-1)
        for j in range(k):
            a2, b2 = list(a), list(b)
            a2[i], b2[j] = b[j], a[i]
            step = _STEP_4 if i == k - 1 else _STEP_5
            yield step(a=a[i], b=b[j]), sorted(a2), sorted(b2)
    a_up = list(reversed(a))  # step 6: two or more players, a's from the bottom, b's from the top
    for size in range(2, k + 1):
        for out in _split_choices(ctx, rest, a_up, size, {p: None for p in rest}, "b"):
            sides: dict[int, str | None] = {p: ("b" if p in out else "a") for p in a} | {p: None for p in b}
            for into in _split_choices(ctx, rest, b, size, sides, "a"):
                a2 = sorted([p for p in a if p not in out] + into)
                b2 = sorted([p for p in b if p not in into] + out)
                yield _STEP_6(out=list(out), into=list(into)), a2, b2


def _split_choices(
    ctx: _Context, rest: list[int], pool: list[int], size: int, sides: dict[int, str | None], moved: str
) -> Iterator[list[int]]:
    """The `size`-subsets of `pool` in lexicographic order of positions, each moved to half `moved`,
    the unchosen ones to the other half, keeping only choices after which a pairing across the
    halves of `rest` still exists (`sides`: the half already fixed for each player, None if open)."""
    stay = "a" if moved == "b" else "b"

    def crossing(p: int, q: int) -> bool:
        return ctx.allowed(p, q) and (sides[p] is None or sides[p] != sides[q])

    def rec(start: int, chosen: list[int]) -> Iterator[list[int]]:
        if len(chosen) == size:
            for p in pool[start:]:
                sides[p] = stay
            if has_perfect_matching(rest, crossing):
                yield list(chosen)
            for p in pool[start:]:
                sides[p] = None
            return
        for pos in range(start, len(pool) - (size - len(chosen)) + 1):
            ctx.tick()
            for p in pool[start:pos]:
                sides[p] = stay
            sides[pool[pos]] = moved
            if has_perfect_matching(rest, crossing):
                yield from rec(pos + 1, [*chosen, pool[pos]])
            sides[pool[pos]] = None
        for p in pool[start:]:
            sides[p] = None

    yield from rec(0, [])


def _b_orders(ctx: _Context, a: list[int], b: list[int]) -> Iterator[list[int]]:
    """Orders of b against a in lexicographic order (5.3 steps 1-2), legal pairs only.

    A depth-first search without recursion: level i holds the b players still free and the
    next one to try against a[i]; a choice is kept only when the rest can still be matched.
    """
    if not _bipartite_ok(ctx, a, b):
        return
    if not a:
        yield []
        return
    lefts, tried, order = [list(b)], [0], []
    while tried:
        i = len(tried) - 1
        left, j = lefts[i], tried[i]
        remaining: list[int] | None = None
        while j < len(left):
            cand = left[j]
            j += 1
            ctx.tick()
            if ctx.allowed(a[i], cand):
                rest = left[: j - 1] + left[j:]
                if _bipartite_ok(ctx, a[i + 1 :], rest):
                    remaining = rest
                    break
        tried[i] = j
        if remaining is None:  # level i exhausted: re-open the choice above it
            tried.pop()
            lefts.pop()
            if order:
                order.pop()
            continue
        order.append(left[j - 1])
        if i + 1 == len(a):
            yield list(order)
            order.pop()
        else:
            lefts.append(remaining)
            tried.append(0)


def _bipartite_ok(ctx: _Context, a: list[int], b: list[int]) -> bool:
    return has_bipartite_matching(a, b, ctx.allowed)


def _arrange(
    ctx: _Context, rest: list[int], arrangement_limit: int
) -> tuple[list[tuple[int, int]], Note | None] | None:
    """The pairs of `rest` (no floaters) by 5.1-5.3: the best colours, then the earliest (5.2)."""
    if not rest:
        return [], None
    if not has_perfect_matching(rest, ctx.allowed):
        return None
    bound = _upper_bound(ctx, rest)
    best: tuple[int, list[tuple[int, int]], Note] | None = None
    seen = 0
    for step, a, b in _compositions(ctx, rest):
        ctx.tick()
        for order in _b_orders(ctx, a, b):
            pairs = list(zip(a, order, strict=True))
            label = step
            if order != b:
                label = _MOVED_UP() if step.code == _STEP_52.code else _THEN_MOVED_UP(step=step)
            met = _prefs_met(ctx, pairs)
            if best is None or met > best[0]:
                best = (met, pairs, label)
            seen += 1
            if met >= bound or seen >= arrangement_limit:
                return best[1], best[2]
        if best is not None and seen >= arrangement_limit:
            break
    return (best[1], best[2]) if best else None


def _floater_sets(group: list[int]) -> Iterator[tuple[list[int], Note | None]]:
    """Floater sets in order: 6.1 (odd) or none (even), 6.2, the alternatives of 6.3, all."""
    n = len(group)
    if n % 2:
        original = [group[n // 2]]
        yield original, _MIDDLE()
    else:
        yield [], None
        if n == 0:
            return
        original = [group[n // 2 - 1], group[n // 2]]
        yield original, _TWO_MIDDLE()
    pos = {p: i for i, p in enumerate(group)}
    for f in original:  # strongest floater exchanged upwards, then the next
        for p in reversed(group[: pos[f]]):
            if p not in original:
                yield sorted([q for q in original if q != f] + [p], key=pos.get), _UPWARDS(player=f)
    for f in reversed(original):  # weakest floater exchanged downwards, then the next
        for p in group[pos[f] + 1 :]:
            if p not in original:
                yield sorted([q for q in original if q != f] + [p], key=pos.get), _DOWNWARDS(player=f)
    current = list(original)
    while len(current) < n:  # 6.3 nr. 3-4: nearest above and below join the floaters
        above = [p for p in group[: pos[current[0]]] if p not in current]
        below = [p for p in group[pos[current[-1]] + 1 :] if p not in current]
        extra = ([above[-1]] if above else []) + ([below[0]] if below else [])
        pool = list(reversed(above[:-1] if above else [])) + (below[1:] if below else [])
        while len(extra) < 2 and pool:
            extra.append(pool.pop(0))
        current = sorted(current + extra, key=pos.get)
        yield current, _ALL() if len(current) == n else _NEAREST_ADDED()


def _floater_candidates(ctx: _Context, floater: int, lower: list[int], group_below: set[int]) -> list[int]:
    """Nearest lower players first; one with the opposite strong preference before a weak one (6.3 note)."""
    pref = ctx.pref[floater].colour
    if pref is None:
        return lower

    def key(p: int) -> int:
        other = ctx.pref[p]
        return 0 if p in group_below and other.colour == pref.opposite and other.strong else 1

    return sorted(lower, key=key)


def _floaters_apart(ctx: _Context, floaters: list[int]) -> Callable[[int, int], bool]:
    """The legal pairs when `floaters` may not meet each other (5.4: each meets a lower player)."""
    apart = set(floaters)

    def allowed(p: int, q: int) -> bool:
        return ctx.allowed(p, q) and not (p in apart and q in apart)

    return allowed


def _assign_floaters(ctx: _Context, floaters: list[int], lower: list[int]) -> Iterator[list[tuple[int, int]] | None]:
    """5.4: floaters in start order, each with the nearest lower player he may meet; DFS re-opens.

    None stands for a branch whose every assignment leaves the rest unpairable (a matching test
    cuts it instead of trying each).
    """
    first_group = {p for p in lower if ctx.score_of(p) == ctx.score_of(lower[0])} if lower else set()

    def rec(i: int, left: list[int], acc: list[tuple[int, int]]) -> Iterator[list[tuple[int, int]] | None]:
        if i == len(floaters):
            yield list(acc)
            return
        for cand in _floater_candidates(ctx, floaters[i], left, first_group):
            ctx.tick()
            if ctx.allowed(floaters[i], cand):
                rest = [p for p in left if p != cand]
                if not has_perfect_matching(floaters[i + 1 :] + rest, _floaters_apart(ctx, floaters[i + 1 :])):
                    # Every completion leaves the players below unpairable: one failed re-opening
                    # stands for them all (None), or nothing when there is no completion at all.
                    if has_bipartite_matching(floaters[i + 1 :], rest, ctx.allowed):
                        yield None
                    continue
                acc.append((floaters[i], cand))
                yield from rec(i + 1, rest, acc)
                acc.pop()

    yield from rec(0, lower, [])


class _Search:
    def __init__(self, ctx: _Context, arrangement_limit: int) -> None:
        self.ctx = ctx
        self.arrangement_limit = arrangement_limit

    def solve(self, groups: list[list[int]], carry: list[int], merged: bool = False) -> list[tuple[int, int]] | None:
        """Pair `groups` (top down) after the floaters `carry`.

        Once a choice has failed further down (9.1, 9.2), the players below the group whose floaters
        are being re-chosen form one group, ordered by points and start numbers (9, last paragraph).
        """
        ctx = self.ctx
        ctx.tick()
        remaining = carry + [p for g in groups for p in g]
        if not has_perfect_matching(remaining, _floaters_apart(ctx, carry)):
            return None
        if carry:
            failed = merged
            lower = [p for g in groups for p in g]
            for tried, assignment in enumerate(_assign_floaters(ctx, carry, lower)):
                if assignment is None:
                    failed = True
                    continue
                taken = {p for pair in assignment for p in pair}
                rest = [g for g in ([p for p in g if p not in taken] for g in groups) if g]
                result = self.solve(self.collapse(rest) if failed else rest, [], failed)
                if result is not None:
                    for f, o in assignment:
                        ctx.notes[frozenset((f, o))] = _FLOATER_PAIR(floater=f, opponent=o)
                    if failed and rest:
                        self.note_merged(rest)
                    if tried:
                        ctx.steps.append(_REOPENED())
                    return assignment + result
                failed = True
            return None
        if not groups:
            return []
        group, below = groups[0], groups[1:]
        below_count = sum(len(g) for g in below)
        failed = merged
        for floaters, why in _floater_sets(group):
            if len(floaters) > below_count or (not below and floaters):
                continue
            rest = [p for p in group if p not in floaters]
            arranged = _arrange(ctx, rest, self.arrangement_limit)
            if arranged is None:
                continue
            pairs, step = arranged
            lower = self.collapse(below) if failed and not floaters else below
            result = self.solve(lower, floaters, failed)
            if result is not None:
                scores = {ctx.score_of(p) for p in group}
                label = _SCORE(score=f"{ctx.score_of(group[0]):g}") if len(scores) == 1 else _LOWEST()
                parts = [_GROUP(label=label, players=[self.name(p) for p in group])]
                if floaters:
                    parts.append(_FLOATERS(players=[self.name(p) for p in floaters], why=why))
                if step is not None and step.code != _STEP_52.code:
                    parts.append(step)
                if failed and not floaters and below:
                    self.note_merged(below)
                ctx.steps.append(_SENTENCE(text=joined(parts)))
                for p, q in pairs:
                    ctx.notes[frozenset((p, q))] = _A_V_B(step=step or _STEP_52())
                return pairs + result
            failed = True
        return None

    def collapse(self, groups: list[list[int]]) -> list[list[int]]:
        """The players of `groups` as one group, by points then start number (9)."""
        players = sorted((p for g in groups for p in g), key=lambda p: (-self.ctx.score[p], p))
        return [players] if players else []

    def note_merged(self, groups: list[list[int]]) -> None:
        if len(groups) > 1:
            names = [self.name(p) for p in self.collapse(groups)[0]]
            self.ctx.steps.append(_BELOW_AS_ONE(players=names))

    def name(self, pid: int) -> str:
        return "X" if pid == self.ctx.x else str(pid)


def pairing_points(state: TournamentState, settings: dict[str, Any]) -> dict[int, float]:
    """Points for pairing: real points plus the acceleration points of rule 10."""
    score = {p.id: points(p) for p in state.players}
    groups = settings["acceleration_groups"]
    rounds = settings["acceleration_rounds"]
    if groups > 1 and (rounds == 0 or state.round_to_pair <= rounds):
        ids = sorted(score)
        size, extra = divmod(len(ids), groups)
        start = 0
        for g in range(groups):
            count = size + (1 if g < extra else 0)
            for pid in ids[start : start + count]:
                score[pid] += groups - 1 - g
            start += count
    return score


def _round_one_colours(pairs: list[tuple[int, int]], x: int | None) -> list[tuple[int, int, Note]]:
    """7.1: from the bottom board up, the weaker player has white, then black, and so on."""
    ordered = sorted((min(p), max(p)) for p in pairs)
    out = []
    for i, (strong, weak) in enumerate(reversed(ordered)):
        if i % 2 == 0:
            out.append((weak, strong, _RULE_71()))
        else:
            out.append((strong, weak, _RULE_71()))
    return list(reversed(out))


def _pair_groups(ctx: _Context, groups: list[list[int]], arrangement_limit: int) -> list[tuple[int, int]] | None:
    """The search over the point groups; when it finds nothing, the whole field as one group (9).

    The search tries the floater sets that 6.1-6.3 name, not every subset of a group, so on rare
    late-round fields it can miss a pairing that exists; the last paragraph of 9 (the players
    paired as one group by points and start numbers) is then applied to the whole field. The
    matching test makes that step exact: it fails only when no legal pairing exists.
    """
    try:
        pairs = _Search(ctx, arrangement_limit).solve(groups, [])
    except _SearchLimit:
        pairs = None
    if pairs is not None:
        return pairs
    order = sorted((p for g in groups for p in g), key=lambda p: (-ctx.score[p], p))
    pairs = first_matching(order, ctx.allowed)
    if pairs is not None:
        ctx.notes.clear()
        ctx.steps[:] = [_WHOLE_FIELD_LIMIT() if ctx.budget > ctx.limit else _WHOLE_FIELD()]
        for p, q in pairs:
            ctx.notes[frozenset((p, q))] = _NEAREST()
    return pairs


def pair(state: TournamentState) -> Pairing:
    settings = SYSTEM.settings(state.settings)
    present = sorted(state.to_pair(), key=lambda p: p.id)
    if not present:
        return Pairing(boards=[], explanation=[_NOBODY()])
    x = max(p.id for p in state.players) + 1 if len(present) % 2 else None
    score = pairing_points(state, settings)
    seq = {p.id: colour_sequence(p) for p in present}
    met = {p.id: state.cannot_meet(p) for p in present}
    if x is not None:
        score[x] = 0.0
        seq[x] = []
        met[x] = {p.id for p in present if any(r.kind is Kind.PAIRING_BYE for r in p.history)}
        for pid in met[x]:
            met[pid].add(x)
    pref = {pid: preference(s) for pid, s in seq.items()}
    ctx = _Context(
        state=state,
        x=x,
        score=score,
        seq=seq,
        pref=pref,
        met=met,
        last_round=state.round_to_pair >= state.total_rounds,
        half=state.rounds_played / 2,
        budget=0,
        limit=settings["search_limit"],
        accelerated=any(score[p.id] != points(p) for p in present),
    )
    ids = [p.id for p in present] + ([x] if x is not None else [])
    values = sorted({score[pid] for pid in ids}, reverse=True)
    groups = [[pid for pid in ids if score[pid] == v] for v in values]
    pairs = _pair_groups(ctx, groups, settings["arrangement_limit"])
    if pairs is None and settings["relax_strong_preferences"]:
        ctx.relaxed, ctx.budget = True, 0
        ctx.notes.clear()
        ctx.steps.clear()
        pairs = _pair_groups(ctx, groups, settings["arrangement_limit"])
    if pairs is None:
        raise NoValidPairing(_NO_PAIRING() if ctx.relaxed else _NO_PAIRING_PREFERENCE())
    return _output(state, ctx, pairs)


def _output(state: TournamentState, ctx: _Context, pairs: list[tuple[int, int]]) -> Pairing:
    x = ctx.x
    explanation = [_ROUND(round=state.round_to_pair)]
    if ctx.relaxed:
        explanation.append(_RELAXED())
    if ctx.accelerated:
        explanation.append(_ACCELERATED())
    explanation += list(reversed(ctx.steps))
    rank = {pid: (-ctx.score[pid], pid) for pid in ctx.score}
    pairs = sorted((tuple(sorted(p, key=rank.__getitem__)) for p in pairs), key=lambda p: rank[p[0]])
    boards: list[Board] = []
    byes: list[Bye] = []
    first_round = all(not ctx.seq[p] for pair_ in pairs for p in pair_ if p != x)
    coloured = (
        _round_one_colours(pairs, x)
        if first_round
        else [allocate(ctx, p, q) if x not in (p, q) else (p, q, None) for p, q in pairs]
    )
    for white, black, rule in coloured:
        if x in (white, black):
            player = black if white == x else white
            byes.append(Bye(player, Kind.PAIRING_BYE, score=1.0))
            explanation.append(_MEETS_X(player=player))
            continue
        boards.append(Board(white, black))
        why = ctx.notes.get(frozenset((white, black)), "")
        explanation.append(_BOARD(white=white, black=black, why=why, rule=rule))
    for pid, kind in sorted(state.requested_byes.items()):
        if not state.player(pid).withdrawn:
            byes.append(Bye(pid, kind))
    return Pairing(boards=boards, byes=byes, explanation=explanation)


def _validate(settings: dict[str, Any]) -> None:
    checks.booleans(settings, ["relax_strong_preferences"])
    checks.whole_numbers(settings, ["acceleration_rounds"], least=0)  # 0: the whole tournament
    checks.whole_numbers(settings, ["acceleration_groups", "arrangement_limit", "search_limit"], least=1)


SYSTEM = PairingSystem(
    id="dansk",
    name="Dansk Schweizer (DSU)",
    pair=pair,
    forbidden_pairs=True,
    defaults={
        "acceleration_groups": 1,
        "acceleration_rounds": 0,
        "arrangement_limit": 200,
        "search_limit": 200_000,
        "relax_strong_preferences": True,
    },
    validate=_validate,
)
