"""Prize distribution: who receives which prize of a competition's prize table. Pure: no Django, no I/O.

The standings give the order (points, then the tie-break list; a rank shared only where every
tie-break is equal). How cash is divided among players on equal points is the competition's own
regulation, one of `SHARING`:

- "points": players on equal points share the cash of the places they occupy equally (seed 000 F10
  and seed 001 F12 "Is dit voor meerdere spelers gelijk, dan worden eventuele geldprijzen gedeeld";
  seed 004 §24 for round robins, "I alle-mod-alle-grupper deles kontante præmier").
- "tiebreak": the tie-breaks decide, cash follows the places (seed 004 §24 "I alle andre grupper
  fordeles præmier ved almindelig korrektion"); players equal on every tie-break share.
- "hort": half of the cash of the places follows the tie-break order, the other half is shared
  equally among the players on equal points (the Hort system).

An honour prize (a cup, a book: a `Prize` with a label) is never divided: it follows the tie-break
order (seed 004 §24 "fordelingen af eventuelle ærespræmier afgøres ved Sonneborn-Berger-korrektion").
A prize group (rating band, age, women, Keizer strength group, seed 003 §1.10) has its own prizes.
A player receives at most one prize: the one of highest cash value, the earlier category (the main
prizes first) when equal; he then leaves the other categories' lists, where the next in line moves up.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_DOWN, Decimal
from itertools import groupby

from .state import InvalidInput

SHARING = ("points", "tiebreak", "hort")
# The weight of the equal share on points in a player's cash: the rest follows the tie-break order.
_SHARED_WEIGHT = {"points": Decimal(1), "tiebreak": Decimal(0), "hort": Decimal("0.5")}
CENT = Decimal("0.01")

# Each system's default regulation (seeds README item 16).
DEFAULT_SHARING: dict[str, str] = {
    "roundrobin": "points",  # seed 004 §24
    "double-roundrobin": "points",  # seed 004 §24
    "dutch-1998": "points",  # seed 000 F10
    "knsb-rating": "points",  # seed 000 F10 (seed 002 has no ranking article of its own)
    "knsb-wp": "points",  # seed 001 F12
    "dansk": "tiebreak",  # seed 004 §24, almindelig korrektion
    "monrad": "tiebreak",  # seed 004 §24
    "dubov-1997": "tiebreak",  # seed 004 §24
}

GROUP_KINDS = ("rating", "age", "women", "strength")


def default_sharing(system_id: str) -> str:
    """The system's regulation for equal points; the tie-break order where no seed says otherwise."""
    return DEFAULT_SHARING.get(system_id, "tiebreak")


@dataclass(frozen=True, slots=True)
class Prize:
    """One place's prize: cash (`amount`), an honour prize (`label`), or both."""

    amount: Decimal = Decimal(0)
    label: str = ""

    def __post_init__(self) -> None:
        if self.amount < 0:
            raise InvalidInput("a prize cannot be negative")


@dataclass(frozen=True, slots=True)
class Placing:
    """A player's line of the final standings, in standings order; equal `rank` = equal on every tie-break."""

    player: int
    points: float
    rank: int


@dataclass(frozen=True, slots=True)
class Entrant:
    """What prize groups ask of a player. `birth` is private data: used, never shown."""

    player: int
    rating: int = 0
    sex: str = ""  # "w" for women
    birth: date | None = None
    strength_group: int | None = None  # Keizer, seed 003 §1.10


def age_on(birth: date, on: date) -> int:
    """Full years of age on `on`."""
    return on.year - birth.year - ((on.month, on.day) < (birth.month, birth.day))


@dataclass(frozen=True, slots=True)
class GroupRule:
    """A prize group and its prizes.

    - "rating": `low` <= rating <= `high` (either may be None: open); unrated players count as 0.
    - "age": `low` <= age <= `high` in full years on the reference date; no birth date, no age group.
    - "women": players whose sex is "w".
    - "strength": Keizer strength group number `low` (seed 003 §1.10, 1 the strongest).
    """

    name: str
    kind: str
    prizes: tuple[Prize, ...]
    low: int | None = None
    high: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in GROUP_KINDS:
            raise InvalidInput(f"unknown prize group kind {self.kind!r}")
        if self.kind == "strength" and self.low is None:
            raise InvalidInput("a strength group needs its number")
        if self.low is not None and self.high is not None and self.low > self.high:
            raise InvalidInput(f"prize group {self.name!r}: the lower limit is above the upper one")

    def admits(self, entrant: Entrant, on: date) -> bool:
        if self.kind == "women":
            return entrant.sex == "w"
        if self.kind == "strength":
            return entrant.strength_group == self.low
        if self.kind == "age":
            if entrant.birth is None:
                return False
            value = age_on(entrant.birth, on)
        else:
            value = entrant.rating
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)


