"""The Keizer competition's settings, with the article each default comes from.

The defaults are the club's own (seed 003 §1 and the Sevilla settings of
§2.1); seeds README item 4 fills the articles cut off in the source
(§1.7, §1.8, §3.2-§3.4). docs/keizer.md lists them for the TD.

`PRESETS` holds complete settings for a few named variants (this club's, KeizerForClubs' defaults,
the classic Keizer of Dutch clubs); `apply_preset` gives one with overrides, validated.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from .. import setting_checks as checks
from ..notes import note_text
from ..registry import merge_settings
from ..state import InvalidInput

SYSTEM_ID = "keizer"
_VALUE_RATIO = note_text("keizer.value_ratio", "value_ratio must be 0 (not used) or a number above 1.")

REVALUATION_MODES = ("classic", "fixed-point", "frozen")


@dataclass(frozen=True, slots=True)
class KeizerSettings:
    # Values from the ranking (§1.2; §2.1 "Spelerwaardering": Topwaarde, Waarde stapgrootte, Elke,
    # Vermenigvuldig met): the value at place p is (top - step * ((p - 1) // every)) * multiplier.
    top_value: float = 60
    value_step: float = 1
    value_every: int = 1
    value_multiplier: float = 1
    # Rounds without a game, as fractions of one's own value (§1.2, §1.3, §2.1 "Afwezigheidspar.").
    absent_notice_fraction: float = 1 / 3  # "Afwezig met bericht"
    absent_fraction: float = 0.0  # "Afwezig zonder bericht"
    club_match_fraction: float = 1.0  # §1.3: a club-match game on club night scores on one's own value
    bye_fraction: float = 0.5  # "Bye": the reserve (§1.9)
    forfeit_as_bye: bool = True  # "Regl. uitslagen als bye beschouwen"
    forfeit_bye_winner_only: bool = True  # "Only for the winner"; the loser (the no-show, §3.5) gets 0
    # §2.1 "Beginwaarde optellen bij totaalscore": add one's own value to the total (the club: no).
    own_value_in_total: bool = False
    # The value of place 1 from the field size instead of `top_value`: (n - 1) × r / (r - 1), rounded, for n
    # players and r the ratio of a win against the first to one against the last (0: use `top_value`).
    value_ratio: float = 0
    # Systeem Aalsmeer (§1.4; §2.1 "Aalsmeerronden"): 0 switches the bonus off.
    aalsmeer_rounds: int = 5
    # Re-valuation (§1.6, seeds README item 3): "classic", "fixed-point" or "frozen".
    revaluation: str = "classic"
    max_iterations: int = 50  # fixed-point mode only
    # The published ranking (§1.5): at least this fraction of the rounds taken part in.
    participation_fraction: float = 1 / 3
    # Pairing (§1.7, §1.8 as seeds README item 4 fills them from §2.1).
    repeat_window: int = 4  # "Ronden tussen gelijke paring"
    max_meetings: int = 8  # "Max gelijke paringen" (0: no limit)
    max_colour_difference: int = 2  # "Max toegestaan kleurverschil" (0: no limit)
    max_same_colour_run: int = 2  # "Opeenv. ronden met gelijke kleur" (0: no limit)
    max_place_difference: int = 0  # "Max toegestane positie verschil" (0: no limit)
    forfeits_count_as_meetings: bool = False  # "Tel regl. uitslagen als onderl. partij"
    reserve_choice: str = "random"  # "Bye keuze": "random" (by lot) or "lowest" (the lowest-ranked)
    no_reserve_for_top: int = 0  # "Geen bye voor top": the first this many places are never the reserve
    # Performance rating (§2.1 "Rating": TPR limiet) and the start ranking (§1.10).
    tpr_limit: float = 750
    start_min_games: int = 5  # fewer games last season: the rating is used
    strength_groups: int = 3  # "3 even grote groepen"


DEFAULTS: dict[str, Any] = asdict(KeizerSettings())

_NON_NEGATIVE_NUMBERS = (
    "top_value",
    "value_step",
    "value_multiplier",
    "absent_notice_fraction",
    "absent_fraction",
    "club_match_fraction",
    "bye_fraction",
    "participation_fraction",
    "tpr_limit",
    "value_ratio",
)
_NON_NEGATIVE_INTEGERS = (
    "aalsmeer_rounds",
    "repeat_window",
    "max_meetings",
    "start_min_games",
    "max_colour_difference",
    "max_same_colour_run",
    "max_place_difference",
    "no_reserve_for_top",
)
_POSITIVE_INTEGERS = ("value_every", "max_iterations", "strength_groups")
_BOOLEANS = ("forfeit_as_bye", "forfeit_bye_winner_only", "own_value_in_total", "forfeits_count_as_meetings")
RESERVE_CHOICES = ("random", "lowest")
CHOICES = {"revaluation": REVALUATION_MODES, "reserve_choice": RESERVE_CHOICES}


def validate(settings: dict[str, Any]) -> None:
    """Raise `InvalidInput` naming the first bad setting."""
    checks.numbers(settings, _NON_NEGATIVE_NUMBERS, least=0)
    checks.whole_numbers(settings, _NON_NEGATIVE_INTEGERS, least=0)
    checks.whole_numbers(settings, _POSITIVE_INTEGERS, least=1)
    checks.booleans(settings, _BOOLEANS)
    for name, words in CHOICES.items():
        checks.choice(settings, name, words)
    if 0 < settings["value_ratio"] <= 1:
        raise InvalidInput(_VALUE_RATIO())
    checks.at_most(settings, "participation_fraction", 1)


def resolve(given: dict[str, Any] | None) -> KeizerSettings:
    """The defaults overlaid with `given`, validated (as the registered system does)."""
    merged = merge_settings(SYSTEM_ID, DEFAULTS, validate, given)
    return KeizerSettings(**{f.name: merged[f.name] for f in fields(KeizerSettings)})


# Named presets: the settings that differ from the defaults (docs/keizer.md, "Presets", gives the
# sources and says which values could not be confirmed).
_PRESET_CHANGES: dict[str, dict[str, Any]] = {
    # This club's rules: seed 003 as seeds README items 1-4 settle it.
    "club": {},
    # KeizerForClubs as shipped: values from the field size (ratio 3), own value added to the total,
    # absences 35 % (excused) and 5 % (unexcused), club commitment 70 %, bye 50 % to the lowest-ranked
    # with the fewest byes, no rematch within 4 rounds, no colour limits, no start bonus, everybody listed.
    "keizerforclubs": {
        "value_ratio": 3,
        "own_value_in_total": True,
        "absent_notice_fraction": 0.35,
        "absent_fraction": 0.05,
        "club_match_fraction": 0.7,
        "bye_fraction": 0.5,
        "forfeit_as_bye": False,
        "aalsmeer_rounds": 0,
        "participation_fraction": 0,
        "max_meetings": 0,
        "max_colour_difference": 0,
        "max_same_colour_run": 0,
        "reserve_choice": "lowest",
    },
    # The classic Keizer of Dutch clubs: own value added once, absent with notice 2/6 (1/3) of one's own
    # value, without notice nothing, the bye 4/6, no start bonus; pairing limits as the club's.
    "classic-knsb": {
        "own_value_in_total": True,
        "absent_notice_fraction": 1 / 3,
        "absent_fraction": 0.0,
        "bye_fraction": 2 / 3,
        "aalsmeer_rounds": 0,
    },
}

PRESET_LABELS: dict[str, str] = {
    "club": "This club's rules (seed 003)",
    "keizerforclubs": "KeizerForClubs' defaults",
    "classic-knsb": "Classic KNSB Keizer",
}

PRESETS: dict[str, dict[str, Any]] = {name: DEFAULTS | changes for name, changes in _PRESET_CHANGES.items()}


def apply_preset(name: str, overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """The complete settings of preset `name` with `overrides` on top, validated (`InvalidInput` on an
    unknown preset, an unknown setting or a bad value)."""
    if name not in PRESETS:
        raise InvalidInput(f"unknown Keizer preset {name!r}; known: {', '.join(PRESETS)}")
    return merge_settings(SYSTEM_ID, DEFAULTS, validate, PRESETS[name] | (overrides or {}))
