"""The public pages of a team league (its page, a match's page, a team's page), cached per league version,
with ETags and `304 Not Modified` answers, as the competitions' public pages are (`tournaments.caching`).

Every action on a league raises its version once (`pairing.services.leagues`), and a change of a name the
league's pages show (a member's, a club's) does too (`teams.signals`). A page's key is made of the view,
its arguments, the league's version and time of change, the language, the host, and who looks: anonymous
visitors share one copy; a logged-in user has his own, keyed also by the clubs he directs now (a TD sees
links the public does not), so a TD removed from a club is never served a copy, nor a 304, made while he
was its TD. The version is read from the database on each request (one small query). Requests with query
parameters, with messages waiting, or not GET/HEAD pass through uncached.
"""

from __future__ import annotations

import hashlib
from functools import wraps

from django.contrib.messages import get_messages
from django.http import Http404
from django.utils import translation

from clubs.models import ClubRole
from tournaments.caching import answer

from .models import League


def _viewer(request) -> str:
    if not request.user.is_authenticated:
        return "public"
    if request.user.is_superuser:
        return f"user-{request.user.pk}-admin"
    roles = ClubRole.objects.filter(user=request.user, role=ClubRole.Role.DIRECTOR)
    return f"user-{request.user.pk}-td-{sorted(roles.values_list('club_id', flat=True))}"


def league_key(request, view_name: str, club: str, league: str, kwargs: dict) -> tuple[str, float]:
    """The page's identity with the league's version, and the time of its last change; 404 for no league."""
    row = League.objects.filter(club__slug=club, slug=league).values_list("pk", "version", "changed_at").first()
    if row is None:
        raise Http404
    pk, version, changed_at = row
    changed = changed_at.timestamp()
    parts = [
        view_name, f"league-{pk}", str(version), repr(changed), translation.get_language() or "", request.scheme,
        request.get_host(), _viewer(request), repr(sorted(kwargs.items())),
    ]  # fmt: skip
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:32], changed


def public_league_page(view):
    """Cache a public league view `(request, club, league, **kwargs)` (see the module's docstring)."""
    name = f"{view.__module__}.{view.__qualname__}"

    @wraps(view)
    def wrapper(request, club, league, **kwargs):
        if request.method not in ("GET", "HEAD") or request.GET or len(get_messages(request)):
            return view(request, club, league, **kwargs)
        key, changed = league_key(request, name, club, league, kwargs)
        return answer(request, key, changed, lambda: view(request, club, league, **kwargs))

    return wrapper
