"""The pairing systems' settings as the settings page names them, in the reader's language.

The engines name their settings in code (`PairingSystem.defaults`); this table gives each one a label
for the TD, citing the rule behind it where there is one. A setting missing here shows its code name;
a test keeps the table complete for every registered system.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

LABELS = {
    # Double round robin: FIDE's convention, so nobody plays one colour three times across the seam.
    "swap_seam": _("Double round robin: swap the colours at the seam between the cycles"),
    # KNSB Swiss systems (seeds 000, 001, 002).
    "absent_without_notice_withdraws": _("A player absent without notice is deemed to have withdrawn (F8)"),
    "round1": _("Round 1 (D)"),
    # Keizer (seed 003).
    "top_value": _("Value of place 1"),
    "value_step": _("Value step between places"),
    "value_every": _("Lower the value every so many places"),
    "value_multiplier": _("Multiply every value by"),
    "value_ratio": _("Value of place 1 from the number of players: ratio (0: not used)"),
    "absent_notice_fraction": _("Absent with notice: part of one's own value"),
    "absent_fraction": _("Absent without notice: part of one's own value"),
    "club_match_fraction": _("Club match: part of one's own value"),
    "bye_fraction": _("Bye: part of one's own value"),
    "forfeit_as_bye": _("Forfeits score as a bye"),
    "forfeit_bye_winner_only": _("… for the winner of a forfeit only"),
    "own_value_in_total": _("Add one's own value to the total"),
    "aalsmeer_rounds": _("Aalsmeer bonus: number of rounds (0: off)"),
    "revaluation": _("Re-valuation (§1.6)"),
    "max_iterations": _("Re-valuation until fixed: at most so many passes"),
    "participation_fraction": _("Ranked after taking part in at least this part of the rounds"),
    "repeat_window": _("Rounds between two pairings of the same players"),
    "max_meetings": _("Most meetings of two players (0: no limit)"),
    "max_colour_difference": _("Largest colour difference (0: no limit)"),
    "max_same_colour_run": _("Most rounds running with the same colour (0: no limit)"),
    "max_place_difference": _("Largest difference in places between opponents (0: no limit)"),
    "forfeits_count_as_meetings": _("Forfeits count as a meeting"),
    "reserve_choice": _("Who has the bye"),
    "no_reserve_for_top": _("No bye for the first so many places"),
    "tpr_limit": _("Performance rating: largest rating difference counted"),
    "start_min_games": _("Start ranking: fewer games last season, the rating is used"),
    "strength_groups": _("Start ranking: number of strength groups"),
    # Knockout (seed 004 §4.9.7).
    "games": _("Games per match"),
    "rapid_games": _("Rapid tie-break games"),
    "blitz_games": _("Blitz tie-break games"),
    # Monrad (seed 004 §4.9.1).
    "lookahead": _("Warn when the next round could not be paired"),
    # Dansk Schweizer (seed 004 §4.9.4).
    "acceleration_groups": _("Acceleration: number of strength groups (1: none)"),
    "acceleration_rounds": _("Acceleration: number of rounds (0: the whole tournament)"),
    "arrangement_limit": _("Search: arrangements tried per score group"),
    "search_limit": _("Search: most steps per round"),
    "relax_strong_preferences": _("Give up strong colour preferences when no pairing keeps them"),
    # Dubov (seed 004 §4.9.6).
    "upfloat_limits": _("Limit the floats up (2.5)"),
    "relax_colour_limits": _("Relax the colour limits (2.3, 2.4) when no pairing keeps them"),
    # Team events (seed 004 §4.9.9).
    "teams": _("Number of teams"),
    "cycles": _("Cycles: how often the teams meet"),
    "match_win": _("Match points for a won match"),
    "match_draw": _("Match points for a drawn match"),
    "rank_by_board_points": _("Rank by board points before match points"),
}


# The words of the settings that take one of a fixed set (`PairingSystem.choices`).
CHOICES = {
    ("round1", "fold"): _("folded: 1 against the last, 2 against the last but one, ..."),
    ("round1", "adjacent"): _("adjacent: 1-2, 3-4, ..."),
    ("revaluation", "classic"): _("classic: every round valued again with the ranking before the last round"),
    ("revaluation", "fixed-point"): _("fixed point: valued again until the ranking repeats itself"),
    ("revaluation", "frozen"): _("frozen: each round valued once, never again"),
    ("reserve_choice", "random"): _("drawn by lot"),
    ("reserve_choice", "lowest"): _("the lowest ranked"),
}


def choice(name: str, word: str) -> str:
    """How the settings page names value `word` of setting `name`: its entry in `CHOICES`, else the word."""
    return CHOICES.get((name, word)) or word


def label(name: str) -> str:
    """The label of setting `name`: its entry in `LABELS`, else the code name in words."""
    return LABELS.get(name) or name.replace("_", " ")
