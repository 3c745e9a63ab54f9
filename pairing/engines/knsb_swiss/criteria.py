"""The criteria of seed 000/002 B (B1/B2 absolute, B4 colours, B5/B6 floats) and the level of them in
force while a group's candidates are walked (`Level`: seed 000 C9-C12, seed 002 C3/C10).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..colours import Float
from ..notes import Note
from .players import STRONG, Entrant, Rules


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
