"""A member's rating history is drawn on the competitions' player pages: a rating change raises the
version of every competition the member plays in (`tournaments.versioning`), so their cached pages renew."""

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from tournaments import versioning

from .models import RatingChange


@receiver(post_save, sender=RatingChange, dispatch_uid="rating-change-saved")
@receiver(post_delete, sender=RatingChange, dispatch_uid="rating-change-deleted")
def rating_change_saved(sender, instance, raw=False, **kwargs):
    if not raw:
        versioning.bump_members([instance.member_id])
