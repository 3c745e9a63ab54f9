"""Tie-breaks (FIDE C.07 and the seeds' own) and standings. Pure: no Django, no I/O.

    from pairing.engines.tiebreaks import standings
    table = standings(state, ["PTS", "BH/C1", "BH", "SB", "DE"])

Codes and conventions: docs/tiebreaks.md.
"""

from .catalogue import CATALOGUE, ENCOUNTER, Calculator, Explanation, Item, Spec, parse
from .defaults import DEFAULTS, TEAM_DEFAULTS, default_rules, default_team_tiebreaks, default_tiebreaks
from .incremental import LiveStandings, ResultChange
from .ranking import Standing, encounter_points, explanation, places, standings, unrated_rule_note
from .rules import PRESETS, UNRATED_CHOICES, Rules, Unrated, get_rules

__all__ = [
    "CATALOGUE",
    "ENCOUNTER",
    "DEFAULTS",
    "TEAM_DEFAULTS",
    "PRESETS",
    "Calculator",
    "Explanation",
    "Item",
    "LiveStandings",
    "ResultChange",
    "Rules",
    "Spec",
    "Standing",
    "UNRATED_CHOICES",
    "Unrated",
    "default_rules",
    "default_team_tiebreaks",
    "default_tiebreaks",
    "encounter_points",
    "explanation",
    "get_rules",
    "parse",
    "places",
    "standings",
    "unrated_rule_note",
]
