"""Permission-scoped look-ups for views: a club the user directs, or 403."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404

from .models import Club


def directed_club(request, slug: str) -> Club:
    """The club `slug` if the logged-in user is one of its TDs; 404 if unknown, 403 otherwise."""
    club = get_object_or_404(Club, slug=slug)
    if not club.is_director(request.user):
        raise PermissionDenied
    return club
