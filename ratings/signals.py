"""A member's rating history is drawn on the competition pages: a rating change raises their versions."""

from __future__ import annotations

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from tournaments import versioning

from .models import RatingChange


@receiver(post_save, sender=RatingChange, dispatch_uid="rating-change-saved")
@receiver(post_delete, sender=RatingChange, dispatch_uid="rating-change-deleted")
def rating_change_saved(sender, instance, raw=False, **kwargs):
    """A member's rating history is drawn on the competition's player page."""
    if not raw:
        versioning.bump_members([instance.member_id])
