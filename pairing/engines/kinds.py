"""Kinds of competition by id: what a club can start, with the capabilities, settings defaults and checks
of each (`CompetitionKind`).

Pure: no Django. Two kinds:

- `individual`: players paired round by round by a pairing system of `registry` (each system has its
  own settings, defaults and checks there); the rows are a `Competition`'s;
- `team-league`: clubs' teams meeting in a round robin of matches (`league`): its settings are
  `LeagueRules`' (defaults `league.DEFAULTS`, words to choose `league.CHOICES`), checked here and only
  here (`CompetitionKind.settings`); the rows are a `League`'s.

The pages offer the kinds in this order and ask a kind, not its id, what it does; `page` names the page
that creates one. Adding a kind is one entry in `_KINDS`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import registry
from .league import CHOICES as LEAGUE_CHOICES
from .league import DEFAULTS as LEAGUE_DEFAULTS
from .league import LeagueRules
from .state import InvalidInput

INDIVIDUAL = "individual"
TEAM_LEAGUE = "team-league"


@dataclass(frozen=True)
class CompetitionKind:
    """A kind of competition: its id, display name, the page that creates one, its settings and what it
    can do.

    `defaults` holds every setting the kind reads with its default (empty: its pairing system's, as for
    `individual`); `check` turns the defaults overlaid with the given settings into the stored settings
    or raises `InvalidInput` naming a bad one."""

    id: str
    name: str
    page: str
    defaults: dict[str, Any] = field(default_factory=dict)
    check: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    choices: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # Capabilities.
    # Paired by one of these systems of `registry`, round by round (empty: its own schedule).
    systems: tuple[str, ...] = ()
    # Played between clubs' teams, each club's team with its own roster and captain (a league's rows).
    club_teams: bool = False
    # The whole schedule is fixed in advance (a league's Berger tables).
    scheduled: bool = False
    # How often the teams (or players) may meet each other: the values `cycles` may take.
    cycles: tuple[int, ...] = (1,)
    # Read from and written as a TRF file.
    trf: bool = True

    def settings(self, given: dict[str, Any] | None = None) -> dict[str, Any]:
        """The defaults overlaid with `given`, checked: `InvalidInput` names an unknown or bad setting."""
        merged = registry.merge_settings(self.id, self.defaults, None, given)
        return self.check(merged) if self.check else merged


def _league_settings(given: dict[str, Any]) -> dict[str, Any]:
    """A league's settings as `LeagueRules` reads them: whole numbers, match points as floats, checked
    (a match won counts more than a draw, a draw at least as much as a loss; 1 to 20 boards; ...)."""
    return LeagueRules.from_settings(given).settings()


_KINDS: dict[str, CompetitionKind] = {
    INDIVIDUAL: CompetitionKind(
        id=INDIVIDUAL, name="Individual competition", page="new_competition", systems=tuple(registry.system_ids()),
        cycles=(1, 2),
    ),
    TEAM_LEAGUE: CompetitionKind(
        id=TEAM_LEAGUE, name="Team league", page="league_new", defaults=dict(LEAGUE_DEFAULTS),
        check=_league_settings, choices=dict(LEAGUE_CHOICES), club_teams=True, scheduled=True, cycles=(1, 2),
    ),
}  # fmt: skip


def kind_ids() -> list[str]:
    return list(_KINDS)


def get(kind_id: str) -> CompetitionKind:
    """The kind registered as `kind_id`; `KeyError` if there is none."""
    return _KINDS[kind_id]


def kinds() -> list[CompetitionKind]:
    """Every kind, in the order the pages offer them."""
    return list(_KINDS.values())


def league_rules(given: dict[str, Any] | None = None) -> LeagueRules:
    """A team league's rules from its settings, checked by its kind (`InvalidInput` names a bad one)."""
    return LeagueRules.from_settings(get(TEAM_LEAGUE).settings(given))


def kind_of_system(system_id: str) -> CompetitionKind:
    """The kind whose competitions a pairing system pairs; `InvalidInput` if none does."""
    for kind in _KINDS.values():
        if system_id in kind.systems:
            return kind
    raise InvalidInput(f"no kind of competition is paired by {system_id!r}")
