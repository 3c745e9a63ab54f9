"""Dubov system, 1997 edition (seed 004 §4.9.6; seeds README item 5).

- R is the rating, ARO the average rating of the opponents met over the board,
  recomputed after every round (1); `aro_list` gives the list to publish (9).
- Due colour (1, README item 5): white with more blacks than whites, or as
  many and black last; black with more whites, or as many and white last.
- Restrictions (2): no second meeting (2.1); no bye for a player who has won
  without playing (2.2); colour difference within +-2 (2.3); never the same
  colour three times running (2.4); except in the last round nobody moves up
  to a higher score group more than twice running, or more than 3 times in
  all (under 10 rounds) or 4 (10 rounds or more) (2.5); a player moves between
  the colour subgroups only if 2.3 and 2.4 allow it (2.6).
- Colours (3): both due colours; then equalise whites and blacks; then the
  opposite of the first difference counted back from the last round; then
  white to the higher ARO; then white to the lower R.
- Bye (4): the lowest R in the lowest score group; with equal lowest R in
  both colour subgroups the one due the group's dominant colour; equal R:
  the higher ARO.
- Round 1 (5): rating order, upper half v lower half; the first board's
  colour by lot (`top_colour_round1`, drawn by the caller), odd boards alike,
  even boards the other way; an odd last player has the bye.
- Later rounds (6): score groups from the top; white-due players by rising
  ARO (equal: lower R first, then name) meet black-due players by falling R
  (equal: higher ARO first, then name) row by row (6.2); a pair that has met
  is mended by taking the first black from a lower row, re-opening earlier
  rows when needed, and as a last resort pairing two white-due players (6.3);
  players left over float down (6.4).
- Moves (7): a player who has met everybody in his group gets an opponent
  moved up from the next group (7.1); an odd group gets a player moved up
  from the next group (7.2); unequal colour subgroups are balanced by moving
  the lowest-ARO whites to black (7.3) or the highest-ARO blacks to white
  (7.4).
- Floaters (8) are paired first in the group they come down to, whites by
  rising ARO and blacks by falling R alternately, each with the highest-R
  player there, preferably of the opposite due colour (then the lowest ARO).

Every choice is also checked to leave the remaining players pairable (9:
"the arbiter resolves it in the spirit of the rules"); such a check that
changes a choice is reported in the explanation.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import setting_checks as checks
from .colours import unplayed_points_win
from .danish import first_matching, has_perfect_matching, points
from .matching import first_rows, has_bipartite_matching
from .notes import Note, note_text
from .registry import PairingSystem
from .state import Board, Bye, Colour, Kind, NoValidPairing, Pairing, Player, TournamentState

W, B = Colour.WHITE, Colour.BLACK

# The explanation (the sections of §4.9.6 in brackets).
_NO_BYE = note_text("dubov.no_bye", "Dubov: nobody can have the bye (2.2) and leave the others pairable.")
_NO_FLOATERS = note_text("dubov.no_floaters", "Dubov: the last floaters cannot be paired.")
_NO_GROUP = note_text("dubov.no_group", "Dubov: a score group cannot be paired.")
_NO_PAIRING = note_text("dubov.no_pairing", "Dubov: no pairing satisfies restriction 2.1.")
_NO_PAIRING_COLOURS = note_text(
    "dubov.no_pairing_colours", "Dubov: no pairing satisfies restrictions 2.1, 2.3 and 2.4."
)
_ROUND_ONE_FORBIDDEN = note_text(
    "dubov.round_one_forbidden",
    "Pairs the TD forbids are avoided: each upper-half player takes the first lower-half player he may meet.",
)
_ROUND_ONE = note_text("dubov.round_one", "Dubov round 1 (5): rating order, upper half against lower half.")
_ROUND_ONE_BYE = note_text("dubov.round_one_bye", "%(player)s is last in an odd field: the bye (5).")
_ROUND_ONE_LOT = note_text("dubov.round_one_lot", "Board 1 colours by lot: the higher rated has %(colour)s.")
_WHITE = note_text("dubov.white", "white")
_BLACK = note_text("dubov.black", "black")
_ROUND = note_text("dubov.round", "Dubov round %(round)s: ARO after round %(played)s (1, 9).")
_RELAXED = note_text("dubov.relaxed", "No pairing keeps restrictions 2.3 and 2.4: they are relaxed this round (9).")
_BYE = note_text("dubov.bye", "%(player)s has the bye: lowest R in the lowest score group (4).")
_BOARD = note_text("dubov.board", "Board %(white)s-%(black)s: %(rule)s; colours by %(colours)s.")
_GROUP = note_text("dubov.group", "Score group %(score)s: white %(whites)s; black %(blacks)s (6.2).")
_NOBODY = note_text("dubov.nobody", "-")
_FLOATS_ON = note_text("dubov.floats_on", "8: floater %(player)s has no opponent in the group; he floats on (6.4).")
_FLOATER_TAKES = note_text(
    "dubov.floater_takes", "8: floater %(player)s takes %(chosen)s, not %(first)s, so the rest can be paired (9)."
)
_MOVED_UP = note_text("dubov.moved_up", "%(rule)s: %(player)s moved up from the next score group.")
_TO_BLACK = note_text("dubov.to_black", "7.3: %(player)s (lowest ARO) moved from the white to the black subgroup.")
_TO_WHITE = note_text("dubov.to_white", "7.4: %(player)s (highest ARO) moved from the black to the white subgroup.")
_FLOAT_DOWN = note_text("dubov.float_down", "6.4: %(players)s float(s) down.")
_ACROSS = note_text(
    "dubov.across", "6.3: the colour subgroups cannot be paired row by row; players of one subgroup meet."
)
# Why a pair (6-8) and why its colours (2.3/2.4, 3).
_ROW = note_text("dubov.row", "6.2")
_LOWER_ROW = note_text("dubov.lower_row", "6.3: black from a lower row")
_COLUMN = note_text("dubov.column", "6.3: opponent from the column")
_FLOATERS_MEET = note_text("dubov.floaters_meet", "8: floaters left at the bottom meet")
_FLOATER_PAIR = note_text("dubov.floater_pair", "8: floater v the highest R")
_FLOATER_OPPOSITE = note_text("dubov.floater_opposite", "8: floater v the highest R of the opposite due colour")
_LIMITS = note_text("dubov.limits", "2.3/2.4")
_BOTH_DUE = note_text("dubov.both_due", "3: both due colours")
_EQUALISE = note_text("dubov.equalise", "3: equalise colours")
_FIRST_DIFFERENCE = note_text("dubov.first_difference", "3: first difference")
_HIGHER_ARO = note_text("dubov.higher_aro", "3: higher ARO")
_LOWER_R = note_text("dubov.lower_r", "3: lower R")


def aro(state: TournamentState, player: Player, rounds: int | None = None) -> float:
    """Average rating of the opponents met over the board (1); 0 before the first game."""
    records = player.history if rounds is None else player.history[:rounds]
    ratings = [state.player(r.opponent).rating for r in records if r.played and r.opponent]
    return sum(ratings) / len(ratings) if ratings else 0.0


def aro_list(state: TournamentState) -> list[tuple[int, str, float, int, float]]:
    """The list to publish after each round (9): (start number, name, points, R, ARO), by points then R."""
    rows = [(p.id, p.name, points(p), p.rating, round(aro(state, p), 1)) for p in state.players]
    return sorted(rows, key=lambda row: (-row[2], -row[3], row[0]))


def due_colour(colours: list[Colour]) -> Colour | None:
    """The colour a player is due (1, README item 5); None before his first game."""
    if not colours:
        return None
    whites, blacks = colours.count(W), colours.count(B)
    if whites != blacks:
        return W if blacks > whites else B
    return colours[-1].opposite


def colour_allowed(colours: list[Colour], colour: Colour) -> bool:
    """2.3 colour difference within +-2 and 2.4 not three times the same colour running."""
    diff = colours.count(W) - colours.count(B) + (1 if colour is W else -1)
    if abs(diff) > 2:
        return False
    return not (len(colours) >= 2 and colours[-1] == colours[-2] == colour)


def allocate(ctx: _Ctx, p: int, q: int) -> tuple[int, int, Note]:
    """(white, black, rule) by section 3, within what 2.3 and 2.4 allow."""
    cp, cq = ctx.colours[p], ctx.colours[q]
    options = [(a, b) for a, b in ((p, q), (q, p)) if colour_allowed(ctx.colours[a], W)
               and colour_allowed(ctx.colours[b], B)]  # fmt: skip
    if len(options) == 1:
        return (*options[0], _LIMITS())
    dp, dq = ctx.due[p], ctx.due[q]
    if dp and dq and dp != dq:
        return (p, q, _BOTH_DUE()) if dp is W else (q, p, _BOTH_DUE())
    balance_p, balance_q = cp.count(B) - cp.count(W), cq.count(B) - cq.count(W)
    if balance_p != balance_q:
        return (p, q, _EQUALISE()) if balance_p > balance_q else (q, p, _EQUALISE())
    for cp_i, cq_i in zip(reversed(cp), reversed(cq), strict=False):
        if cp_i != cq_i:
            return (q, p, _FIRST_DIFFERENCE()) if cp_i is W else (p, q, _FIRST_DIFFERENCE())
    if ctx.aro[p] != ctx.aro[q]:
        return (p, q, _HIGHER_ARO()) if ctx.aro[p] > ctx.aro[q] else (q, p, _HIGHER_ARO())
    rp, rq = ctx.rating[p], ctx.rating[q]
    return (p, q, _LOWER_R()) if (rp, -p) < (rq, -q) else (q, p, _LOWER_R())


@dataclass
class _Ctx:
    state: TournamentState
    score: dict[int, float]
    rating: dict[int, int]
    aro: dict[int, float]
    colours: dict[int, list[Colour]]
    due: dict[int, Colour | None]
    met: dict[int, set[int]]
    upfloats: dict[int, list[bool]]
    floated_down: dict[int, bool]  # floated down in the previous round (6.4)
    last_round: bool
    upfloat_limits: bool = True
    colour_limits: bool = True  # 2.3 and 2.4 absolute (relaxed only when no pairing keeps them)
    notes: list[Note] = field(default_factory=list)

    def legal(self, p: int, q: int) -> bool:
        """2.1, and a colour assignment that 2.3 and 2.4 allow."""
        if q in self.met[p]:
            return False
        if not self.colour_limits:
            return True
        cp, cq = self.colours[p], self.colours[q]
        white_first = colour_allowed(cp, W) and colour_allowed(cq, B)
        return white_first or (colour_allowed(cp, B) and colour_allowed(cq, W))

    def may_move_up(self, p: int) -> bool:
        """2.5: except in the last round, not more than twice running nor 3 (4) times in all."""
        if self.last_round or not self.upfloat_limits:
            return True
        history = self.upfloats[p]
        limit = 4 if self.state.total_rounds > 9 else 3
        return sum(history) < limit and not (len(history) >= 2 and history[-1] and history[-2])

    def name(self, p: int) -> str:
        return self.state.player(p).name or str(p)


def _float_history(state: TournamentState, player: Player) -> list[int]:
    """Per round: +1 when the opponent had more points before it (moved up, 2.5), -1 when fewer
    (floated down, 6.4), else 0."""
    flags = []
    for rnd, record in enumerate(player.history):
        if record.played and record.opponent:
            own, other = points(player, rnd), points(state.player(record.opponent), rnd)
            flags.append((other > own) - (other < own))
        else:
            flags.append(0)
    return flags


def _context(state: TournamentState, upfloat_limits: bool = True) -> _Ctx:
    players = state.players
    colours = {p.id: p.colours() for p in players}
    return _Ctx(
        state=state,
        score={p.id: points(p) for p in players},
        rating={p.id: p.rating for p in players},
        aro={p.id: aro(state, p) for p in players},
        colours=colours,
        due={pid: due_colour(c) for pid, c in colours.items()},
        met={p.id: state.cannot_meet(p) for p in players},
        upfloats={p.id: [f == 1 for f in _float_history(state, p)] for p in players},
        floated_down={p.id: bool(_float_history(state, p)[-1:] == [-1]) for p in players},
        last_round=state.round_to_pair >= state.total_rounds,
        upfloat_limits=upfloat_limits,
    )


def _white_key(ctx: _Ctx, p: int) -> tuple:
    return (ctx.aro[p], ctx.rating[p], ctx.name(p), p)  # 6.2: rising ARO, then lower R, then name


def _black_key(ctx: _Ctx, p: int) -> tuple:
    return (-ctx.rating[p], -ctx.aro[p], ctx.name(p), p)  # 6.2: falling R, then higher ARO, then name


def _won_without_playing(player: Player) -> bool:
    """2.2: a game won without playing (forfeit win, bye, full-point bye)."""
    return any(unplayed_points_win(r) for r in player.history)


def _choose_bye(ctx: _Ctx, present: list[int]) -> int:
    """Section 4, from the lowest score group up, skipping 2.2 and players whose bye leaves no pairing."""
    for score in sorted({ctx.score[p] for p in present}):
        group = [p for p in present if ctx.score[p] == score]
        dues = [ctx.due[p] for p in group if ctx.due[p]]
        dominant = max((W, B), key=dues.count) if dues else None

        def key(p: int, dominant: Colour | None = dominant) -> tuple:
            return (ctx.rating[p], ctx.due[p] != dominant, -ctx.aro[p], -p)

        for cand in sorted(group, key=key):
            if _won_without_playing(ctx.state.player(cand)):
                continue
            if has_perfect_matching([p for p in present if p != cand], ctx.legal):
                return cand
    raise NoValidPairing(_NO_BYE())


def _round_one(state: TournamentState, present: list[Player]) -> Pairing:
    """Section 5."""
    order = sorted(present, key=lambda p: (-p.rating, p.id))
    byes: list[Bye] = []
    explanation = [_ROUND_ONE()]
    if len(order) % 2:
        byes.append(Bye(order[-1].id, Kind.PAIRING_BYE))
        explanation.append(_ROUND_ONE_BYE(player=order[-1].id))
        order = order[:-1]
    half = len(order) // 2
    tops, bottoms = [p.id for p in order[:half]], [p.id for p in order[half:]]
    barred = {pid: state.barred(pid) for pid in tops}
    if any(barred.values()):
        # Pairs the TD forbids count as games already played (2.1): each upper-half player in turn takes
        # the first lower-half player he may meet that leaves the others a complete pairing.
        rows = first_rows(tops, bottoms, lambda a, b: b not in barred[a])
        if rows is None:
            raise NoValidPairing(_NO_PAIRING())
        if rows != bottoms:
            explanation.append(_ROUND_ONE_FORBIDDEN())
        bottoms = rows
    boards = []
    for i in range(half):
        top, bottom = tops[i], bottoms[i]
        top_white = (state.top_colour_round1 is W) == (i % 2 == 0)
        boards.append(Board(top, bottom) if top_white else Board(bottom, top))
    explanation.append(_ROUND_ONE_LOT(colour=_WHITE() if state.top_colour_round1 is W else _BLACK()))
    return Pairing(boards=boards, byes=byes, explanation=explanation)


class _Rounds:
    """Pairs the score groups of one round from the top (sections 6-8)."""

    def __init__(self, ctx: _Ctx, players: list[int]) -> None:
        self.ctx = ctx
        self.left = list(players)
        self.pairs: list[tuple[int, int, Note]] = []

    def completable(self, without: set[int]) -> bool:
        return has_perfect_matching([p for p in self.left if p not in without], self.ctx.legal)

    def take(self, p: int, q: int, rule: Note) -> None:
        self.pairs.append((p, q, rule))
        self.left = [x for x in self.left if x not in (p, q)]

    def groups(self) -> list[list[int]]:
        scores = sorted({self.ctx.score[p] for p in self.left}, reverse=True)
        return [[p for p in self.left if self.ctx.score[p] == s] for s in scores]

    def run(self) -> None:
        floaters: list[int] = []
        while self.left:
            rest = [p for p in self.left if p not in floaters]
            if not rest:  # floaters that found nobody below meet each other
                pairs = first_matching(floaters, self.ctx.legal)
                if pairs is None:
                    raise NoValidPairing(_NO_FLOATERS())
                for p, q in pairs:
                    self.take(p, q, _FLOATERS_MEET())
                return
            scores = sorted({self.ctx.score[p] for p in rest}, reverse=True)
            group = [p for p in rest if self.ctx.score[p] == scores[0]]
            lower = [p for p in rest if len(scores) > 1 and self.ctx.score[p] == scores[1]]
            if floaters:
                floaters = self.pair_floaters(floaters, group)
                group = [p for p in group if p in self.left]
                if not group:
                    continue
            floaters = floaters + self.pair_group(group, lower)

    def pair_floaters(self, floaters: list[int], group: list[int]) -> list[int]:
        """Section 8: whites (rising ARO) and blacks (falling R) alternately, from the highest white."""
        ctx = self.ctx
        whites = sorted((f for f in floaters if ctx.due[f] is not B), key=lambda p: _white_key(ctx, p))
        blacks = sorted((f for f in floaters if ctx.due[f] is B), key=lambda p: _black_key(ctx, p))
        order: list[int] = []
        while whites or blacks:
            if whites:
                order.append(whites.pop(0))
            if blacks:
                order.append(blacks.pop(0))
        still: list[int] = []
        for f in order:
            if f not in self.left:
                continue
            candidates = [p for p in group if p in self.left and ctx.legal(f, p)]
            candidates.sort(key=lambda p: (ctx.due[p] == ctx.due[f], -ctx.rating[p], ctx.aro[p], p))
            chosen = next((p for p in candidates if self.completable({f, p})), None)
            if chosen is None:
                still.append(f)
                ctx.notes.append(_FLOATS_ON(player=f))
                continue
            if chosen != candidates[0]:
                ctx.notes.append(_FLOATER_TAKES(player=f, chosen=chosen, first=candidates[0]))
            self.take(f, chosen, _FLOATER_OPPOSITE() if ctx.due[chosen] != ctx.due[f] else _FLOATER_PAIR())
        return still

    def move_up(self, lower: list[int], rule: str, want: Colour | None, need: Callable[[int], bool]) -> int | None:
        """7.1 / 7.2: the player to move up: opposite colour, highest R, lowest ARO."""
        ctx = self.ctx
        cands = [q for q in lower if ctx.may_move_up(q) and need(q)]
        cands.sort(key=lambda q: (ctx.due[q] != want, -ctx.rating[q], ctx.aro[q], q))
        if not cands:
            return None
        ctx.notes.append(_MOVED_UP(rule=rule, player=cands[0]))
        return cands[0]

    def pair_group(self, group: list[int], lower: list[int]) -> list[int]:
        """Sections 6 and 7 for one score group; returns the players who float down (6.4)."""
        ctx = self.ctx
        group = list(group)
        label = f"{ctx.score[group[0]]:g}"
        # 7.1: somebody has met everybody else in the group.
        while lower:
            stuck = [p for p in group if not any(ctx.legal(p, q) for q in group if q != p)]
            if not stuck:
                break
            cur = stuck[0]
            want = ctx.due[cur].opposite if ctx.due[cur] else None
            q = self.move_up(lower, "7.1", want, lambda q, cur=cur: ctx.legal(cur, q))
            if q is None:
                break
            group.append(q)
            lower = [p for p in lower if p != q]
        # 7.2: an odd group.
        if len(group) % 2 and lower:
            dues = [ctx.due[p] for p in group if ctx.due[p]]
            dominant = max((W, B), key=dues.count) if dues else None
            want = dominant.opposite if dominant else None
            q = self.move_up(lower, "7.2", want, lambda q: any(ctx.legal(q, p) for p in group))
            if q is not None:
                group.append(q)
        whites = [p for p in group if ctx.due[p] is W]
        blacks = [p for p in group if ctx.due[p] is B]
        for p in group:  # no games yet: to the smaller subgroup
            if ctx.due[p] is None:
                (whites if len(whites) <= len(blacks) else blacks).append(p)
        if len(group) % 2 == 0:
            self.balance(whites, blacks)
        whites.sort(key=lambda p: _white_key(ctx, p))
        blacks.sort(key=lambda p: _black_key(ctx, p))
        ctx.notes.append(_GROUP(score=label, whites=whites or _NOBODY(), blacks=blacks or _NOBODY()))
        floaters = self.choose_floaters(whites + blacks, whites, blacks)
        whites = [p for p in whites if p not in floaters]
        blacks = [p for p in blacks if p not in floaters]
        pairs = self.rows(whites, blacks)
        for p, q, rule in pairs:
            self.take(p, q, rule)
        return floaters

    def balance(self, whites: list[int], blacks: list[int]) -> None:
        """7.3 / 7.4, moving only players whom 2.3 and 2.4 allow the other colour (2.6)."""
        ctx = self.ctx
        n = (len(whites) - len(blacks)) // 2
        if n > 0:
            movable = [p for p in whites if colour_allowed(ctx.colours[p], B)]
            movable.sort(key=lambda p: (ctx.aro[p], -ctx.rating[p], ctx.name(p), p))
            for p in movable[:n]:
                whites.remove(p)
                blacks.append(p)
                ctx.notes.append(_TO_BLACK(player=p))
        elif n < 0:
            movable = [p for p in blacks if colour_allowed(ctx.colours[p], W)]
            movable.sort(key=lambda p: (-ctx.aro[p], ctx.rating[p], ctx.name(p), p))
            for p in movable[:-n]:
                blacks.remove(p)
                whites.append(p)
                ctx.notes.append(_TO_WHITE(player=p))

    def choose_floaters(self, group: list[int], whites: list[int], blacks: list[int]) -> list[int]:
        """6.4: the fewest players who cannot be paired here, chosen by the four priorities."""
        ctx = self.ctx
        if has_perfect_matching(group, ctx.legal) and self.completable(set(group)):
            return []
        others = [p for p in self.left if p not in group]

        def priority(p: int) -> tuple:
            pairable_below = any(ctx.legal(p, q) for q in others)
            return (ctx.floated_down[p], not pairable_below, ctx.rating[p], p)

        ranked = sorted(group, key=priority)
        for size in range(1, len(group) + 1):
            if (len(group) - size) % 2:
                continue
            for combo in itertools.combinations(ranked, size):
                rest = [p for p in group if p not in combo]
                if has_perfect_matching(rest, ctx.legal) and self.completable(set(rest)):
                    ctx.notes.append(_FLOAT_DOWN(players=sorted(combo)))
                    return list(combo)
        return list(group)

    def rows(self, whites: list[int], blacks: list[int]) -> list[tuple[int, int, Note]]:
        """6.2 rows, mended by 6.3."""
        ctx = self.ctx
        if len(whites) == len(blacks) and has_bipartite_matching(whites, blacks, ctx.legal):
            order = self.black_order(whites, blacks)
            out = []
            for row, (w, b) in enumerate(zip(whites, order, strict=True)):
                rule = _ROW() if b == blacks[row] else _LOWER_ROW()
                out.append((w, b, rule))
            return out
        pairs = first_matching(whites + blacks, ctx.legal)
        if pairs is None:
            raise NoValidPairing(_NO_GROUP())
        ctx.notes.append(_ACROSS())
        return [(p, q, _COLUMN()) for p, q in pairs]

    def black_order(self, whites: list[int], blacks: list[int]) -> list[int]:
        """Row K takes black K or the first lower black he has not met; earlier rows re-open (6.3)."""
        ctx = self.ctx
        result: list[int] = []
        left = list(blacks)
        for i, w in enumerate(whites):
            for b in left:
                if not ctx.legal(w, b):
                    continue
                rest = [x for x in left if x != b]
                if has_bipartite_matching(whites[i + 1 :], rest, ctx.legal):
                    result.append(b)
                    left = rest
                    break
        return result


def pair(state: TournamentState) -> Pairing:
    settings = SYSTEM.settings(state.settings)
    present = sorted(state.to_pair(), key=lambda p: p.id)
    if state.round_to_pair == 1 or all(not p.history for p in present):
        result = _round_one(state, present)
    else:
        result = _later_round(state, present, settings)
    for pid, kind in sorted(state.requested_byes.items()):
        if not state.player(pid).withdrawn:
            result.byes.append(Bye(pid, kind))
    return result


def _pairable(ctx: _Ctx, ids: list[int]) -> bool:
    if len(ids) % 2 == 0:
        return has_perfect_matching(ids, ctx.legal)
    try:
        _choose_bye(ctx, ids)
    except NoValidPairing:
        return False
    return True


def _later_round(state: TournamentState, present: list[Player], settings: dict[str, Any]) -> Pairing:
    ctx = _context(state, settings["upfloat_limits"])
    ids = [p.id for p in present]
    explanation = [_ROUND(round=state.round_to_pair, played=state.rounds_played)]
    byes: list[Bye] = []
    if settings["relax_colour_limits"] and not _pairable(ctx, ids):
        ctx.colour_limits = False
        explanation.append(_RELAXED())
    if len(ids) % 2:
        bye = _choose_bye(ctx, ids)
        byes.append(Bye(bye, Kind.PAIRING_BYE))
        explanation.append(_BYE(player=bye))
        ids.remove(bye)
    if not has_perfect_matching(ids, ctx.legal):
        raise NoValidPairing(_NO_PAIRING_COLOURS() if ctx.colour_limits else _NO_PAIRING())
    rounds = _Rounds(ctx, sorted(ids, key=lambda p: (-ctx.score[p], -ctx.rating[p], p)))
    rounds.run()
    explanation += ctx.notes
    rank = {p: (-ctx.score[p], -ctx.rating[p], p) for p in ids}
    boards = []
    for p, q, rule in sorted(rounds.pairs, key=lambda t: min(rank[t[0]], rank[t[1]])):
        white, black, colour_rule = allocate(ctx, p, q)
        boards.append(Board(white, black))
        explanation.append(_BOARD(white=white, black=black, rule=rule, colours=colour_rule))
    return Pairing(boards=boards, byes=byes, explanation=explanation)


def _validate(settings: dict[str, Any]) -> None:
    checks.booleans(settings, ["upfloat_limits", "relax_colour_limits"])


SYSTEM = PairingSystem(
    id="dubov-1997",
    name="Dubov (FIDE 1997)",
    pair=pair,
    forbidden_pairs=True,
    defaults={"upfloat_limits": True, "relax_colour_limits": True},
    validate=_validate,
    aro_list=True,
)
