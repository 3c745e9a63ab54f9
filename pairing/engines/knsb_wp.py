"""KNSB "Reglement Zwitsers op weerstandspunten", November 1996 (seed 001).

- A1: WP (Buchholz) and SB (Sonneborn-Berger) over WS, the score with every unplayed round (1R,
  0R, bye, not paired, 0-0) counted as a draw against oneself (A1d, F3): such a round adds the
  player's own WS to his WP and half of it to his SB.
- A4: order in a score group: points, WP, SB, lot number (lower number ranks higher; the start
  number is the lot number).
- A3/C1-C9: players who cannot be paired in their group go through the waiting room ("wachtkamer")
  to the next group. C3: the waiting room holds 0 or 1 (the group's parity), then 2 more at a time;
  C4 chooses who, by (1) fewest points, (2) fewest who would have to wait again, (3) the smallest
  waiting room in the next group (exact, by a maximum matching), (4) most colour preferences met in
  this group, (5) the higher placed players; C5: from the top, each player meets the lowest placed
  opponent B1/B2 allow (README item 9), C6 undoes the last pair when the rest cannot be paired.
- C2 (a player from the waiting room without an opponent: first see whether the group above can be
  paired otherwise) and C9 (the lowest group cannot be paired: the group above takes its next
  waiting room, or a larger one, and when its whole group waits, one more group back): the
  score-group driver `knsb_swiss.rounds`, shared with seeds 000 and 002.
- D: round 1 pairs 1-D, 2-(D-1), ... (setting `round1`: "fold", the number of players known) or
  1-2, 3-4, ... ("adjacent"); D is the number of players, plus one when odd, and the player meeting
  D has the bye; the first named has white (README item 9).
- E1-E4 colours; F1 bye; F2 order of the boards.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import rustworkx as rx

from . import colours, setting_checks
from .knsb_swiss import (
    Candidate,
    Context,
    Entrant,
    Lookahead,
    Rules,
    absence,
    absolute_ok,
    check_state,
    entrants,
    pair_text,
    record_points,
)
from .matching import first_rows
from .notes import Note, note_text
from .registry import PairingSystem
from .state import Board, Bye, Colour, InvalidInput, Kind, NoValidPairing, Pairing, Player, TournamentState

# Seed 001 has no titles in its order; B2 does not hold for topscorers in the last round (as seed 000).
RULES_001 = Rules("001", (), colours.Edition.FIDE_2017)

# The explanation: round 1 (D), each group's waiting room (C3-C6), the checksums (F8), the bye (F1).
_ENLARGED = note_text("knsb_wp.enlarged", "C3/C7: waiting room enlarged to %(size)s")
_WAITING_ROOM = note_text("knsb_wp.waiting_room", "C4: waiting room %(players)s")
_C5 = note_text("knsb_wp.c5", "C5/C6: %(pairs)s pairs, each highest against the lowest possible")
_F8 = note_text(
    "knsb_wp.f8", "F8 after round %(round)s: points %(points)s, WS %(ws)s = ½·D·R, WP %(wp)s = ½·D·R·R (D = %(d)s)"
)
_D1 = note_text("knsb_wp.d1", "D1: 1 against D, 2 against D-1, ...")
_D2 = note_text("knsb_wp.d2", "D2: 1 against 2, 3 against 4, ...")
_D_BYE = note_text("knsb_wp.d_bye", "bye: %(player)s (D: paired with the extra number D)")
_D_BOARD = note_text("knsb_wp.d_board", "board %(board)s: %(white)s-%(black)s (D: the first named has white)")
_D_FORBIDDEN = note_text(
    "knsb_wp.d_forbidden",
    "D: pairs the TD forbids are avoided: each first-named player takes the first later number he may meet",
)
_D_NONE = note_text("knsb_wp.d_none", "D: no pairing of round 1 avoids the pairs the TD forbids")
_BYE = note_text("knsb_wp.bye", "F1: left in the waiting room; no earlier point without playing")


@dataclass(frozen=True)
class Standing:
    """Seed 001 A1: score, WS (score for WP and SB), WP and SB of one player."""

    score: float
    ws: float
    wp: float
    sb: float


def wp_sb(own_ws: float, rounds: Sequence[tuple[float | None, float]]) -> tuple[float, float]:
    """Seed 001 A1a/A1b/A1d: WP and SB from (opponent's WS or None when unplayed, own points) per
    round. An unplayed round is a draw against oneself: it adds the own WS to WP, half to SB."""
    wp = sb = 0.0
    for opp_ws, points in rounds:
        if opp_ws is None:
            wp += own_ws
            sb += 0.5 * own_ws
        else:
            wp += opp_ws
            sb += opp_ws * points
    return wp, sb


def standings(players: Sequence[Player], rounds: int) -> dict[int, Standing]:
    """Seed 001 A1 and F3 over the first `rounds` rounds (a round missing from a history: not paired)."""
    score: dict[int, float] = {}
    ws: dict[int, float] = {}
    for p in players:
        recs = p.history[:rounds]
        score[p.id] = sum(record_points(r) for r in recs)
        # F3: forfeits, byes, rounds not paired and 0-0 count as a draw against oneself.
        ws[p.id] = sum(record_points(r) if r.played else 0.5 for r in recs) + 0.5 * (rounds - len(recs))
    out = {}
    for p in players:
        recs = p.history[:rounds]
        per_round: list[tuple[float | None, float]] = [
            (ws[r.opponent], record_points(r)) if r.played and r.opponent in ws else (None, 0.0) for r in recs
        ]
        per_round += [(None, 0.0)] * (rounds - len(recs))
        wp, sb = wp_sb(ws[p.id], per_round)
        out[p.id] = Standing(score[p.id], ws[p.id], wp, sb)
    return out


def _entrants(state: TournamentState) -> list[Entrant]:
    table = standings(state.players, state.rounds_played)
    out = entrants(state, RULES_001)
    for e in out:
        st = table[e.id]
        e.key = (-st.score, -st.wp, -st.sb, e.id)  # A4 a-d
    out.sort(key=lambda e: e.key)
    return out


def _first_path(left: list[Entrant]) -> list[tuple[Entrant, Entrant]]:
    """C5 without undoing anything: from the top, each player with the lowest placed one he may
    meet; stops at the first player left without an opponent."""
    used = [False] * len(left)
    pairs = []
    for i, a in enumerate(left):
        if used[i]:
            continue
        used[i] = True
        j = next((j for j in range(len(left) - 1, i, -1) if not used[j] and absolute_ok(a, left[j], RULES_001)), None)
        if j is None:
            break
        used[j] = True
        pairs.append((a, left[j]))
    return pairs


def _c5_pairing(players: list[Entrant], look: Lookahead) -> list[tuple[Entrant, Entrant]] | None:
    """Seed 001 C5/C6: the highest remaining player meets the lowest placed opponent allowed by B;
    when the rest cannot be paired, the last pair is undone and the next opponent tried.

    The same answer as that depth-first walk, found directly: the walk follows `_first_path` as
    long as the players left can still all be paired (an exact matching test; once they cannot,
    they cannot after more pairs either, so the point is found by bisection). There the highest
    player takes the next opponent after which the rest can be paired, and the walk goes on."""
    if len(players) % 2 or not look.even(players):
        return None
    out: list[tuple[Entrant, Entrant]] = []
    left = players
    while left:
        path = _first_path(left)
        if 2 * len(path) == len(left):
            return out + path

        def rest_after(k: int, left: list[Entrant] = left, path: list = path) -> list[Entrant]:
            gone = {id(e) for pair in path[:k] for e in pair}
            return [e for e in left if id(e) not in gone]

        lo, hi = 0, len(path)  # rest after lo pairs can be paired; after hi pairs it cannot
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if look.even(rest_after(mid)):
                lo = mid
            else:
                hi = mid
        out += path[:lo]
        left = rest_after(lo)
        a = left[0]
        tried = path[lo][1] if lo < len(path) else None
        past = tried is None
        for b in reversed(left[1:]):
            if not past:
                past = b is tried
                continue
            if not absolute_ok(a, b, RULES_001):
                continue
            rest = [e for e in left[1:] if e is not b]
            if look.even(rest):
                out.append((a, b))
                left = rest
                break
        else:
            return None  # cannot happen: `left` could be paired
    return out


def _colour_hits(pairs: list[tuple[Entrant, Entrant]]) -> int:
    """C4.4: players of the group who get their preferred colour (E1: both, else one)."""
    hits = 0
    for a, b in pairs:
        if a.pref is None or b.pref is None or a.pref is not b.pref:
            hits += 2
        else:
            hits += 1
    return hits


def _hits_bound(group: list[Entrant], room: tuple[int, ...]) -> int:
    """An upper bound of C4.4's count when `room` waits: players preferring the same colour
    beyond those who can be paired with others must meet each other (one of each pair misses)."""
    left = set(room)
    white = sum(1 for i, e in enumerate(group) if i not in left and e.pref is Colour.WHITE)
    black = sum(1 for i, e in enumerate(group) if i not in left and e.pref is Colour.BLACK)
    n = len(group) - len(room)
    misses = max(0, (2 * white - n + 1) // 2) + max(0, (2 * black - n + 1) // 2)
    return n - misses


def next_room_size(pool: Sequence[Entrant]) -> int:
    """C3 for the next group: its waiting room starts at its parity and grows by 2 while the players
    left cannot all be paired under B (B1/B2). The smallest size that works is the number of players
    a maximum matching under B1/B2 leaves unpaired (C2's players without an opponent among them)."""
    free = list(pool)
    while free:  # a greedy pass first: when it leaves only the parity over, that is the minimum
        a = free.pop(0)
        partner = next((b for b in free if absolute_ok(a, b, RULES_001)), None)
        if partner is None:
            break
        free.remove(partner)
    else:
        return 0
    if len(pool) % 2 and len(free) == 0:
        return 1
    g: rx.PyGraph = rx.PyGraph()
    g.add_nodes_from(range(len(pool)))
    for i, a in enumerate(pool):
        for j in range(i + 1, len(pool)):
            if absolute_ok(a, pool[j], RULES_001):
                g.add_edge(i, j, 1)
    return len(pool) - 2 * len(rx.max_weight_matching(g, max_cardinality=True, weight_fn=lambda w: w))


def _rooms(group: list[Entrant], size: int, nxt: list[Entrant], last: bool) -> Iterator[list[tuple]]:
    """C4 1-3: the waiting rooms of `size`, in tiers of equal priority (1: fewest points, 2: fewest
    who must wait again in the next group, 3: the smallest waiting room there, by C3 exactly). The
    size of (3) is computed only for rooms that tie on (1) and (2) with the rooms being offered."""
    keyed = []
    for room in combinations(range(len(group)), size):
        members = [group[i] for i in room]
        if last and not all(e.bye_ok for e in members):
            continue  # F1: the one left in the lowest group gets the bye
        k1 = tuple(sorted((e.score for e in members), reverse=True))
        pool = [*nxt, *members]
        again = sum(1 for e in members if not any(o is not e and absolute_ok(e, o, RULES_001) for o in pool))
        keyed.append(((k1, again), room))
    keyed.sort(key=lambda t: t[0])
    start = 0
    while start < len(keyed):
        end = start
        while end < len(keyed) and keyed[end][0] == keyed[start][0]:
            end += 1
        block = [
            ((key, next_room_size([*nxt, *(group[i] for i in room)]) if nxt else 0), room)
            for key, room in keyed[start:end]
        ]
        block.sort(key=lambda t: t[0][1])
        tier: list[tuple] = []
        for key, room in block:
            if tier and tier[0][0] != key:
                yield tier
                tier = []
            tier.append((key, room))
        if tier:
            yield tier
        start = end


def _tier_order(
    rest: list[Entrant], tier: list[tuple], ctx: Context
) -> Iterator[tuple[list[Entrant], list[tuple[Entrant, Entrant]]]]:
    """C4.4 most colour preferences met, then C4.5 the higher placed players wait: the rooms of one
    tier in that order, each with its C5 pairing, skipping rooms `ctx.accept` refuses and rooms
    without a complete C5 pairing (C7). A room is paired only when no room not yet paired can
    still come before it (its bound on C4.4 says so), so the best come first without pairing all."""
    ordered = sorted((-_hits_bound(rest, room), room) for _key, room in tier)
    ready: list[tuple[tuple[int, tuple[int, ...]], list[Entrant], list[tuple[Entrant, Entrant]]]] = []
    i = 0
    while i < len(ordered) or ready:
        while i < len(ordered) and (not ready or ordered[i] < ready[0][0]):
            _, room = ordered[i]
            i += 1
            members = [rest[k] for k in room]
            if not ctx.accept(members):
                continue
            pairs = _c5_pairing([e for k, e in enumerate(rest) if k not in room], ctx.lookahead)
            if pairs is not None:
                heapq.heappush(ready, ((-_colour_hits(pairs), tuple(sorted(room))), members, pairs))
        if ready:
            _, members, pairs = heapq.heappop(ready)
            yield members, pairs


def bracket_001(
    ctx: Context, movers: list[Entrant], residents: list[Entrant]
) -> Iterator[tuple[Candidate, list[Note]]]:
    """One score group by seed 001 C1-C8: its pairings in the text's order (C3 sizes, C4 rooms)."""
    rest, notes = ctx.set_aside(sorted([*movers, *residents], key=lambda e: e.key))
    for size in range(len(rest) % 2, len(rest) + 1, 2):
        whole = size == len(rest) and not ctx.last  # C8: in the most extreme case the whole group waits
        if not ctx.leftovers_possible(size) or (whole and not ctx.whole_group_may_move()):
            continue
        for tier in _rooms(rest, size, ctx.next_group, ctx.last):
            for members, pairs in _tier_order(rest, tier, ctx):
                lines = [_ENLARGED(size=size)] if size > len(rest) % 2 else []
                if members:
                    lines.append(_WAITING_ROOM(players=[e.id for e in members]))
                if pairs:
                    lines.append(_C5(pairs=len(pairs)))
                yield Candidate(pairs, [*members, *ctx.stuck], None), [*notes, *lines]


def checksums(state: TournamentState) -> tuple[list[str], Note]:
    """Seed 001 F8 after each round, as the seeds README (item 10) corrects it: the points total is
    what every game, bye and forfeit awarded (each game's two records agree: opponents of each
    other, 1 point between them, or none after a forfeit lost by both); total WS = ½·D·R and total
    WP = ½·D·R·R, D the number of participants (F3: every round adds ½ to each player's WS).
    Returns the problems found and a line for the explanation."""
    rounds = state.rounds_played
    by_id = {p.id: p for p in state.players}
    problems: list[str] = []
    for p in state.players:
        for r, rec in enumerate(p.history[:rounds], 1):
            if rec.opponent is None or rec.opponent < p.id and rec.opponent in by_id:
                continue  # a bye or an absence; or a game seen from the other side
            opp = by_id.get(rec.opponent)
            other = opp.history[r - 1] if opp is not None and len(opp.history) >= r else None
            if other is None or other.opponent != p.id:
                problems.append(f"round {r}: {p.id} met {rec.opponent}, who did not meet {p.id}")
                continue
            points = record_points(rec) + record_points(other)
            if points != 1 and not (points == 0 and not rec.played and not other.played):
                problems.append(f"round {r}: {p.id}-{opp.id} gives {points:g} points in all")
    table = standings(state.players, rounds)
    d = len(state.players)
    ws = sum(st.ws for st in table.values())
    wp = sum(st.wp for st in table.values())
    if ws != d * rounds / 2:
        problems.append(f"total WS {ws:g}, not ½·D·R = {d * rounds / 2:g}")
    if wp != d * rounds * rounds / 2:
        problems.append(f"total WP {wp:g}, not ½·D·R·R = {d * rounds * rounds / 2:g}")
    points = sum(st.score for st in table.values())
    line = _F8(round=rounds, points=f"{points:g}", ws=f"{ws:g}", wp=f"{wp:g}", d=d)
    return problems, line


def round_one(ids: Sequence[int], fold: bool) -> list[tuple[int, int | None]]:
    """Seed 001 D: lot numbers 1-D, 2-(D-1), ... (`fold`) or 1-2, 3-4, ...; D is the number of
    players, plus one when odd; whoever meets that extra number has the bye (None)."""
    ids = sorted(ids)
    d = len(ids) + len(ids) % 2
    if fold:
        return [(ids[i], ids[d - 1 - i] if d - 1 - i < len(ids) else None) for i in range(d // 2)]
    return [(ids[i], ids[i + 1] if i + 1 < len(ids) else None) for i in range(0, d, 2)]


def _round_one_allowed(state: TournamentState, fold: bool, notes: list[Note]) -> list[tuple[int, int | None]]:
    """`round_one`, with the pairs the TD forbids counted as games already played (B1): when the lot
    numbers' scheme gives one, each first-named player in turn takes the first of the later numbers, in
    the scheme's order, he may meet and that leaves the others a complete pairing."""
    pairs = round_one([p.id for p in state.to_pair()], fold)
    games = [(w, b) for w, b in pairs if b is not None]
    barred = {w: state.barred(w) for w, _ in games}
    if not any(b in barred[w] for w, b in games):
        return pairs
    firsts, seconds = [w for w, _ in games], [b for _, b in games]
    rows = first_rows(firsts, seconds, lambda a, b: b not in barred[a])
    if rows is None:
        raise NoValidPairing(_D_NONE())
    notes.append(_D_FORBIDDEN())
    again = iter(rows)
    return [(w, b if b is None else next(again)) for w, b in pairs]


# Seed 001 D: round 1 by folding the lot numbers (the number of players known) or adjacent ones.
ROUND1 = ("fold", "adjacent")


def _validate(settings: dict[str, Any]) -> None:
    setting_checks.choice(settings, "round1", ROUND1)
    absence.validate(settings)


DEFAULTS: dict[str, Any] = {"round1": "fold", **absence.DEFAULTS}


def pair(state: TournamentState) -> Pairing:
    check_state(state)
    settings = SYSTEM.settings(state.settings)
    if state.round_to_pair == 1:
        fold = settings["round1"] == "fold"
        boards, byes = [], []
        notes = [_D1() if fold else _D2()]
        for i, (w, b) in enumerate(_round_one_allowed(state, fold, notes), 1):
            if b is None:
                byes.append(Bye(w, Kind.PAIRING_BYE))
                notes.append(_D_BYE(player=w))
            else:
                boards.append(Board(w, b))
                notes.append(_D_BOARD(board=i, white=w, black=b))
        for pid, kind in state.requested_byes.items():
            byes.append(Bye(pid, kind))
        return Pairing(boards, byes, notes)
    problems, line = checksums(state)
    if problems:
        raise InvalidInput("F8 checksums do not hold: " + "; ".join(problems))
    return pair_text(state, RULES_001, bracket_001, _BYE(), "001 F10", order=_entrants, closing=[line])


SYSTEM = PairingSystem(
    id="knsb-wp",
    name="KNSB Zwitsers op weerstandspunten",
    pair=pair,
    defaults=DEFAULTS,
    validate=_validate,
    choices={"round1": ROUND1},
    forbidden_pairs=True,
)
