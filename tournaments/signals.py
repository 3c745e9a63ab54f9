"""Every save and delete of data a public page shows raises the competition's version (tournaments.versioning).

The services call `bump` themselves too; these receivers make the admin, imports and any other path
invalidate the cached pages as well. Connected in `TournamentsConfig.ready`.
"""

from __future__ import annotations

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from clubs.models import Club, Member, Season

from . import versioning
from .models import Bye, Competition, Game, Participant, PrizeTable, Round


def _competition_of_round(instance) -> int | None:
    """The competition of a game's or bye's round, without a query when the round is at hand."""
    field = type(instance).round
    if field.is_cached(instance):
        return instance.round.competition_id
    return Round.objects.filter(pk=instance.round_id).values_list("competition_id", flat=True).first()


@receiver(post_save, sender=Competition)
def competition_saved(sender, instance, raw=False, **kwargs):
    if not raw:
        versioning.bump(instance)


@receiver(post_delete, sender=Competition)
def competition_deleted(sender, instance, **kwargs):
    """Its pages answer 404 at once, not from a cached stamp."""
    versioning.forget_stamps([instance.pk])


@receiver([post_save, post_delete], sender=Participant)
@receiver([post_save, post_delete], sender=Round)
@receiver([post_save, post_delete], sender=PrizeTable)
def part_changed(sender, instance, raw=False, **kwargs):
    if not raw:
        versioning.bump(instance.competition_id)


@receiver([post_save, post_delete], sender=Game)
@receiver([post_save, post_delete], sender=Bye)
def round_part_changed(sender, instance, raw=False, **kwargs):
    if not raw:
        versioning.bump(_competition_of_round(instance))


@receiver(post_save, sender=Member)
def member_saved(sender, instance, created=False, raw=False, **kwargs):
    if not raw and not created:
        versioning.bump_members([instance.pk])


@receiver(post_save, sender=Club)
def club_saved(sender, instance, created=False, raw=False, **kwargs):
    if not raw and not created:
        versioning.bump_club(instance.pk)


@receiver(post_save, sender=Season)
def season_saved(sender, instance, created=False, raw=False, **kwargs):
    if not raw and not created:
        versioning.bump_many(instance.competitions.values_list("pk", flat=True))