@dataclass(frozen=True, slots=True)
class Award:
    """One prize given: the category (0 the main prizes, then the groups in order), the place in that
    category's list, the block of places whose cash was pooled, and the cash received."""

    player: int
    category: int
    place: int
    first: int  # the places whose cash was pooled: first..last (== place when not shared)
    last: int
    amount: Decimal
    label: str = ""
    pool: Decimal = Decimal(0)  # the cash of places first..last
    sharers: int = 1  # the players who shared that pool

    @property
    def shared(self) -> bool:
        return self.sharers > 1


@dataclass(slots=True)
class Distribution:
    """The awards in category order, then place; `excluded` names who left a category for a better prize."""

    awards: list[Award] = field(default_factory=list)
    excluded: dict[int, set[int]] = field(default_factory=dict)

    def of(self, player: int) -> Award | None:
        return next((a for a in self.awards if a.player == player), None)

    def total(self) -> Decimal:
        return sum((a.amount for a in self.awards), Decimal(0))


def _cash(prizes: Sequence[Prize], start: int, stop: int) -> list[Decimal]:
    """The cash of places start..stop-1 (0-based); places beyond the table are worth nothing."""
    return [prizes[i].amount if i < len(prizes) else Decimal(0) for i in range(start, stop)]


def split(order: Sequence[Placing], prizes: Sequence[Prize], sharing: str, category: int = 0) -> list[Award]:
    """The prizes of one category over its players in standings order (module docstring for `sharing`).

    A player's cash is w × (the mean cash of the places of his equal-points block) + (1 - w) × (the mean
    cash of the places of his equal-rank block), w = 1, ½, 0 for "points", "hort", "tiebreak";
    shares are rounded down to the cent, so the total never exceeds the table.
    """
    if sharing not in SHARING:
        raise InvalidInput(f"unknown prize sharing {sharing!r}; choose from {', '.join(SHARING)}")
    weight = _SHARED_WEIGHT[sharing]
    awards: list[Award] = []
    position = 0
    for _points, block_iter in groupby(order, key=lambda p: p.points):
        block = list(block_iter)
        pstart, pstop = position, position + len(block)
        position = pstop
        if pstart >= len(prizes):
            break
        points_cash = _cash(prizes, pstart, pstop)
        points_mean = sum(points_cash, Decimal(0)) / len(block)
        offset = pstart
        for _rank, tied_iter in groupby(block, key=lambda p: p.rank):
            tied = list(tied_iter)
            tstart, tstop = offset, offset + len(tied)
            offset = tstop
            rank_mean = sum(_cash(prizes, tstart, tstop), Decimal(0)) / len(tied)
            amount = (weight * points_mean + (1 - weight) * rank_mean).quantize(CENT, rounding=ROUND_DOWN)
            if weight == 1:
                first, last, pool, sharers = pstart, pstop, sum(points_cash, Decimal(0)), len(block)
            elif weight == 0:
                first, last, pool, sharers = tstart, tstop, sum(_cash(prizes, tstart, tstop), Decimal(0)), len(tied)
            else:
                first, last, pool, sharers = pstart, pstop, sum(points_cash, Decimal(0)), len(block)
            for i, placing in enumerate(tied, start=tstart):
                label = prizes[i].label if i < len(prizes) else ""
                if amount or label:
                    awards.append(Award(placing.player, category, i + 1, first + 1, last, amount, label, pool, sharers))
    return awards


def distribute(
    order: Sequence[Placing],
    main: Sequence[Prize],
    groups: Sequence[tuple[Sequence[Prize], Iterable[int]]] = (),
    sharing: str = "tiebreak",
    one_prize_each: bool = True,
) -> Distribution:
    """Main prizes over `order`, then each group's prizes over its members (in standings order).

    `groups`: (prizes, the players in the group). With `one_prize_each`, a player with prizes in
    several categories keeps the one of highest cash (the earliest category when equal) and leaves the
    others, whose prizes are then divided again without him; repeated until nobody holds two.
    """
    categories: list[tuple[Sequence[Prize], set[int]]] = [(main, {p.player for p in order})]
    categories += [(prizes, set(members)) for prizes, members in groups]
    excluded: dict[int, set[int]] = {c: set() for c in range(len(categories))}
    while True:
        awards: list[Award] = []
        for c, (prizes, members) in enumerate(categories):
            eligible = [p for p in order if p.player in members and p.player not in excluded[c]]
            awards += split(eligible, prizes, sharing, c)
        if not one_prize_each:
            break
        held: dict[int, list[Award]] = {}
        for award in awards:
            held.setdefault(award.player, []).append(award)
        conflicts = {player: found for player, found in held.items() if len(found) > 1}
        if not conflicts:
            break
        for player, found in conflicts.items():
            keep = max(found, key=lambda a: (a.amount, -a.category))
            for award in found:
                if award is not keep:
                    excluded[award.category].add(player)
    return Distribution(awards, {c: s for c, s in excluded.items() if s})
