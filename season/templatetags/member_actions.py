"""`competition_actions`: which of a competition's own links the visitor may follow, so that nobody is
shown a link that answers 403 (the TD's "Manage", a player's "Notice of absence")."""

from __future__ import annotations

from django import template

from clubs.access import directs
from tournaments.models import Competition

from .. import rules

register = template.Library()


@register.simple_tag(takes_context=True)
def competition_actions(context, competition: Competition) -> dict[str, bool]:
    """`manage`: the user directs the competition's club; `notice`: he plays in it, has not withdrawn, and
    its system lets members sign off themselves (season.rules.signs_off) while it runs."""
    user = context.get("user")
    if user is None or not user.is_authenticated:
        return {"manage": False, "notice": False}
    plays = (
        competition.status != Competition.Status.FINISHED
        and rules.signs_off(competition.engine)
        and competition.participants.filter(member__user=user, withdrawn_after__isnull=True).exists()
    )
    return {"manage": directs(user, competition.club.slug), "notice": plays}
