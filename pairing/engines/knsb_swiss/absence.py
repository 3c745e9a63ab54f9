"""Absent without notice: deemed to have withdrawn (seed 000 F8, seed 001 F10, seed 002 F8).

"Spelers die zonder de wedstrijdleider te informeren een ronde afwezig zijn, worden geacht zich
teruggetrokken te hebben": a player who missed a round without telling the arbiter is no longer
paired (F5: "worden niet meer ingedeeld"); his score stays. A player who told the arbiter gets a
"reglementaire 0" for that round (F5, `Kind.ABSENT_NOTICE`) and is paired again afterwards.

In the engine state an absence without notice is a round of `Kind.ABSENT` (TRF: not paired, no
bye). The setting `absent_without_notice_withdraws` (default True, the texts' rule) lets a club
whose own regulations say otherwise keep such players in the pairing.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .. import setting_checks
from ..notes import Note, note_text
from ..state import Kind, TournamentState

SETTING = "absent_without_notice_withdraws"
DEFAULTS: dict[str, Any] = {SETTING: True}

_DEEMED_WITHDRAWN = note_text(
    "knsb.deemed_withdrawn",
    "%(player)s was absent in round %(round)s without informing the arbiter and is deemed to have "
    "withdrawn (%(article)s): no longer paired.",
)


def validate(settings: dict[str, Any]) -> None:
    setting_checks.booleans(settings, [SETTING])


def absent_without_notice(state: TournamentState) -> dict[int, int]:
    """Players still in the tournament who missed a round before the one to pair without notice:
    start number -> the first such round."""
    found: dict[int, int] = {}
    for player in state.players:
        if player.withdrawn:
            continue
        for rnd, record in enumerate(player.history[: state.rounds_played], start=1):
            if record.kind is Kind.ABSENT:
                found[player.id] = rnd
                break
    return found


def withdraw_absentees(state: TournamentState, article: str) -> tuple[TournamentState, list[Note]]:
    """`state` with every player absent without notice withdrawn (seed `article`, e.g. "000 F8"),
    and a note for each; `state` itself when the setting is off or nobody is concerned."""
    if not state.settings.get(SETTING, True):
        return state, []
    absent = absent_without_notice(state)
    if not absent:
        return state, []
    players = [replace(p, withdrawn=True) if p.id in absent else p for p in state.players]
    notes = [_DEEMED_WITHDRAWN(player=pid, round=rnd, article=article) for pid, rnd in sorted(absent.items())]
    return replace(state, players=players), notes
