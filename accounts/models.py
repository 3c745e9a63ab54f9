"""Invitations: a club's TD asks someone by e-mail to become a TD of the club too."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Club

SALT = "clubavond.accounts.invitation"


class Invitation(models.Model):
    """One invitation; its link carries a signed token, valid for `INVITATION_DAYS` and usable once."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField(_("e-mail address"))
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="invitations_sent"
    )
    created = models.DateTimeField(auto_now_add=True)
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-created"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    def __str__(self) -> str:
        return f"{self.email} → {self.club}"

    @property
    def token(self) -> str:
        return signing.dumps(self.pk, salt=SALT)

    @classmethod
    def from_token(cls, token: str) -> Invitation | None:
        """The invitation a token names, if the signature is right and it has not expired; None otherwise."""
        try:
            pk = signing.loads(token, salt=SALT, max_age=timedelta(days=settings.INVITATION_DAYS))
        except signing.BadSignature:  # SignatureExpired is one too
            return None
        return cls.objects.select_related("club").filter(pk=pk).first()

    @property
    def expired(self) -> bool:
        return timezone.now() - self.created > timedelta(days=settings.INVITATION_DAYS)
