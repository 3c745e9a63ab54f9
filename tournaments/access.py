"""The competition a page is about, looked up once for every app: by its club's slug and its own."""

from __future__ import annotations

from django.shortcuts import get_object_or_404

from clubs.access import directed_club

from .models import Competition


def club_competition(club_slug: str, slug: str, **filters) -> Competition:
    """A club's competition by slug (404 when there is none, or it does not match `filters`)."""
    competitions = Competition.objects.select_related("club", "season")
    return get_object_or_404(competitions, club__slug=club_slug, slug=slug, **filters)


def directed_competition(request, club_slug: str, slug: str, **filters) -> Competition:
    """The competition the signed-in TD directs: refused (403) unless he directs its club."""
    directed_club(request, club_slug)
    return club_competition(club_slug, slug, **filters)
