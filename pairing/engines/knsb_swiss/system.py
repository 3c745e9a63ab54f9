"""One round of a KNSB text, from the state to the pairing: the players absent without notice withdrawn
(F8; 001: F10), the score groups from the top (C), colours and the order of the boards (E, F1), the bye.
"""

from __future__ import annotations

from collections.abc import Callable

from ..notes import Note
from ..state import Pairing, TournamentState
from . import absence
from .finish import check_state, finish
from .players import Entrant, Rules
from .rounds import Bracket, pair_round


def pair_text(
    state: TournamentState,
    rules: Rules,
    bracket: Bracket,
    bye: Note,
    absence_article: str,
    order: Callable[[TournamentState], list[Entrant]] | None = None,
    closing: list[Note] | None = None,
) -> Pairing:
    """Pair `state.round_to_pair` by one text: its `rules` and group procedure `bracket`; `bye` says why the
    bye goes where it goes, `absence_article` names the text's F8; `order` ranks the players when the
    text has its own order (seed 001 A4), `closing` ends the explanation of the groups."""
    check_state(state)
    state, withdrawn = absence.withdraw_absentees(state, absence_article)
    out = pair_round(state, rules, bracket, order(state) if order else None)
    out.notes[:0] = withdrawn
    out.notes.extend(closing or [])
    return finish(state, out, bye)
