"""Every page is private unless it is named public here: `Cache-Control: private, no-store`.

Private pages (a member's own page, every TD page, history, exports and backups, invitations, logins,
the admin) hold what neither the browser's cache, its back button, nor a proxy may keep: a TD who is
removed from a club, or who logs out on a shared computer, leaves no copy behind. The public pages
below keep their own caching (`tournaments.caching`: ETags and `304 Not Modified`; the calendars'
feeds a few minutes). A new page is private until its URL name is added to PUBLIC.
"""

from __future__ import annotations

PRIVATE = "private, no-store"

# URL names of the pages anyone may read, logged in or not.
PUBLIC = frozenset(
    {
        "home",
        "club",
        "club_calendar",
        "club_feed",
        "competition_calendar",
        "standings",
        "pairings_latest",
        "pairings",
        "crosstable",
        "live_board",
        "player",
        "bracket",
        "prize_list",
        "tiebreak_explanation",
        "league",
        "league_match_page",
        "league_team",
    }
)


class PrivatePagesMiddleware:
    """Marks the answer of every page not in PUBLIC `private, no-store` (a stricter header it keeps)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        match = getattr(request, "resolver_match", None)
        if match is not None and match.view_name not in PUBLIC:
            directives = {part.strip().lower() for part in response.get("Cache-Control", "").split(",")}
            if not {"private", "no-store"} <= directives:
                response["Cache-Control"] = PRIVATE
        return response
