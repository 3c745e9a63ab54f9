"""The 1998 FIDE Dutch system: KNSB "Reglement Zwitsers op rating" of 28 Oct 1996 (seed 000) and
DSU "FIDE Schweizer" (seed 004 §4.9.5), one rule edition in two languages (README item 8).

Per score group, from the top (seed 000 C):
- C1: a player without any opponent in the group meeting B1/B2 moves down;
- A3 N.B.: a heterogeneous group of which half or more moved down is treated as homogeneous;
- homogeneous group: p = half the group (A6), x by A8; C6/C7 transpositions (D1), C8 exchanges
  (D2); C9 drops B6 and C10 B5 for downfloats; C12 raises x while x < p; C15 lowers p (and x).
- heterogeneous group: S1 = the players moved down, p of them; C6/C7 pair them, then the rest
  starts again at C2 as a homogeneous group; when it cannot be paired C11 takes the next
  transposition of the floaters, and drops B6, then B5, for upfloats; C12 raises x; C15 lowers p.
- C13/C14: see `knsb_swiss` (a candidate must leave the lower groups pairable).
Seed 000 A5: the bye is a downfloat and goes to a player who has not had a point without playing.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from .knsb_swiss import (
    RULES_000,
    Candidate,
    Entrant,
    Level,
    _Context,
    check_state,
    count_x,
    finish,
    heterogeneous,
    homogeneous,
    level_signature,
    pair_round,
    unpairable,
)
from .registry import PairingSystem
from .state import Pairing, TournamentState


def levels_000(x0: int, p: int, floats_up: bool) -> Iterator[tuple[int, Level]]:
    """Seed 000 C6-C12 in order: (x increment, criteria). `floats_up`: upfloats can occur (C11)."""
    yield 0, Level(x0, None, label="C6-C8")
    yield 0, Level(x0, None, down6=False, label="C9: B6 dropped for downfloats")
    yield 0, Level(x0, None, down6=False, down5=False, label="C10: B5 dropped for downfloats")
    if floats_up:
        yield 0, Level(x0, None, down6=False, down5=False, up6=False, label="C11: B6 dropped for upfloats")
        yield 0, Level(x0, None, False, False, False, False, label="C11: B5 dropped for upfloats")
    for k in range(1, max(p - x0, 0) + 1):
        yield k, Level(x0 + k, None, False, False, False, False, label=f"C12: x raised to {x0 + k}")


def _homogeneous_000(ctx: _Context, group: list[Entrant], notes: list[str]) -> Candidate | None:
    n = len(group)
    p0 = n // 2
    x0 = count_x(group, p0)
    mixed = len({e.score for e in group}) > 1
    for p in range(p0, 0, -1):
        # C15: "als de oorspronkelijke x groter is dan 0, verlaag deze dan ook met 1"
        x = max(0, x0 - (p0 - p)) if x0 > 0 else 0
        seen: set[tuple] = set()
        for _, level in levels_000(x, p, mixed):
            sig = level_signature(level, group)
            if sig in seen:
                continue
            seen.add(sig)
            cand = homogeneous(ctx, group, p, level)
            if cand is not None:
                if p < p0:
                    notes.append(f"C15: p lowered to {p}")
                notes.append(f"{level.label}; {cand.note}; p={p}, x={level.x}")
                return cand
    return None


def bracket_000(ctx: _Context, movers: list[Entrant], residents: list[Entrant]) -> tuple[Candidate, list[str]]:
    """One score group by seed 000 C1-C15."""
    notes: list[str] = []
    group = sorted([*movers, *residents], key=lambda e: e.key)
    stuck: list[Entrant] = []
    if not ctx.last:
        stuck = unpairable(group, ctx.rules)
        if stuck:
            notes.append("C1: " + ", ".join(str(e.id) for e in stuck) + " move down (no opponent under B1/B2)")
            group = [e for e in group if e not in stuck]
    moved = [e for e in group if any(e is m for m in movers)]
    n, m0 = len(group), len(moved)
    ctx.lower = [*stuck, *ctx.lower]
    ctx.stuck = stuck
    if m0 and 2 * m0 < n:
        notes.append(f"heterogeneous, S1 = {m0} moved down")
        x_group = count_x(group, n // 2)
        for pm in range(m0, 0, -1):
            s1 = moved[:pm]
            s2 = sorted([e for e in group if not any(e is s for s in s1)], key=lambda e: e.key)
            r = len(s2) - pm
            for prem in range(r // 2, -1, -1):
                seen: set[tuple] = set()
                for k, level in levels_000(min(x_group, pm), pm, True):
                    lv = replace(level, x=min(x_group + k, pm))
                    sig = level_signature(lv, group) + (k,)
                    if sig in seen:
                        continue
                    seen.add(sig)

                    def rem_level(rest: list[Entrant], lv: Level = lv, k: int = k, prem: int = prem) -> Level:
                        return replace(lv, x=min(count_x(rest, prem) + k, prem))

                    cand, _ = heterogeneous(ctx, s1, s2, lv, prem, rem_level, shared=False)
                    if cand is not None:
                        if pm < m0:
                            notes.append(f"C15: p lowered to {pm}")
                        if prem < r // 2:
                            notes.append(f"C15 (remainder): p lowered to {prem}")
                        notes.append(f"{lv.label}; floaters by C6/C7, remainder: {cand.note}")
                        return Candidate(cand.pairs, [*cand.floaters, *stuck], cand.note), notes
        if not ctx.last:
            notes.append("C15: p = 0, the whole group moves down")
            return Candidate([], [*group, *stuck], ""), notes
        notes.append("C14: the lowest group merged and paired as one homogeneous group")
    cand = _homogeneous_000(ctx, group, notes)
    if cand is None:
        notes.append("C15: p = 0, the whole group moves down")
        cand = Candidate([], group, "")
    return Candidate(cand.pairs, [*cand.floaters, *stuck], cand.note), notes


def pair(state: TournamentState) -> Pairing:
    check_state(state)
    out = pair_round(state, RULES_000, bracket_000)
    return finish(state, out, "A5: the player left over; no earlier point without playing (B1)")


SYSTEM = PairingSystem(id="dutch-1998", name="FIDE Dutch system 1998 (KNSB 1996, DSU FIDE Schweizer)", pair=pair)
