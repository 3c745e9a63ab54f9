"""The 1998 FIDE Dutch system: KNSB "Reglement Zwitsers op rating" of 28 Oct 1996 (seed 000) and
DSU "FIDE Schweizer" (seed 004 §4.9.5), one rule edition in two languages (README item 8).

Per score group, from the top (seed 000 C):
- C1: a player without any opponent in the group meeting B1/B2 moves down;
- A3 N.B.: a heterogeneous group of which half or more moved down is treated as homogeneous;
- homogeneous group: p = half the group (A6), x by A8 (made smaller by turning mild preferences, A8's
  last sentence); C6/C7 transpositions (D1), C8 exchanges (D2); C9 drops B6 and C10 B5 for
  downfloats; C12 raises x while x < p, B4 first allowing one more miss on a mild preference; C15
  lowers p (and x).
- heterogeneous group: S1 = the players moved down, p of them; C6/C7 pair them, then the rest
  starts again at C2 as a homogeneous group; when it cannot be paired C11 takes the next
  transposition of the floaters, and drops B6, then B5, for upfloats; C12 raises x; C15 lowers p.
- C13/C14: going back to the group above, in `knsb_swiss.rounds`.
Seed 000 A5: the bye is a downfloat and goes to a player who has not had a point without playing.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from .knsb_swiss import (
    MILD,
    RULES_000,
    Candidate,
    Context,
    Entrant,
    Level,
    absence,
    count_x,
    heterogeneous,
    homogeneous,
    level_signature,
    pair_text,
)
from .notes import Note, joined, note_text
from .registry import PairingSystem
from .state import Pairing, TournamentState

# The explanation: the colour counts (A8, B4), the criteria dropped (C9-C12), p lowered (C15).
_B4_MILD = note_text(
    "dutch1998.b4_mild", "B4 (stronger preferences first): one more miss, on a mild preference (%(x)s)"
)
_C12 = note_text("dutch1998.c12", "C12: x raised to %(x)s")
_X = note_text("dutch1998.x", "x=%(x)s")
_X_A8 = note_text("dutch1998.x_a8", "x=%(x)s (A8: %(a8)s less %(turned)s mild preference(s) given the other colour)")
_X_B4 = note_text(
    "dutch1998.x_b4", "x=%(x)s (B4: up to %(misses)s colour misses, those beyond %(beyond)s on mild preferences)"
)
_X_A8_B4 = note_text(
    "dutch1998.x_a8_b4",
    "x=%(x)s (A8: %(a8)s less %(turned)s mild preference(s) given the other colour) (B4: up to %(misses)s colour "
    "misses, those beyond %(beyond)s on mild preferences)",
)
_C6_C8 = note_text("dutch1998.c6_c8", "C6-C8")
_C9 = note_text("dutch1998.c9", "C9: B6 dropped for downfloats")
_C10 = note_text("dutch1998.c10", "C10: B5 dropped for downfloats")
_C11_B6 = note_text("dutch1998.c11_b6", "C11: B6 dropped for upfloats")
_C11_B5 = note_text("dutch1998.c11_b5", "C11: B5 dropped for upfloats")
_C15 = note_text("dutch1998.c15", "C15: p lowered to %(p)s")
_C15_REMAINDER = note_text("dutch1998.c15_remainder", "C15 (remainder): p lowered to %(p)s")
_C15_WHOLE = note_text("dutch1998.c15_whole", "C15: p = 0, the whole group moves down")
_P = note_text("dutch1998.p", "p=%(p)s, %(x)s")
_FLOATERS = note_text("dutch1998.floaters", "floaters by C6/C7, %(x)s")
_REMAINDER = note_text("dutch1998.remainder", "remainder: %(note)s")
_HETEROGENEOUS = note_text("dutch1998.heterogeneous", "heterogeneous, S1 = %(m0)s moved down")
_LOWEST_HOMOGENEOUS = note_text("dutch1998.lowest_homogeneous", "the lowest group paired as one homogeneous group")
_BYE = note_text("dutch1998.bye", "A5: the player left over; no earlier point without playing (B1)")


@dataclass(frozen=True)
class Budget000:
    """The colour counts of a group (seed 000 A8, B4, C12).

    `x`: A8's formula; `turned`: mild preferences A8's last sentence gives the other colour, so the
    procedure's x is x - turned; `mild`: someone in the group has a mild preference. A candidate may
    have at most x - turned pairs in which a strong (or absolute) preference is missed (both players
    prefer the colour strongly) and at most x colour misses in all: the others fall on mild ones.
    """

    x: int
    turned: int
    mild: bool

    @classmethod
    def of(cls, players: list[Entrant], lowered: int = 0) -> Budget000:
        x, turned = count_x(players)
        if lowered and x > 0:  # C15: "als de oorspronkelijke x groter is dan 0, verlaag deze dan ook"
            x = max(0, x - lowered)
            turned = min(turned, x)
        return cls(x, turned, any(e.strength == MILD for e in players))

    def steps(self, cap: int) -> list[tuple[int, int | None, Note | None]]:
        """(colour misses allowed, of which between strong preferences, label) in the order tried:
        the start, then C12's raises while x < p. B4 "met voorrang voor een sterkere voorkeur": before
        each raise, one more miss is allowed when it falls on a mild preference. The second count is
        None where it cannot be tighter than the first."""
        x = self.x - self.turned
        out: list[tuple[int, int, Note | None]] = [(min(self.x, cap), min(x, cap), None)]
        while x < cap:
            total = out[-1][0]
            if self.mild and total < cap:
                out.append((total + 1, x, _B4_MILD(x=total + 1)))
            x += 1
            out.append((min(x + self.turned, cap), x, _C12(x=x)))
        return [(t, None if z >= t else z, label) for t, z, label in out]

    def note(self, level: Level) -> Note:
        """The explanation of the colour counts in force, naming A8 and B4 where they decide."""
        z = level.x if level.z is None else level.z
        b4 = level.x > z + self.turned
        if self.turned and b4:
            return _X_A8_B4(x=z, a8=self.x, turned=self.turned, misses=level.x, beyond=z + self.turned)
        if self.turned:
            return _X_A8(x=z, a8=self.x, turned=self.turned)
        if b4:
            return _X_B4(x=z, misses=level.x, beyond=z + self.turned)
        return _X(x=z)


def levels_000(budget: Budget000, p: int, floats_up: bool) -> Iterator[tuple[int, Level]]:
    """Seed 000 C6-C12 in order: (C12 raises, criteria). `floats_up`: upfloats can occur (C11)."""
    steps = budget.steps(p)
    x0, z0, _ = steps[0]
    yield 0, Level(x0, z0, label=_C6_C8())
    yield 0, Level(x0, z0, down6=False, label=_C9())
    yield 0, Level(x0, z0, down6=False, down5=False, label=_C10())
    if floats_up:
        yield 0, Level(x0, z0, down6=False, down5=False, up6=False, label=_C11_B6())
        yield 0, Level(x0, z0, False, False, False, False, label=_C11_B5())
    for k in range(1, len(steps)):
        x, z, label = steps[k]
        yield k, Level(x, z, False, False, False, False, label=label)


def _homogeneous_000(ctx: Context, group: list[Entrant]) -> Iterator[tuple[Candidate, list[Note]]]:
    """A homogeneous group's candidates in the order of C4-C12, then C15 (p lowered)."""
    n = len(group)
    p0 = n // 2
    mixed = len({e.score for e in group}) > 1
    for p in range(p0, 0 if p0 or not ctx.last else -1, -1):  # the lowest group's lone player: the bye
        budget = Budget000.of(group, lowered=p0 - p)
        seen: set[tuple] = set()
        for _, level in levels_000(budget, p, mixed):
            sig = level_signature(level, group)
            if sig in seen:
                continue
            seen.add(sig)
            for cand in homogeneous(ctx, group, p, level):
                lines = [_C15(p=p)] if p < p0 else []
                lines.append(joined([level.label, cand.note, _P(p=p, x=budget.note(level))]))
                yield cand, lines


