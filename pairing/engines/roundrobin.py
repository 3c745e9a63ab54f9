"""Round robin and double round robin (seed 004 §4.9.11, the FIDE Berger tables).

The schedule is fixed by the start numbers ("lodtrækningsnumre"):
- an odd field gets an extra player with the highest number; whoever meets
  him has the bye;
- round 1: the lowest number meets the highest, the next lowest the next
  highest, and so on;
- later rounds: number 1 meets the number equal to the round; every other
  player (but the highest) meets the number after his previous opponent,
  wrapping from the highest odd number to 1; in the round he would meet
  himself he meets the highest number;
- colours: the highest number has black against the lower half and white
  against the upper half; among the others an even number has white against
  a higher odd and a lower even number, an odd number white against a higher
  even and a lower odd number.

Double round robin plays the schedule twice with colours reversed; the last
two rounds of the first cycle are swapped so that nobody has the same
colour three times across the seam (FIDE's convention, setting `swap_seam`).
"""

from __future__ import annotations

from typing import Any

from . import setting_checks as checks
from .notes import note_text
from .registry import PairingSystem
from .state import Board, Bye, InvalidInput, Kind, Pairing, TournamentState


def field_size(n_players: int) -> int:
    """Players in the schedule: the field, plus the extra player if odd."""
    return n_players + n_players % 2


def rounds_per_cycle(n_players: int) -> int:
    return field_size(n_players) - 1


def _opponent(player: int, rnd: int, n: int) -> int:
    """Whom `player` meets in round `rnd` (1-based) of an n-field (n even)."""
    if player == n:
        # n meets the player i with 2i = rnd + 1 (mod n - 1).
        return next(i for i in range(1, n) if _opponent(i, rnd, n) == n)
    other = (rnd + 1 - player - 1) % (n - 1) + 1
    return n if other == player else other


def _white_first(a: int, b: int, n: int) -> bool:
    """True when `a` has white against `b` (§4.9.11 'Farvefordeling')."""
    if b == n:
        return a <= n // 2  # n has black against the lower half
    if a == n:
        return b > n // 2
    higher = b > a
    if a % 2 == 0:
        return (b % 2 == 1 and higher) or (b % 2 == 0 and not higher)
    return (b % 2 == 0 and higher) or (b % 2 == 1 and not higher)


def berger_round(rnd: int, n_players: int) -> list[tuple[int, int]]:
    """The pairs (white, black) of round `rnd` of a single round robin.

    Board 1 holds the highest number (or, in an odd field, the player with
    the bye, returned as `(player, 0)` on the last board, the way the
    printed tables list it); the other boards fan out from his opponent.
    """
    n = field_size(n_players)
    if not 1 <= rnd <= n - 1:
        raise InvalidInput(f"round {rnd} is outside the schedule of {n - 1} rounds")
    x = _opponent(n, rnd, n)
    pairs = [(x, n)]
    for k in range(1, n // 2):
        a = (x - 1 + k) % (n - 1) + 1
        b = (x - 1 - k) % (n - 1) + 1
        pairs.append((a, b))
    ordered = [(a, b) if _white_first(a, b, n) else (b, a) for a, b in pairs]
    if n != n_players:  # odd field: the extra player's opponent has the bye
        ordered = ordered[1:] + [(x, 0)]
    return ordered


def schedule(n_players: int, cycles: int = 1, swap_seam: bool = True) -> list[list[tuple[int, int]]]:
    """Every round's pairs; a bye as `(player, 0)`."""
    single = [berger_round(r, n_players) for r in range(1, rounds_per_cycle(n_players) + 1)]
    if cycles == 1:
        return single
    first = list(single)
    if swap_seam and len(first) >= 2:
        first[-2], first[-1] = first[-1], first[-2]
    rounds = list(first)
    for cycle in range(1, cycles):
        source = single if cycle % 2 else first
        rounds += [[(b, a) if b else (a, b) for a, b in rnd] for rnd in source]
    return rounds


_BERGER = note_text("roundrobin.berger", "Berger table for %(players)s players, round %(round)s (seed 004 §4.9.11).")
_ODD_BYE = note_text("roundrobin.bye", "%(player)s has the bye of the odd field.")
_ABSENT = note_text(
    "roundrobin.absent", "Board %(white)s-%(black)s: a player is absent; the game is scored by forfeit."
)


def _pair(state: TournamentState, cycles: int) -> Pairing:
    settings = SYSTEMS[cycles - 1].settings(state.settings)
    ids = sorted(p.id for p in state.players)
    if ids != list(range(1, len(ids) + 1)):
        raise InvalidInput("round robin start numbers must run 1..n without gaps")
    rounds = schedule(len(ids), cycles, settings.get("swap_seam", True))
    if not 1 <= state.round_to_pair <= len(rounds):
        raise InvalidInput(f"round {state.round_to_pair} is outside the schedule of {len(rounds)} rounds")
    boards: list[Board] = []
    byes: list[Bye] = []
    explanation = [_BERGER(players=len(ids), round=state.round_to_pair)]
    absent = {p.id for p in state.players if p.withdrawn} | set(state.requested_byes)
    for white, black in rounds[state.round_to_pair - 1]:
        if black == 0:
            byes.append(Bye(white, Kind.PAIRING_BYE, score=0.0))
            explanation.append(_ODD_BYE(player=white))
        elif white in absent or black in absent:
            # The schedule is fixed; the TD records the absent player's result.
            boards.append(Board(white, black))
            explanation.append(_ABSENT(white=white, black=black))
        else:
            boards.append(Board(white, black))
    return Pairing(boards=boards, byes=byes, explanation=explanation)


def _validate(settings: dict[str, Any]) -> None:
    checks.booleans(settings, ["swap_seam"])


SYSTEMS = [
    PairingSystem(
        id="roundrobin",
        name="Round robin",
        pair=lambda state: _pair(state, 1),
        defaults={},
        scheduled=True,
        lots=True,
    ),
    PairingSystem(
        id="double-roundrobin",
        name="Double round robin",
        pair=lambda state: _pair(state, 2),
        defaults={"swap_seam": True},
        validate=_validate,
        scheduled=True,
        cycles=2,
        lots=True,
    ),
]
