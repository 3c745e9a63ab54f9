"""Inviting a TD: the invitation row, its line in the audit log and the mail with its link, in the
invitee's language; making a user a TD at once (a new club's first TD from the command line)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from audit.log import record
from clubs.languages import language_of
from clubs.models import Club, ClubRole

from .models import Invitation


def invitee_language(email: str, club: Club) -> str:
    """The invitee's own language if he has an account with this address, else the club's, else the page's
    (the one the inviter reads) or the site's."""
    user = get_user_model().objects.filter(email__iexact=email).order_by("pk").first()
    if user is not None or club.language:
        return language_of(user, club)
    return translation.get_language() or settings.LANGUAGE_CODE


def create_invitation(club: Club, email: str, invited_by) -> Invitation:
    """An invitation to direct `club` and its line in the audit log (`invited_by` None: the site's command
    line)."""
    with transaction.atomic():
        invitation = Invitation.objects.create(club=club, email=email, invited_by=invited_by)
        record(invited_by, "invite-td", club, None, {"email": invitation.email})
    return invitation


def invitation_link(invitation: Invitation, site_url: str) -> str:
    return site_url.rstrip("/") + reverse("accept_invitation", args=[invitation.token])


def send_invitation(invitation: Invitation, site_url: str) -> str:
    """The invitation's mail (to direct the club, or to be a member's login) with its link (starting with
    `site_url`), in the invitee's language; the link."""
    club = invitation.club
    link = invitation_link(invitation, site_url)
    context = {
        "club": club,
        "member": invitation.member,
        "inviter": invitation.invited_by,
        "link": link,
        "days": settings.INVITATION_DAYS,
    }
    with translation.override(invitee_language(invitation.email, club)):
        subject = render_to_string("registration/invitation_subject.txt", context).strip()
        body = render_to_string("registration/invitation_email.txt", context)
    send_mail(subject, body, None, [invitation.email])
    return link


@transaction.atomic
def make_director(club: Club, user, by=None, email: str | None = None) -> None:
    """Make `user` a TD of `club` (his role there, if any, becomes TD); recorded with `by` and the address he
    was invited at (`email`; his account's by default)."""
    old = ClubRole.objects.filter(club=club, user=user).values_list("role", flat=True).first()
    ClubRole.objects.update_or_create(club=club, user=user, defaults={"role": ClubRole.Role.DIRECTOR})
    change = {"user": user.get_username(), "email": user.email if email is None else email}
    record(by, "td-added", club, change | {"role": old}, change | {"role": ClubRole.Role.DIRECTOR})
