"""`club_leagues`: the team leagues a club organises or plays in, for the club's page (an app below the
team leagues reads them through this tag, not an import); `cup_rule` and `cup_round_name`: a team cup's
match decision and round names in the reader's language."""

from __future__ import annotations

from django import template
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..models import League

register = template.Library()


@register.simple_tag
def club_leagues(club) -> list[League]:
    """The leagues `club` organises or has a team in, newest first."""
    found = League.objects.filter(Q(club=club) | Q(teams__club=club)).select_related("club", "season")
    return list(found.distinct().order_by("-created"))


def _points(value: float) -> str:
    whole = int(value)
    return (str(whole) if whole or value == whole else "") + ("½" if value != whole else "")


@register.simple_tag
def cup_rule(match, decision) -> str:
    """How a cup match was decided (or what it still needs), in the reader's language: board points, the
    board count with the boards struck, a forfeit, the TD's lot or blitz decider (`team_cup.cup_decision`)."""
    if decision is None or (not decision.winner and not decision.needs_decider):
        return ""
    names = {"home": match.home.name, "away": match.away.name}
    winner = names.get(decision.winner, "")
    loser = names["away" if decision.winner == "home" else "home"] if winner else ""
    score = f"{_points(decision.home_points)}–{_points(decision.away_points)}"
    if decision.needs_decider:
        rule = match.league.rules.cup_decider
        if rule == "blitz":
            return _("Level after the tie rule: a blitz decider is played; the organiser's TD enters its winner.")
        return _("Level after the tie rule: the organiser's TD draws a lot.")
    texts = {
        "points": _("%(winner)s goes through: more board points (%(score)s)."),
        "forfeit": _("%(winner)s goes through: %(loser)s fielded nobody."),
        "boards": ngettext(
            "%(winner)s goes through by the board count: without the lowest board %(score)s.",
            "%(winner)s goes through by the board count: without the lowest %(struck)s boards %(score)s.",
            decision.struck,
        ),
        "lot": _("%(winner)s goes through by lot, drawn by the organiser's TD (level after the tie rule)."),
        "blitz": _("%(winner)s goes through by winning the blitz decider (level after the tie rule)."),
    }
    return texts[decision.how] % {"winner": winner, "loser": loser, "score": score, "struck": decision.struck}


@register.simple_tag
def cup_round_name(cup_round) -> str:
    """A cup round's name: the final, the semi-finals, the quarter-finals, else "round of N"."""
    names = {"final": _("Final"), "semi-final": _("Semi-finals"), "quarter-final": _("Quarter-finals")}
    if cup_round.name in names:
        return names[cup_round.name]
    return _("Round of %(n)s") % {"n": cup_round.places}
