"""KNSB "Reglement Zwitsers op rating", later edition (seed 002).

Per score group, from the top (seed 002 C):
- C1: a player without any opponent meeting B1 (B2 not for topscorers) moves down;
- C2: P0 = half the group (A6b), M0 = players moved down (A6c), X1 and, in even rounds, Z1 (A8);
- C3: criteria in force: B2 for topscorers (C3b), A7d in odd rounds (C3c), X and Z (C3d),
  B5/B6 for downfloats and upfloats (C3e-C3h);
- homogeneous group: S1 = the top P1 (C4), C6/C7 transpositions (D1.1), C8a exchanges (D2);
- heterogeneous group (fewer than half moved down, A3): S1 = M1 of the floaters, C6/C7 with D1.2,
  C8b other floater subsets (D3), then the rest with P = P1 - M1 from C4 (C6), with one X and Z for
  the whole group;
- C10a-g relax, in this order: B6 up, B5 up, B6 down, B5 down, X/Z (C10e), A7d (C10f), B2 for
  topscorers (C10g); each restart re-activates what its target step activates (e.g. C10e restarts
  at C3e, so the float criteria hold again for the raised X);
- C14 lowers P1 (with X1, Z1) in a homogeneous group, in a heterogeneous one first P1 when the rest
  was reached (C14b1), else M1 (C14b2), down to M1 = 0 (homogeneous, P1 = P0).
- C12/C13: going back to the group above, in `knsb_swiss.rounds`.
"""

from __future__ import annotations

from collections.abc import Iterator

from .knsb_orders import floater_subsets
from .knsb_swiss import (
    RULES_002,
    Candidate,
    Context,
    Entrant,
    Level,
    absence,
    count_x1_z1,
    heterogeneous,
    homogeneous,
    level_signature,
    pair_text,
    sizes_possible,
)
from .notes import Note, NoteText, joined, note_text
from .registry import PairingSystem
from .state import Pairing, TournamentState

_C3 = note_text("knsb_rating.c3", "C3")
# (down5, down6, up5, up6) in force, cumulatively relaxed by C10a-C10d.
_FLOATS: tuple[tuple[tuple[bool, bool, bool, bool], NoteText], ...] = (
    ((True, True, True, True), _C3),
    ((True, True, True, False), note_text("knsb_rating.c10a", "C10a: B6 ignored for upfloats")),
    ((True, True, False, False), note_text("knsb_rating.c10b", "C10b: B5 ignored for upfloats")),
    ((True, False, False, False), note_text("knsb_rating.c10c", "C10c: B6 ignored for downfloats")),
    ((False, False, False, False), note_text("knsb_rating.c10d", "C10d: B5 ignored for downfloats")),
)
_X_RAISED = note_text("knsb_rating.x_raised", "C10e: X raised to %(x)s")
_XZ_RAISED = note_text("knsb_rating.xz_raised", "C10e: X = %(x)s, Z = %(z)s")
_A7D_IGNORED = note_text("knsb_rating.a7d_ignored", "C10f: A7d ignored")
_B2_IGNORED = note_text("knsb_rating.b2_ignored", "C10g: B2 ignored for topscorers")
_X = note_text("knsb_rating.x", "X=%(x)s")
_XZ = note_text("knsb_rating.xz", "X=%(x)s, Z=%(z)s")
_XZ_A7E = note_text(
    "knsb_rating.xz_a7e", "X=%(x)s, Z=%(z)s (A7e: at most %(z)s pair(s) of two strong preferences for one colour)"
)
_HETEROGENEOUS = note_text("knsb_rating.heterogeneous", "heterogeneous, M0 = %(m0)s")
_C8B = note_text("knsb_rating.c8b", "C8b: floaters %(players)s in S1 (D3)")
_REST = note_text("knsb_rating.rest", "rest: %(note)s")
_P1_M1 = note_text("knsb_rating.p1_m1", "P1=%(p1)s, M1=%(m1)s, %(xz)s")
_P1 = note_text("knsb_rating.p1", "P1=%(p1)s, %(xz)s")
_C14B1 = note_text("knsb_rating.c14b1", "C14b1: P1 lowered to %(p1)s")
_C14B2 = note_text("knsb_rating.c14b2", "C14b2: M1 lowered to %(m1)s")
_C14B2_HOMOGENEOUS = note_text(
    "knsb_rating.c14b2_homogeneous", "C14b2: M1 = 0, the group is treated as homogeneous with P1 = P0"
)
_C14A = note_text("knsb_rating.c14a", "C14a: P1 lowered to %(p1)s")
_C14A_WHOLE = note_text("knsb_rating.c14a_whole", "C14a: P1 = 0, the whole group moves down")
_BYE = note_text("knsb_rating.bye", "A5: the player left over; no earlier point without playing (B1b)")


def xz_steps(x1: int, z1: int | None, p1: int) -> Iterator[tuple[int, int | None, Note | None]]:
    """Seed 002 C10e: odd rounds X = X1 .. P1; even rounds Z rises to X, then X rises and Z = Z1."""
    x = min(x1, p1)
    if z1 is None:
        for v in range(x, max(p1, x) + 1):
            yield v, None, None if v == x else _X_RAISED(x=v)
        return
    first = True
    while True:
        z = min(z1, x)
        while True:
            yield x, z, None if first else _XZ_RAISED(x=x, z=z)
            first = False
            if z >= x:
                break
            z += 1
        if x >= p1:
            return
        x += 1


