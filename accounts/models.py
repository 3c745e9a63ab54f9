"""Invitations: a club's TD asks someone by e-mail to become a TD of the club, or to link the account they
have (or make one) to one of the club's members."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Member

SALT = "clubavond.accounts.invitation"


class Invitation(models.Model):
    """One invitation; its link carries a signed token. It is valid for `INVITATION_DAYS` from the moment it
    was made (`created`, whenever the link was signed), usable once, and a TD of the club may revoke it."""

    class Kind(models.TextChoices):
        DIRECTOR = "director", _("tournament director")
        MEMBER = "member", _("member's login")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices, default=Kind.DIRECTOR)
    member = models.ForeignKey(
        Member, on_delete=models.CASCADE, null=True, blank=True, related_name="invitations", verbose_name=_("member")
    )
    email = models.EmailField(_("e-mail address"))
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="invitations_sent"
    )
    created = models.DateTimeField(auto_now_add=True)
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-created"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(kind="director", member__isnull=True)
                | models.Q(kind="member", member__isnull=False),
                name="invitation_member_for_member_kind",
            )
        ]

    def __str__(self) -> str:
        return f"{self.email} → {self.member or self.club}"

    @property
    def token(self) -> str:
        return signing.dumps(self.pk, salt=SALT)

    @classmethod
    def from_token(cls, token: str) -> Invitation | None:
        """The invitation a token names if its signature is right; None otherwise. Whether it can still be
        used (not expired, revoked or used) is `problem`'s answer, from the invitation's own dates."""
        try:
            pk = signing.loads(token, salt=SALT)
        except signing.BadSignature:
            return None
        return cls.objects.select_related("club", "member").filter(pk=pk).first()

    @property
    def expires(self):
        return self.created + timedelta(days=settings.INVITATION_DAYS)

    @property
    def expired(self) -> bool:
        return timezone.now() > self.expires

    @property
    def pending(self) -> bool:
        """Still usable: neither accepted, revoked nor expired."""
        return not (self.accepted_at or self.revoked_at or self.expired)

    def problem(self) -> str:
        """Why the invitation cannot be accepted, in the invitee's words; empty when it can."""
        if self.accepted_at:
            return _("This invitation has already been used.")
        if self.revoked_at:
            return _("This invitation was withdrawn by the club. Ask the club's TD for a new one.")
        if self.expired:
            return _("This invitation link is not valid or has expired. Ask the club's TD for a new one.")
        return ""
