"""Each pairing system's default tie-break list and rules for unplayed rounds, keyed by system id.

- roundrobin: points, Sonneborn-Berger, direct encounter, number of wins (seed 004 §24: ties in
  round robins are decided by Sonneborn-Berger; C.07 lists DE and WIN for round robins); forfeits
  count as played and byes contribute nothing (rules `fide-roundrobin`).
- dutch (FIDE), dubov-1997: the C.07 recommendation for individual Swiss events: BH/C1, BH, SB, DE.
- knsb-wp: seed 001 F12: points, direct encounter for first place, WP, SB (the seed's), lot.
- dutch-1998, knsb-rating: seed 000 F10 (seed 002 has no ranking article of its own): points,
  direct encounter for first place, average rating of the opponents, lot.
- dansk, monrad: seed 004 §24: almindelig korrektion (§4.9.10.2).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Default:
    tiebreaks: tuple[str, ...]
    rules: str
    source: str


DEFAULTS: dict[str, Default] = {
    "roundrobin": Default(("PTS", "SB", "DE", "WIN"), "fide-roundrobin", "seed 004 §24; C.07"),
    "double-roundrobin": Default(("PTS", "SB", "DE", "WIN"), "fide-roundrobin", "seed 004 §24; C.07"),
    "dutch": Default(("PTS", "BH/C1", "BH", "SB", "DE"), "fide-2026", "C.07, individual Swiss"),
    "dubov-1997": Default(("PTS", "BH/C1", "BH", "SB", "DE"), "fide-2026", "C.07, individual Swiss"),
    "knsb-wp": Default(("PTS", "DE1", "WP", "WSB", "LOT"), "knsb", "seed 001 F12"),
    "dutch-1998": Default(("PTS", "DE1", "GRT", "LOT"), "fide-2026", "seed 000 F10"),
    "knsb-rating": Default(("PTS", "DE1", "GRT", "LOT"), "fide-2026", "seed 000 F10"),
    "dansk": Default(("PTS", "KORR"), "fide-2026", "seed 004 §24, §4.9.10.2"),
    "monrad": Default(("PTS", "KORR"), "fide-2026", "seed 004 §24, §4.9.10.2"),
}


# Team events (C.07 art. 11-13; pairing.engines.tiebreaks.teams): the primary score, then the
# secondary one, as the olympiad team tournament of seed 004 §4.9.9.5 ranks.
TEAM_DEFAULTS: dict[str, tuple[str, ...]] = {"olympiad": ("MPVGP",)}


def default_team_tiebreaks(system_id: str) -> list[str]:
    """A team system's list, the primary score aside; the secondary score for one without its own."""
    return list(TEAM_DEFAULTS.get(system_id, ("MPVGP",)))


def default_tiebreaks(system_id: str) -> list[str]:
    """The system's list; points then Buchholz for a system without one of its own."""
    found = DEFAULTS.get(system_id)
    return list(found.tiebreaks) if found else ["PTS", "BH"]


def default_rules(system_id: str) -> str:
    found = DEFAULTS.get(system_id)
    return found.rules if found else "fide-2026"
