"""What a member may answer for a coming round, per pairing system, and the limits of the rules.

Plain Python (no Django): the web layer passes the counts and settings and turns the refusals into
sentences. What a system allows comes from its registered capabilities (`PairingSystem.absences`,
`scheduled`, `bracket`, `teams`), not from its name.

- Keizer (seed 003 §1.3, "verhinderd ... vooraf gemeld"): a member gives notice of absence and gets
  the fraction of his own value the settings give; absence without notice and the club-match game are
  the TD's to record, never a member's answer.
- Swiss systems (seed 000 A5, seed 001 F9, seed 002 A5): a player who cannot come is absent with
  notice (no points); a half-point bye is a voluntary bye, allowed only as far as the tournament
  regulations allow: `half_byes` per player (0: none), none in the last `no_byes_last_rounds` rounds.
- Round robins, knockout cups and team tournaments play a fixed schedule or matches: a missed game is
  postponed or forfeited by the TD; members do not sign off there.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from pairing.engines.registry import PairingSystem
from pairing.engines.state import Kind

PRESENT = "present"
ABSENT_NOTICE = Kind.ABSENT_NOTICE.value
HALF_BYE = Kind.HALF_BYE.value


@dataclass(frozen=True)
class Limits:
    """A competition's sign-off rules as the TD set them."""

    deadline_hours: int = 24
    half_byes: int = 0
    no_byes_last_rounds: int = 0


class Refused(Exception):
    """An answer the rules do not allow; `code` names the rule, `values` fill its sentence."""

    def __init__(self, code: str, **values):
        super().__init__(code)
        self.code = code
        self.values = values


def signs_off(system: PairingSystem) -> bool:
    """Whether members sign off themselves: a system paired round by round that knows notice of absence."""
    fixed = system.scheduled or system.bracket or system.teams
    return not fixed and Kind.ABSENT_NOTICE in system.absences


def allows_half_byes(system: PairingSystem) -> bool:
    """Whether the system knows requested half-point byes (the Swiss systems; not Keizer)."""
    return signs_off(system) and Kind.HALF_BYE in system.absences


def answers(system: PairingSystem, limits: Limits) -> list[str]:
    """The answers a member may give in this system (present always first)."""
    if not signs_off(system):
        return []
    return [PRESENT, ABSENT_NOTICE] + ([HALF_BYE] if allows_half_byes(system) and limits.half_byes > 0 else [])


def deadline(night_start: datetime | None, limits: Limits) -> datetime | None:
    """The last moment an answer is taken for a round on a night starting at `night_start`."""
    if night_start is None:
        return None
    return night_start - timedelta(hours=limits.deadline_hours)


def check(
    system: PairingSystem,
    answer: str,
    limits: Limits,
    *,
    round_number: int,
    planned_rounds: int,
    half_byes_taken: int,
    now: datetime,
    night_start: datetime | None,
    paired: bool,
) -> None:
    """Refused(...) when the answer breaks a rule; `half_byes_taken` counts other rounds only."""
    if not signs_off(system):
        raise Refused("system")
    if answer not in (PRESENT, ABSENT_NOTICE, HALF_BYE):
        raise Refused("unknown", answer=answer)
    if paired:
        raise Refused("paired", round=round_number)
    last = deadline(night_start, limits)
    if last is not None and now > last:
        raise Refused("deadline", deadline=last)
    if answer == HALF_BYE:
        if not allows_half_byes(system):
            raise Refused("keizer-bye")
        if limits.half_byes == 0:
            raise Refused("no-byes")
        if half_byes_taken >= limits.half_byes:
            raise Refused("bye-limit", limit=limits.half_byes)
        if planned_rounds and round_number > planned_rounds - limits.no_byes_last_rounds:
            raise Refused("last-rounds", rounds=limits.no_byes_last_rounds)
