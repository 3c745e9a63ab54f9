"""The public pages of a team league (its page, a match's page, a team's page), cached per league version,
with ETags and `304 Not Modified` answers, as the competitions' public pages are (`tournaments.caching`).

Every action on a league raises its version once (`pairing.services.leagues`), and a change of a name the
league's pages show (a member's, a club's) does too (`teams.signals`). A page's key is made of the view,
its arguments, the league's version and time of change, the language, the host, and who looks: anonymous
visitors share one copy; a logged-in user has his own, keyed also by the clubs he directs now (a TD sees
links the public does not), so a TD removed from a club is never served a copy, nor a 304, made while he
was its TD. The version is read as the competitions' is: from the league's stamp in the process's memory,
else from the database (`tournaments.versioning`; a league's stamp has its own key, `league_stamp_key`, and
its own address, LEAGUE); every bump of a league's version forgets this process's stamp of it
(`forget_league_stamps`). The pages are throttled as the competitions' are (`tournaments.caching.answer`,
with the league's own render marker), except those of a TD of the league's club (his own change shows at
once). Requests with query parameters, with messages waiting, or not GET/HEAD pass through uncached.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from functools import wraps

from django.contrib.messages import get_messages
from django.utils import translation

from clubs.models import ClubRole
from tournaments.caching import answer, read_stamp
from tournaments.versioning import drop_stamps, stamp_key

from .models import League

LEAGUE = "league-"  # a league's stamp address and render marker: its primary key is no competition's


def league_stamp_key(club: str, league: str) -> str:
    """The cache key of a league's stamp (its primary key, version and time of change), by its address; a
    slug has no "/", so no competition's key is the same."""
    return stamp_key(club, f"leagues/{league}")


def _stamp(club: str, league: str) -> tuple[int, int, float]:
    """The league's primary key, version and time of change: from the process's memory, else from the
    database; 404 for no league."""
    return read_stamp(league_stamp_key(club, league), League.objects.filter(club__slug=club, slug=league), LEAGUE)


def forget_league_stamps(leagues: Iterable[int]) -> None:
    """Drop this process's stamps of these leagues (primary keys), now and when the transaction commits: their
    version was raised."""
    pks = list(leagues)
    if pks:
        drop_stamps(pks, LEAGUE)


def _viewer(request, club: str) -> tuple[str, bool]:
    """Whose copy, and whether he directs the league's club `club` (a superuser directs every club)."""
    if not request.user.is_authenticated:
        return "public", False
    if request.user.is_superuser:
        return f"user-{request.user.pk}-admin", True
    roles = ClubRole.objects.filter(user=request.user, role=ClubRole.Role.DIRECTOR)
    directed = sorted(roles.values_list("club_id", "club__slug"))
    ids = [pk for pk, _slug in directed]
    return f"user-{request.user.pk}-td-{ids}", any(slug == club for _pk, slug in directed)


def _digest(parts: list[str]) -> str:
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:32]


def league_key(request, view_name: str, club: str, league: str, kwargs: dict):
    """The page's identity with the league's version, the time of its last change, the page's identity
    whatever the version (None for a page of a TD of the league's club, which is never throttled) and the
    league's primary key; 404 for no league."""
    pk, version, changed = _stamp(club, league)
    viewer, directs = _viewer(request, club)
    parts = [
        view_name, f"league-{pk}", translation.get_language() or "", request.scheme, request.get_host(), viewer,
        repr(sorted(kwargs.items())),
    ]  # fmt: skip
    key = _digest([*parts[:2], str(version), repr(changed), *parts[2:]])
    return key, changed, None if directs else _digest(["league-page", *parts]), pk


def public_league_page(view):
    """Cache a public league view `(request, club, league, **kwargs)` (see the module's docstring)."""
    name = f"{view.__module__}.{view.__qualname__}"

    @wraps(view)
    def wrapper(request, club, league, **kwargs):
        if request.method not in ("GET", "HEAD") or request.GET or len(get_messages(request)):
            return view(request, club, league, **kwargs)
        key, changed, page, pk = league_key(request, name, club, league, kwargs)
        return answer(
            request, key, changed, lambda: view(request, club, league, **kwargs), page=page, pk=pk, kind=LEAGUE
        )

    return wrapper
