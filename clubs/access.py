"""Permission-scoped look-ups for views: a club the user directs, or 403."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404

from .models import Club, ClubRole


def directed_club(request, slug: str) -> Club:
    """The club `slug` if the logged-in user is one of its TDs; 404 if unknown, 403 otherwise."""
    club = get_object_or_404(Club, slug=slug)
    if not club.is_director(request.user):
        raise PermissionDenied
    return club


def directs(user, slug: str) -> bool:
    """Whether `user` is one of the TDs of the club `slug` now (a superuser directs every club); one query."""
    if not user.is_authenticated:
        return False
    roles = ClubRole.objects.filter(club__slug=slug, user=user, role=ClubRole.Role.DIRECTOR)
    return user.is_superuser or roles.exists()
