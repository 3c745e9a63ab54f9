"""What one score group's procedure knows of the round: the groups below, how it goes back (seed 000
C13/C14, seed 002 C12/C13, seed 001 C2/C9), the players C1 sets aside and the pairs allowed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

from ..matching import has_bipartite_matching
from ..notes import Note, note_text
from .criteria import Level, absolute_ok, b2_exempt, strong_conflict, unpairable, up_bad
from .pairable import Lookahead
from .players import Entrant, Rules

# Seed 000/002 C1, seed 001 C2: players without an opponent in their group.
_C1_DOWN = note_text("knsb.c1_down", "C1: %(players)s move down (no opponent under B1/B2)")
_C2_WAITING = note_text("knsb.c2_waiting", "C2: %(players)s to the waiting room (no opponent)")


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
class Context:
    rules: Rules
    odd_round: bool
    lookahead: Lookahead
    lower: list[Entrant]  # players of all lower score groups
    last: bool  # the lowest score group: a leftover gets the bye
    next_group: list[Entrant] = field(default_factory=list)
    mode: str = Mode.FIRST
    recut: Recut | None = None  # Mode.RECUT: what the other floaters must allow
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
class Recut:
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
        if self.scores is not None and self.scores != scores_of(floaters):
            return False
        return next_group_can_pair([*floaters, *self.stuck], floaters, self.residents, self.rules)


def scores_of(players: Sequence[Entrant]) -> tuple[float, ...]:
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


def pair_ok(ctx: Context, level: Level, a: Entrant, b: Entrant) -> bool:
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


def sizes_possible(ctx: Context, floaters: int, residents: int, rem_pairs: int) -> bool:
    """Could `floaters` paired with as many of `residents`, then up to `rem_pairs` pairs of the
    rest, leave over a number of players `ctx` accepts (by their count alone)?"""
    left = residents - floaters
    return left >= 0 and ctx.leftovers_possible(left - 2 * min(rem_pairs, left // 2))
