"""What a competition's pages show of other apps' data: a change to it raises the versions of the competitions
that show it (tournaments.versioning). Connected in `TournamentsConfig.ready`.

A competition's own data (its rounds, games, byes, entries, prize table) raises its version through the
action that writes it, once per action (`versioning.one_action`), never per saved row; a deleted
competition's stamps are forgotten at once, so its pages answer 404 without waiting.
"""

from __future__ import annotations

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from clubs.models import Club, Member, Season

from . import versioning
from .models import Competition


@receiver(post_delete, sender=Competition)
def competition_deleted(sender, instance, **kwargs):
    """Its pages answer 404 at once, not from a cached stamp."""
    versioning.forget_stamps([instance.pk])


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
