"""When a round is published, its pairings are mailed (once) by the worker to the players who asked."""

from __future__ import annotations

from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from tournaments.models import Round


@receiver(post_save, sender=Round, dispatch_uid="season-pairing-mail")
def round_published(sender, instance: Round, update_fields=None, **kwargs) -> None:
    if instance.status != Round.Status.PUBLISHED or not update_fields or "published_at" not in update_fields:
        return
    round_id = instance.pk

    def queue() -> None:
        from .models import PairingMail
        from .tasks import recipients, send_pairing_mail

        rnd = Round.objects.select_related("competition").get(pk=round_id)
        if not recipients(rnd):
            return
        _mail, created = PairingMail.objects.get_or_create(round=rnd)
        if created:
            send_pairing_mail.enqueue(round_id)

    transaction.on_commit(queue)
