"""What a league's public pages show of other apps' data (a member's name, title and rating, a club's
name): a change to it raises the versions of the leagues that show it (`teams.caching`). Connected in
`TeamsConfig.ready`. A league's own rows raise its version through the action that writes them
(`pairing.services.leagues`), once per action."""

from __future__ import annotations

from django.db.models import F, Q
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.utils import timezone

from clubs.models import Club, Member, Season

from .caching import forget_league_stamps
from .models import League


def bump_leagues(leagues: Q) -> None:
    """Raise the version of the leagues `leagues` selects (their cached pages' key), forgetting this process's
    stamps of them."""
    ids = sorted(set(League.objects.filter(leagues).values_list("pk", flat=True)))
    if ids:
        League.objects.filter(pk__in=ids).update(version=F("version") + 1, changed_at=timezone.now())
        forget_league_stamps(ids)


@receiver(post_save, sender=Member)
def member_saved(sender, instance, created=False, raw=False, **kwargs):
    """A member on a roster, on a board or captaining a team: his name and rating are on the pages."""
    if not raw and not created:
        m = instance.pk
        bump_leagues(
            Q(teams__players__member=m) | Q(teams__captain=m)
            | Q(matches__boards__home_player=m) | Q(matches__boards__away_player=m)
        )  # fmt: skip


@receiver(post_save, sender=Club)
def club_saved(sender, instance, created=False, raw=False, **kwargs):
    if not raw and not created:
        bump_leagues(Q(club=instance.pk) | Q(teams__club=instance.pk))


@receiver(post_save, sender=Season)
def season_saved(sender, instance, created=False, raw=False, **kwargs):
    if not raw and not created:
        bump_leagues(Q(season=instance.pk))
