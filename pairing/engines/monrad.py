"""Monrad (seed 004 §4.9.1, with the arbiter's advice of §4.9.2; seeds README item 13).

- Start numbers are the lot order: the caller draws them before round 1.
- After every round the players are re-ranked by points, equal points keeping
  their placing from the previous ranking (after round 1: the lot order).
- The best placed player meets the nearest following player he has not met,
  the next unpaired player likewise, and so on (§4.9.1).
- When the players left over cannot be paired, the last-formed pair is opened
  and those players are paired again together with it; if that fails, the
  second-last pair too, and so on until the group "goes up" (§4.9.2). Within
  the opened players the same rule applies (best placed against the nearest
  following he may meet).
- Colours: fewer whites so far gets white; equally many: the lower placed.
  Round 1 thus gives 2 v 1 with white, 4 v 3, ... (§4.9.1, §4.9.2).
- An odd field gets a dummy player X placed lowest; whoever is paired with X
  has the bye (a win), and nobody gets a second bye (README item 13). After
  an odd number of withdrawals the first to withdraw takes X's place in the
  pairing (§4.9.1); the others take no further part.
- §4.9.2 advises checking, before a round starts, that the next round can
  still be paired (6 players: round 4 before round 3 starts, ... 16 players:
  round 9 before round 8). `next_round_pairable` does that check; the pairing
  carries a warning line when it fails.
"""

from __future__ import annotations

from typing import Any

from . import setting_checks as checks
from .danish import Allowed, first_matching, has_perfect_matching, points
from .notes import Level, Note, note_text
from .registry import PairingSystem
from .state import Board, Bye, Colour, Kind, NoValidPairing, Pairing, Player, TournamentState

DUMMY = 0  # player X of an odd field (start numbers are positive)

_NO_PAIRING = note_text(
    "monrad.no_pairing", "Monrad: no pairing avoids a second game between the same two players (§4.9.1)."
)
_PLACING = note_text(
    "monrad.placing", "Monrad round %(round)s: placing by points, then the previous placing (§4.9.1): %(order)s."
)
_REOPENED = note_text(
    "monrad.reopened",
    "§4.9.2: %(player)s could not be paired; the last %(opened)s pair(s) formed were opened and %(players)s "
    "players paired again among themselves.",
)
_BYE_DUMMY = note_text(
    "monrad.bye", "%(player)s is paired with the dummy player X: the bye, scored as a win (README item 13)."
)
_BYE_WITHDRAWN = note_text(
    "monrad.bye_withdrawn",
    "%(player)s is paired with X (withdrawn player %(withdrawn)s, §4.9.1): the bye, scored as a win (README item 13).",
)
_BOARD = note_text(
    "monrad.board", "Board %(white)s-%(black)s: %(higher)s (placed higher) v %(lower)s; white: %(reason)s."
)
_FEWER_WHITES = note_text("monrad.fewer_whites", "fewer whites so far")
_EQUAL_WHITES = note_text("monrad.equal_whites", "equal whites, the lower placed")
_NEXT_UNPAIRABLE = note_text(
    "monrad.next_unpairable",
    "(§4.9.2): after this round, round %(round)s cannot be paired without a repeated game; the arbiter should "
    "change this round's pairing.",
    Level.WARNING,
)
_NEXT_PAIRABLE = note_text("monrad.next_pairable", "Check of §4.9.2: round %(round)s can still be paired.")


def placing(state: TournamentState, after_round: int | None = None) -> list[int]:
    """Start numbers in Monrad placing order after `after_round` rounds (§4.9.2 "omplacering").

    Points first; equal points keep their order of the previous placing, the
    lot order (start numbers) before round 1.
    """
    rounds = state.rounds_played if after_round is None else after_round
    order = sorted(p.id for p in state.players)
    for rnd in range(1, rounds + 1):
        previous = {pid: i for i, pid in enumerate(order)}
        order.sort(key=lambda pid, r=rnd, prev=previous: (-points(state.player(pid), r), prev[pid]))
    return order


def _withdrawal_key(player: Player) -> tuple[int, int]:
    """When a player withdrew: `extra["withdrawn_round"]`, else the round after his last pairing."""
    given = player.extra.get("withdrawn_round")
    if isinstance(given, int):
        return given, player.id
    last = max((i + 1 for i, r in enumerate(player.history) if r.paired), default=0)
    return last + 1, player.id


def player_x(state: TournamentState, present: list[Player]) -> int | None:
    """Who stands in as X this round: None for an even field (§4.9.1, README item 13).

    An odd number of withdrawals: the first to withdraw; otherwise the dummy X.
    """
    if len(present) % 2 == 0:
        return None
    withdrawn = sorted((p for p in state.players if p.withdrawn), key=_withdrawal_key)
    if len(withdrawn) % 2 == 1:
        return withdrawn[0].id
    return DUMMY


def _had_bye(player: Player) -> bool:
    return any(r.kind is Kind.PAIRING_BYE for r in player.history)


def _allowed_fn(state: TournamentState, x: int | None) -> Allowed:
    met = {p.id: state.cannot_meet(p) for p in state.players}

    def allowed(a: int, b: int) -> bool:
        if x is not None and x in (a, b):
            other = b if a == x else a
            # Nobody gets a second bye; a withdrawn X may not be met twice either.
            return not _had_bye(state.player(other)) and (x == DUMMY or x not in met[other])
        return b not in met[a]

    return allowed


