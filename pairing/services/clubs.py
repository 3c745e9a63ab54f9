"""A club removed with every row of it (its competitions, the leagues it organises, its members), as one
action: one transaction, one audit entry (`club-remove`). The rows of a competition and a league protect
what they refer to (a game its players, a match its teams, a board its players, a team its club), so
they are removed first, from the games and the matches up. The audit log stays (it is append-only).

A club whose team plays in a league another club organises, or whose member is on such a team, is not
removed: that league's organiser removes the team first (`ValidationError` names the league).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import ProtectedError, Q
from django.utils.translation import gettext as _

from audit.log import record
from clubs.models import Club
from teams.models import BoardResult, League, Match, Team, TeamPlayer
from tournaments.models import Competition, Game


def remove_club(club: Club, user) -> None:
    """Remove `club` and all its data (module docstring)."""
    with transaction.atomic():
        club = Club.objects.select_for_update().get(pk=club.pk)
        leagues = League.objects.filter(club=club)
        members = club.members.all()
        elsewhere = (
            Team.objects.filter(Q(club=club) | Q(players__member__in=members) | Q(captain__in=members))
            .exclude(league__in=leagues)
            .select_related("league")
            .first()
        )
        played = BoardResult.objects.filter(Q(home_player__in=members) | Q(away_player__in=members))
        elsewhere = elsewhere or (played.exclude(match__league__in=leagues).select_related("match__league").first())
        if elsewhere is not None:
            league = elsewhere.league if isinstance(elsewhere, Team) else elsewhere.match.league
            raise ValidationError(
                _("%(club)s plays in %(league)s, which another club organises: its team is removed there first.")
                % {"club": club.name, "league": league.name}
            )
        Match.objects.filter(league__in=leagues).delete()  # their line-ups and boards with them
        TeamPlayer.objects.filter(team__league__in=leagues).delete()
        Team.objects.filter(league__in=leagues).delete()
        leagues.delete()
        competitions = Competition.objects.filter(club=club)
        Game.objects.filter(round__competition__in=competitions).delete()
        competitions.delete()
        params = {"club": club.slug, "club_name": club.name}
        record(user, "club-remove", club, label=club.name, params=params)
        try:
            club.delete()
        except ProtectedError as error:  # a member plays in another club's competition
            names = sorted({str(obj) for obj in error.protected_objects})[:5]
            raise ValidationError(
                _("%(club)s cannot be removed: other clubs' rows refer to it (%(rows)s).")
                % {"club": club.name, "rows": ", ".join(names)}
            ) from None
