"""`club_leagues`: the team leagues a club organises or plays in, for the club's page (an app below the
team leagues reads them through this tag, not an import)."""

from __future__ import annotations

from django import template
from django.db.models import Q

from ..models import League

register = template.Library()


@register.simple_tag
def club_leagues(club) -> list[League]:
    """The leagues `club` organises or has a team in, newest first."""
    found = League.objects.filter(Q(club=club) | Q(teams__club=club)).select_related("club", "season")
    return list(found.distinct().order_by("-created"))