def _colours(state: TournamentState, higher: int, lower: int) -> Board:
    """Fewer whites so far gets white; equal: the lower placed (§4.9.1)."""
    whites_h = state.player(higher).colours().count(Colour.WHITE)
    whites_l = state.player(lower).colours().count(Colour.WHITE)
    if whites_h < whites_l:
        return Board(higher, lower)
    return Board(lower, higher)


def _pair_order(order: list[int], allowed: Allowed) -> tuple[list[tuple[int, int]], list[str]]:
    """Pair `order` top-down (§4.9.1), opening the last pairs when stuck (§4.9.2)."""
    pairs: list[tuple[int, int]] = []
    rest = list(order)
    while rest:
        top = rest[0]
        partner = next((p for p in rest[1:] if allowed(top, p)), None)
        if partner is None:
            break
        pairs.append((top, partner))
        rest = [p for p in rest if p not in (top, partner)]
    if not rest:
        return pairs, []
    position = {pid: i for i, pid in enumerate(order)}
    for opened in range(1, len(pairs) + 1):
        group = sorted(rest + [p for pair in pairs[-opened:] for p in pair], key=position.__getitem__)
        again = first_matching(group, allowed)
        if again is not None:
            note = _REOPENED(player=_name(rest[0]), opened=opened, players=len(group))
            return pairs[:-opened] + again, [note]
    raise NoValidPairing(_NO_PAIRING())


def _name(pid: int) -> str:
    return "X" if pid == DUMMY else str(pid)


def _pairs_to_output(
    state: TournamentState, pairs: list[tuple[int, int]], x: int | None
) -> tuple[list[Board], list[Bye], list[str]]:
    boards: list[Board] = []
    byes: list[Bye] = []
    notes: list[Note] = []
    for higher, lower in pairs:
        if x is not None and x in (higher, lower):
            player = lower if higher == x else higher
            byes.append(Bye(player, Kind.PAIRING_BYE))
            notes.append(_BYE_DUMMY(player=player) if x == DUMMY else _BYE_WITHDRAWN(player=player, withdrawn=x))
            continue
        board = _colours(state, higher, lower)
        boards.append(board)
        whites = [state.player(p).colours().count(Colour.WHITE) for p in (higher, lower)]
        reason = _FEWER_WHITES() if whites[0] != whites[1] else _EQUAL_WHITES()
        notes.append(_BOARD(white=board.white, black=board.black, higher=higher, lower=lower, reason=reason))
    return boards, byes, notes


def _all_pairs(state: TournamentState) -> tuple[list[int], list[tuple[int, int]], int | None, list[Note]]:
    present = state.to_pair()
    x = player_x(state, present)
    present_ids = {p.id for p in present}
    order = [pid for pid in placing(state) if pid in present_ids]
    if x is not None:
        order.append(x)
    pairs, notes = _pair_order(order, _allowed_fn(state, x))
    return order, pairs, x, notes


def checkpoint_round(n_players: int) -> int | None:
    """The round before which §4.9.2 advises checking the next one (6-16 players), else None.

    6 players: before round 3 (check round 4); 8: before 4; ... 16: before round 8.
    An odd field counts with its player X.
    """
    n = n_players + n_players % 2
    return n // 2 if 6 <= n <= 16 else None


def next_round_pairable(state: TournamentState, boards: list[Board], byes: list[Bye]) -> bool:
    """Whether the round after this one can be paired at all, whatever the results (§4.9.2).

    Pairability depends only on who has met whom and who had the bye, not on
    the results: with the exchanges of §4.9.2 Monrad finds a pairing exactly
    when one without repeated games exists.
    """
    met = {p.id: state.cannot_meet(p, state.round_to_pair + 1) for p in state.players}
    for board in boards:
        met[board.white].add(board.black)
        met[board.black].add(board.white)
    had_bye = {p.id for p in state.players if _had_bye(p)}
    had_bye |= {b.player for b in byes if b.kind is Kind.PAIRING_BYE}
    present = [p for p in state.players if not p.withdrawn]
    x = player_x(state, present)
    ids = [p.id for p in present] + ([x] if x is not None else [])

    def allowed(a: int, b: int) -> bool:
        if x is not None and x in (a, b):
            other = b if a == x else a
            return other not in had_bye and (x == DUMMY or x not in met[other])
        return b not in met[a]

    return has_perfect_matching(ids, allowed)


def pair(state: TournamentState) -> Pairing:
    settings = SYSTEM.settings(state.settings)
    order, pairs, x, notes = _all_pairs(state)
    boards, byes, board_notes = _pairs_to_output(state, pairs, x)
    for pid, kind in sorted(state.requested_byes.items()):
        if not state.player(pid).withdrawn:
            byes.append(Bye(pid, kind))
    explanation = [_PLACING(round=state.round_to_pair, order=[_name(p) for p in order]), *notes, *board_notes]
    if settings["lookahead"] and state.round_to_pair < state.total_rounds:
        field = len([p for p in state.players if not p.withdrawn])
        ok = next_round_pairable(state, boards, byes)
        if not ok:
            explanation.append(_NEXT_UNPAIRABLE(round=state.round_to_pair + 1))
        elif checkpoint_round(field) == state.round_to_pair:
            explanation.append(_NEXT_PAIRABLE(round=state.round_to_pair + 1))
    return Pairing(boards=boards, byes=byes, explanation=explanation)


def _validate(settings: dict[str, Any]) -> None:
    checks.booleans(settings, ["lookahead"])


SYSTEM = PairingSystem(
    id="monrad",
    name="Monrad (DSU)",
    pair=pair,
    forbidden_pairs=True,
    defaults={"lookahead": True},
    validate=_validate,
    lots=True,
)
