"""Rating order and rating groups (seed 004 §65 and §4.9.7).

§65: "Spillerne opstilles i ratingorden, således at et antal af de højest
ratede spiller i øverste gruppe, de næsthøjest ratede i næstøverste gruppe
osv. [...] Ved anvendelse af turneringssystemer, hvor der ikke spilles alle
mod alle, skal opdelingen i grupper foretages således at kun en enkelt gruppe
har et ulige deltagerantal."

The strength order is the one §4.9.7 gives for knockout seeding: DSU rating
(`Player.national_rating`), then title, then Elo (`Player.rating`), then lot.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .state import InvalidInput, Player

# FIDE titles, strongest first; an untitled player ranks after all of them.
TITLE_ORDER: tuple[str, ...] = ("GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM")


def title_rank(title: str) -> int:
    """0 for GM, 1 for IM, ...; len(TITLE_ORDER) when untitled or unknown."""
    title = title.strip().upper()
    return TITLE_ORDER.index(title) if title in TITLE_ORDER else len(TITLE_ORDER)


def strength_order(players: Sequence[Player], seed: int | str | None) -> list[Player]:
    """Players strongest first: DSU rating, title, Elo, lot (seed 004 §4.9.7).

    The lot is a shuffle drawn from `seed`; it only decides between players
    equal on the three criteria.
    """
    lot = sorted(players, key=lambda p: p.id)
    random.Random(f"{seed}/strength-lot").shuffle(lot)
    draw = {p.id: i for i, p in enumerate(lot)}
    return sorted(players, key=lambda p: (-p.national_rating, title_rank(p.title), -p.rating, draw[p.id]))


def group_sizes(n_players: int, size: int, round_robin: bool, merge_below: int | None = None) -> list[int]:
    """The sizes of the rating groups, top group first (seed 004 §65).

    Every group but the lowest has `size` players; the lowest takes the rest,
    and joins the group above when the rest is smaller than `merge_below`
    (default: half of `size`, rounded up). Outside a round robin no two groups
    may have an odd number of players: walking down, an odd group takes the
    strongest player of the group below it, so only the lowest group can stay
    odd (size 9 gives 10, 8, 10, 8, ...).
    """
    if size < 2:
        raise InvalidInput("a group needs at least 2 players")
    if n_players < 1:
        return []
    merge_below = (size + 1) // 2 if merge_below is None else merge_below
    sizes = [size] * (n_players // size)
    rest = n_players % size
    if rest:
        if sizes and rest < merge_below:
            sizes[-1] += rest
        else:
            sizes.append(rest)
    if not round_robin:
        for i in range(len(sizes) - 1):
            if sizes[i] % 2:
                sizes[i] += 1
                sizes[i + 1] -= 1
        sizes = [s for s in sizes if s]
    return sizes


def rating_groups(
    players: Sequence[Player],
    size: int,
    round_robin: bool,
    seed: int | str | None = None,
    merge_below: int | None = None,
) -> list[list[Player]]:
    """Players split into rating groups, the strongest together (seed 004 §65)."""
    ordered = strength_order(players, seed)
    groups: list[list[Player]] = []
    start = 0
    for n in group_sizes(len(ordered), size, round_robin, merge_below):
        groups.append(ordered[start : start + n])
        start += n
    return groups


def check_groups(sizes: Sequence[int], round_robin: bool) -> None:
    """Raise `InvalidInput` when a given division breaks §65's parity rule.

    For divisions the invitation fixes ("medmindre andet er fastsat").
    """
    odd = [i + 1 for i, n in enumerate(sizes) if n % 2]
    if not round_robin and len(odd) > 1:
        groups = ", ".join(map(str, odd))
        raise InvalidInput(f"groups {groups} have an odd number of players; §65 allows only one")