def bracket_000(
    ctx: Context, movers: list[Entrant], residents: list[Entrant]
) -> Iterator[tuple[Candidate, list[Note]]]:
    """One score group by seed 000 C1-C15: its candidates in the text's order, with their notes."""
    group, notes = ctx.set_aside(sorted([*movers, *residents], key=lambda e: e.key))
    stuck = ctx.stuck
    moved = [e for e in group if any(e is m for m in movers)]
    n, m0 = len(group), len(moved)
    whole = Candidate([], [*group, *stuck], None), [*notes, _C15_WHOLE()]
    if m0 and 2 * m0 < n:
        notes.append(_HETEROGENEOUS(m0=m0))
        budget = Budget000.of(group)
        for pm in range(m0, 0, -1):
            s1 = moved[:pm]
            s2 = sorted([e for e in group if not any(e is s for s in s1)], key=lambda e: e.key)
            r = len(s2) - pm
            for prem in range(r // 2, -1, -1):
                seen: set[tuple] = set()
                for k, lv in levels_000(budget, pm, True):
                    sig = level_signature(lv, group) + (k,)
                    if sig in seen:
                        continue
                    seen.add(sig)

                    def rem_level(rest: list[Entrant], lv: Level = lv, k: int = k, prem: int = prem) -> Level:
                        steps = Budget000.of(rest).steps(prem)
                        x, z, _ = steps[min(k, len(steps) - 1)]
                        return replace(lv, x=x, z=z)

                    for cand in heterogeneous(ctx, s1, s2, lv, prem, rem_level, shared=False):
                        lines = [_C15(p=pm)] if pm < m0 else []
                        if prem < r // 2:
                            lines.append(_C15_REMAINDER(p=prem))
                        floaters = _FLOATERS(x=budget.note(lv))
                        lines.append(joined([lv.label, floaters, _REMAINDER(note=cand.note)]))
                        yield Candidate(cand.pairs, [*cand.floaters, *stuck], cand.note), notes + lines
        if not ctx.last:
            if ctx.whole_group_may_move():
                yield whole
            return
        notes.append(_LOWEST_HOMOGENEOUS())
    for cand, lines in _homogeneous_000(ctx, group):
        yield Candidate(cand.pairs, [*cand.floaters, *stuck], cand.note), notes + lines
    if ctx.whole_group_may_move():
        yield whole


def pair(state: TournamentState) -> Pairing:
    SYSTEM.settings(state.settings)
    return pair_text(state, RULES_000, bracket_000, _BYE(), "000 F8")


SYSTEM = PairingSystem(
    id="dutch-1998",
    name="FIDE Dutch system 1998 (KNSB 1996, DSU FIDE Schweizer)",
    pair=pair,
    defaults=absence.DEFAULTS,
    validate=absence.validate,
    forbidden_pairs=True,
)
