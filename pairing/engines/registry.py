"""Pairing systems by id: the engine contract (`PairingSystem`).

A system is a module of this package exposing `SYSTEM`, a `PairingSystem`.
Adding a system is one line in `_MODULES`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from .setting_checks import UNKNOWN as UNKNOWN_SETTINGS
from .state import InvalidInput, Kind, Pairing, TournamentState

_MODULES: dict[str, str] = {
    "roundrobin": "roundrobin",
    "double-roundrobin": "roundrobin",
    "dutch-1998": "dutch1998",
    "knsb-rating": "knsb_rating",
    "knsb-wp": "knsb_wp",
    "dutch": "dutch",
    "keizer": "keizer",
    "knockout": "knockout",
    "monrad": "monrad",
    "dansk": "dansk",
    "dubov-1997": "dubov",
    "olympiad": "olympiad_system",
}


@dataclass(frozen=True)
class PairingSystem:
    """A registered system: its id, display name, pairing function and settings.

    `defaults` holds every setting the system reads with its default value;
    `validate` raises `InvalidInput` naming a bad setting.
    """

    id: str
    name: str
    pair: Callable[[TournamentState], Pairing]
    defaults: dict[str, Any] = field(default_factory=dict)
    validate: Callable[[dict[str, Any]], None] | None = None
    # Settings that take one of a fixed set of words (the settings page offers them as a choice).
    choices: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # Capabilities: what the system does, so the pages and services ask the system, not its name.
    # True when the whole schedule is fixed in advance (round robin).
    scheduled: bool = False
    # How often every player meets every other (a double round robin: 2).
    cycles: int = 1
    # Matches of several games drawn as a bracket, round by round (knockout, seed 004 §4.9.7).
    bracket: bool = False
    # The players are dealt into teams, ranked as a team tournament (seed 004 §4.9.9.5).
    teams: bool = False
    # Ranked by standings of its own (Keizer, seed 003 §1.5), not by points and a tie-break list.
    own_standings: bool = False
    # Start numbers drawn by lot (seed 000 A2), not ordered by rating.
    lots: bool = False
    # Start numbers follow last season's results (Keizer, seed 003 §1.10).
    season_start: bool = False
    # May be played under the Gladiator model: every pairing an encounter with a winner (seed 004 §4.9.8).
    gladiator: bool = True
    # The ARO list goes with the standings (Dubov, seed 004 §4.9.6 section 9).
    aro_list: bool = False
    # What a player may ask for a round before it is paired (byes and absences, as `Kind` values).
    absences: tuple[Kind, ...] = (Kind.HALF_BYE, Kind.FULL_BYE, Kind.ABSENT_NOTICE, Kind.ABSENT)
    # Named presets of the settings (label by name) and the function giving a preset's settings.
    presets: dict[str, str] = field(default_factory=dict)
    apply_preset: Callable[[str], dict[str, Any]] | None = None
    # True when the system honours `TournamentState.forbidden` (every Swiss, Danish and Keizer system:
    # a forbidden pair is treated as a game already played); round-robin tables and knockout draws
    # are fixed by the table or the draw and cannot.
    forbidden_pairs: bool = False

    def settings(self, given: dict[str, Any] | None = None) -> dict[str, Any]:
        """The defaults overlaid with `given`, validated."""
        return merge_settings(self.id, self.defaults, self.validate, given)


def merge_settings(
    system_id: str,
    defaults: dict[str, Any],
    validate: Callable[[dict[str, Any]], None] | None,
    given: dict[str, Any] | None,
) -> dict[str, Any]:
    """`defaults` overlaid with `given`, validated: `InvalidInput` names an unknown or bad setting."""
    merged = {**defaults, **(given or {})}
    unknown = set(merged) - set(defaults)
    if unknown:
        raise InvalidInput(UNKNOWN_SETTINGS(system=system_id, names=", ".join(sorted(unknown))))
    if validate:
        validate(merged)
    return merged


def system_ids() -> list[str]:
    return list(_MODULES)


def get(system_id: str) -> PairingSystem:
    """The system registered as `system_id`; `KeyError` if there is none."""
    module_name = _MODULES[system_id]
    module = import_module(f"{__package__}.{module_name}")
    systems = getattr(module, "SYSTEMS", None) or [module.SYSTEM]
    for system in systems:
        if system.id == system_id:
            return system
    raise KeyError(system_id)


def refuse_unhonoured(system: PairingSystem, state: TournamentState) -> None:
    """`InvalidInput` when `state` forbids pairs in the round to pair and `system` cannot honour that."""
    if not system.forbidden_pairs and any(ban.applies(state.round_to_pair) for ban in state.forbidden):
        raise InvalidInput(f"{system.name} cannot honour forbidden pairs")


def pair(state: TournamentState, system_id: str) -> Pairing:
    system = get(system_id)
    refuse_unhonoured(system, state)
    return system.pair(state)
