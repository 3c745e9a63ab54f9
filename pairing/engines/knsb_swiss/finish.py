"""Colours by seed 000/002 E1-E4 (E5 in round 1), the order of publication (F1) and the bye: the
`Pairing` with each board's colour article.
"""

from __future__ import annotations

from .. import colours
from ..notes import Note, note_text
from ..state import Board, Bye, Colour, InvalidInput, Kind, Pairing, TournamentState
from .players import Entrant
from .rounds import Outcome

# Which article decided each board's colours, and why the bye.
_BOARD = note_text("knsb.board", "board %(board)s: %(white)s-%(black)s colours by %(article)s")
_BYE = note_text("knsb.bye", "bye: %(player)s (%(why)s)")
_E1 = note_text("knsb.e1", "E1")
_E2 = note_text("knsb.e2", "E2")
_E3 = note_text("knsb.e3", "E3")
_E4 = note_text("knsb.e4", "E4")
_E4_ROUND_ONE = note_text("knsb.e4_round_one", "E4 (round 1: E5/A7 by lot and pairing number)")
_B2_TOP = note_text("knsb.b2_top", "B2 (topscorer's opponent)")


def colour_article(a: Entrant, b: Entrant) -> Note:
    """Which of E1-E4 decided the colours of a pair (a ranked higher)."""
    if a.pref is None and b.pref is None:
        return _E4_ROUND_ONE()
    if colours.preferences_compatible(a.pref, b.pref):
        return _E1()
    if a.strength != b.strength:
        return _E2()
    mine, theirs = colours._first_difference(a.cs, b.cs)
    if mine is not None and theirs is not None:
        return _E3()
    return _E4()


def _b2_allows(hi: Entrant, lo: Entrant, hi_colour: Colour) -> bool:
    if hi_colour is Colour.WHITE:
        return hi.may_white and lo.may_black
    return hi.may_black and lo.may_white


def finish(state: TournamentState, out: Outcome, bye_label: Note) -> Pairing:
    """Colours by E1-E4 (E5 in round 1) and the order of publication (F1)."""
    boards: list[tuple[tuple, Board, Note]] = []
    # Round 1 (000 A7 and E5, 002 E5): the odd-ranked players of S1 get the lot's colour, ranked
    # among the players being paired (an absentee has no place in S1).
    paired = sorted([e for pair in out.pairs for e in pair] + ([out.bye] if out.bye else []), key=lambda e: e.key)
    rank = {e.id: i + 1 for i, e in enumerate(paired)}
    for x, y in out.pairs:
        hi, lo = (x, y) if x.key < y.key else (y, x)
        number = rank[hi.id] if state.rounds_played == 0 else hi.number
        colour = colours.allocate(hi.cs, lo.cs, number, state.top_colour_round1)
        article = colour_article(hi, lo)
        if not _b2_allows(hi, lo, colour) and _b2_allows(hi, lo, colour.opposite):
            # A topscorer's preference is not absolute (000 A7, 001 A5a): B2 still holds for the
            # other player, so he gets the colour B2 leaves him.
            colour, article = colour.opposite, _B2_TOP()
        board = Board(hi.id, lo.id) if colour is Colour.WHITE else Board(lo.id, hi.id)
        order = (-hi.score, -(hi.score + lo.score), hi.key)
        boards.append((order, board, article))
    boards.sort(key=lambda t: t[0])
    notes = list(out.notes)
    for i, (_, board, art) in enumerate(boards, 1):
        notes.append(_BOARD(board=i, white=board.white, black=board.black, article=art))
    byes = []
    if out.bye is not None:
        byes.append(Bye(out.bye.id, Kind.PAIRING_BYE))
        notes.append(_BYE(player=out.bye.id, why=bye_label))
    for pid, kind in state.requested_byes.items():
        byes.append(Bye(pid, kind))
    return Pairing([b for _, b, _ in boards], byes, notes)


def check_state(state: TournamentState) -> None:
    if state.round_to_pair < 1 or state.round_to_pair > state.total_rounds:
        raise InvalidInput(f"round {state.round_to_pair} is outside 1..{state.total_rounds}")
