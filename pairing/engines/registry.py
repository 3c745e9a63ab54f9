"""Pairing systems by id (DESIGN.md: the engine contract).

A system is a module of this package exposing `SYSTEM`, a `PairingSystem`.
Adding a system is one line in `_MODULES`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from .setting_checks import UNKNOWN as UNKNOWN_SETTINGS
from .state import InvalidInput, Pairing, TournamentState

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
    # True when the whole schedule is fixed in advance (round robin).
    scheduled: bool = False
    # True when the system honours `TournamentState.forbidden` (every Swiss, Danish and Keizer system:
    # a forbidden pair is treated as a game already played); round-robin tables and knockout draws
    # are fixed by the table or the draw and cannot.
    forbidden_pairs: bool = False

    def settings(self, given: dict[str, Any] | None = None) -> dict[str, Any]:
        """The defaults overlaid with `given`, validated."""
        merged = {**self.defaults, **(given or {})}
        unknown = set(merged) - set(self.defaults)
        if unknown:
            raise InvalidInput(UNKNOWN_SETTINGS(system=self.id, names=", ".join(sorted(unknown))))
        if self.validate:
            self.validate(merged)
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