def levels_002(x1: int, z1: int | None, p1: int, odd: bool, tops: bool) -> Iterator[Level]:
    """The criteria of seed 002 C3 and C10a-C10g in the order the restarts walk them."""
    for b2_top in (True, False) if tops else (True,):
        for a7d in (True, False) if odd else (False,):
            for x, z, xz_label in xz_steps(x1, z1, p1):
                for (d5, d6, u5, u6), f_label in _FLOATS:
                    relaxed = xz_label or not a7d and odd or not b2_top
                    labels = [f_label()] if f_label is not _C3 or not relaxed else []
                    if xz_label:
                        labels.append(xz_label)
                    if odd and not a7d:
                        labels.append(_A7D_IGNORED())
                    if not b2_top:
                        labels.append(_B2_IGNORED())
                    label = joined(labels, ", ") if labels else None
                    yield Level(x, z, down5=d5, down6=d6, up5=u5, up6=u6, a7d=a7d, b2_top=b2_top, label=label)


def _xz(level: Level) -> Note:
    """X and, in even rounds, Z for the explanation. Z below X is A7e at work: mild preferences take
    the other colour as far as needed to keep pairs of two strong preferences for one colour few."""
    if level.z is None:
        return _X(x=level.x)
    if level.z < level.x:
        return _XZ_A7E(x=level.x, z=level.z)
    return _XZ(x=level.x, z=level.z)


def bracket_002(
    ctx: Context, movers: list[Entrant], residents: list[Entrant]
) -> Iterator[tuple[Candidate, list[Note]]]:
    """One score group by seed 002 C1-C14: its candidates in the text's order, with their notes."""
    group, notes = ctx.set_aside(sorted([*movers, *residents], key=lambda e: e.key))
    stuck = ctx.stuck
    moved = [e for e in group if any(e is m for m in movers)]
    n, m0 = len(group), len(moved)
    p0 = n // 2
    even = not ctx.odd_round
    x1, z1 = count_x1_z1(group, p0, even)
    tops = any(e.top for e in group)

    def done(cand: Candidate, line: Note) -> tuple[Candidate, list[Note]]:
        return Candidate(cand.pairs, [*cand.floaters, *stuck], cand.note), [*notes, line]

    # C13: a lowest group formed by merging is heterogeneous, the group added last being S1.
    if m0 and (2 * m0 < n or ctx.merged):
        notes.append(_HETEROGENEOUS(m0=m0))
        m1, p1, reached = m0, p0, [False]
        while True:
            seen: set[tuple] = set()
            fits = sizes_possible(ctx, m1, n - m1, p1 - m1)  # else no subset of M1 floaters can do
            for level in levels_002(x1, z1, p1, ctx.odd_round, tops) if fits else ():
                sig = level_signature(level, group)
                if sig in seen:
                    continue
                seen.add(sig)
                for subset in floater_subsets(m0, m1):
                    s1 = [moved[i - 1] for i in subset]
                    in_s1 = {id(e) for e in s1}
                    s2 = [e for e in group if id(e) not in in_s1]  # `group` is in A2 order
                    how = [] if subset == tuple(range(1, m1 + 1)) else [_C8B(players=[e.id for e in s1])]
                    for cand in heterogeneous(
                        ctx, s1, s2, level, p1 - m1, lambda rest, lv=level: lv, shared=True, reached=reached
                    ):
                        label = level.label or _C3()
                        line = joined([label, *how, _REST(note=cand.note), _P1_M1(p1=p1, m1=m1, xz=_xz(level))])
                        yield done(cand, line)
            if reached[0] and p1 > m1:
                p1, x1 = p1 - 1, max(0, x1 - 1)
                z1 = None if z1 is None else max(0, z1 - 1)
                notes.append(_C14B1(p1=p1))
            elif m1 > 1:
                m1 -= 1
                notes.append(_C14B2(m1=m1))
            else:
                notes.append(_C14B2_HOMOGENEOUS())
                x1, z1 = count_x1_z1(group, p0, even)
                break
    p1 = p0
    while p1 > 0 or (p0 == 0 and ctx.last):  # the lowest group's lone player: the bye
        seen = set()
        for level in levels_002(x1, z1, p1, ctx.odd_round, tops):
            sig = level_signature(level, group)
            if sig in seen:
                continue
            seen.add(sig)
            for cand in homogeneous(ctx, group, p1, level):
                yield done(cand, joined([level.label or _C3(), cand.note, _P1(p1=p1, xz=_xz(level))]))
        if p1 == 0:
            break
        p1, x1 = p1 - 1, max(0, x1 - 1)
        z1 = None if z1 is None else max(0, z1 - 1)
        notes.append(_C14A(p1=p1))
    if ctx.whole_group_may_move():
        yield done(Candidate([], group, None), _C14A_WHOLE())


def pair(state: TournamentState) -> Pairing:
    SYSTEM.settings(state.settings)
    return pair_text(state, RULES_002, bracket_002, _BYE(), "002 F8")


SYSTEM = PairingSystem(
    id="knsb-rating",
    name="KNSB Zwitsers op rating (later edition)",
    pair=pair,
    defaults=absence.DEFAULTS,
    validate=absence.validate,
    forbidden_pairs=True,
)
