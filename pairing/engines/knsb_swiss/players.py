"""The players as the KNSB procedure sees them: seed 000/002 A (A2 order, A4 floats, A7 colour
preferences, A8 colour counts), B1's bye rule and the two editions' differences (`Rules`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import colours
from ..colours import ColourState, Float, colour_state
from ..state import Colour, Kind, Player, RoundRecord, TournamentState

# Seed 000 A2 C: GM-WGM-IM-WIM-FM-WFM-untitled.
TITLES_000: tuple[str, ...] = ("GM", "WGM", "IM", "WIM", "FM", "WFM")


# Seed 002 A2 C: GM-IM-WGM-FM-WIM-CM-WFM-WCM-untitled.
TITLES_002: tuple[str, ...] = ("GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM")


ABSOLUTE, STRONG, MILD, NONE = 3, 2, 1, 0


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
    met: frozenset[int]  # B1: opponents over the board (F2: forfeits are no meeting), and pairs the TD forbids
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
                met=frozenset(state.cannot_meet(p)),
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


def _fits(cs: ColourState, colour: Colour) -> bool:
    """B2: after this game the colour difference stays within +-2 and no colour three times running."""
    diff = cs.difference + (1 if colour is Colour.WHITE else -1)
    return abs(diff) <= 2 and cs.repeated is not colour


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
