"""A club's TD invites another TD: a signed, single-use link by e-mail; only the club's TDs can invite."""

from __future__ import annotations

import re
import unittest.mock
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Invitation
from audit.models import AuditEntry
from clubs.models import Club, ClubRole

pytestmark = pytest.mark.django_db


def invite(client, club, email="new.td@example.org"):
    return client.post(reverse("directors", args=[club.slug]), {"email": email})


def link_from(mail) -> str:
    return re.search(r"https?://testserver(/invitation/\S+/)", mail.body).group(1)


def test_a_td_invites_and_a_new_user_accepts(td_client, club, mailoutbox):
    response = invite(td_client, club)
    assert response.status_code == 302
    (mail,) = mailoutbox
    assert mail.to == ["new.td@example.org"] and club.name in mail.subject
    link = link_from(mail)
    td_client.logout()
    page = td_client.get(link).content.decode()
    assert club.name in page and "password" in page.lower()
    account = {"username": "newtd", "password1": "fresh-td-pass-3", "password2": "fresh-td-pass-3"}
    response = td_client.post(link, account)
    assert response.status_code == 302 and response["Location"] == club.get_absolute_url()
    user = get_user_model().objects.get(username="newtd")
    assert user.email == "new.td@example.org" and user.check_password("fresh-td-pass-3")
    assert club.is_director(user)
    assert td_client.session["_auth_user_id"] == str(user.pk)  # logged in as the new TD
    # The new TD can now direct the club.
    assert td_client.get(reverse("members", args=[club.slug])).status_code == 200
    # The link is used up.
    td_client.logout()
    response = td_client.get(link)
    assert response.status_code == 400 and "already been used" in response.content.decode()


def test_a_logged_in_viewer_accepts_and_becomes_td(td_client, club, viewer, mailoutbox):
    client = Client()
    invite(td_client, club, "member@example.org")
    link = link_from(mailoutbox[0])
    client.force_login(viewer)
    assert not club.is_director(viewer)
    assert "Accept as member" in client.get(link).content.decode()
    assert client.post(link).status_code == 302
    assert club.is_director(viewer)
    assert ClubRole.objects.filter(club=club, user=viewer).count() == 1
    invitation = Invitation.objects.get()
    assert invitation.accepted_by == viewer and invitation.accepted_at is not None


def test_a_bad_password_keeps_the_form_and_saves_nothing(td_client, club, mailoutbox):
    invite(td_client, club)
    link = link_from(mailoutbox[0])
    td_client.logout()
    response = td_client.post(link, {"username": "newtd", "password1": "abc", "password2": "abd"})
    assert response.status_code == 200
    assert not get_user_model().objects.filter(username="newtd").exists()
    assert Invitation.objects.get().accepted_at is None


@pytest.mark.parametrize("tamper", ["garbage", "flip"])
def test_a_forged_token_is_refused(td_client, club, mailoutbox, tamper):
    client = Client()
    invite(td_client, club)
    link = link_from(mailoutbox[0])
    token = link.rstrip("/").rsplit("/", 1)[1]
    forged = "not-a-token" if tamper == "garbage" else token[:-1] + ("A" if token[-1] != "A" else "B")
    response = client.post(
        reverse("accept_invitation", args=[forged]),
        {"username": "intruder", "password1": "fresh-td-pass-3", "password2": "fresh-td-pass-3"},
    )
    assert response.status_code == 400 and "not valid" in response.content.decode()
    assert not get_user_model().objects.filter(username="intruder").exists()


def make_days_ago(invitation: Invitation, days: float) -> None:
    Invitation.objects.filter(pk=invitation.pk).update(created=timezone.now() - timedelta(days=days))


def test_an_invitation_expires_seven_days_after_it_was_made(td_client, td, club, settings):
    """The clock starts when the invitation is made, not when its link is signed: a link signed today for
    an invitation made more than INVITATION_DAYS ago is refused."""
    assert settings.INVITATION_DAYS == 7
    client = Client()
    fresh = Invitation.objects.create(club=club, email="fresh@example.org", invited_by=td)
    old = Invitation.objects.create(club=club, email="old@example.org", invited_by=td)
    make_days_ago(fresh, 6.9)
    make_days_ago(old, 7.01)
    account = {"username": "late", "password1": "fresh-td-pass-3", "password2": "fresh-td-pass-3"}
    response = client.post(reverse("accept_invitation", args=[old.token]), account)
    assert response.status_code == 400 and "expired" in response.content.decode()
    assert not get_user_model().objects.filter(username="late").exists()
    page = td_client.get(reverse("directors", args=[club.slug])).content.decode()
    assert page.count("expired") == 1  # the old one; the fresh one is pending, with its button
    assert page.count(">Revoke</button>") == 1
    response = client.post(reverse("accept_invitation", args=[fresh.token]), account)
    assert response.status_code == 302 and club.is_director(get_user_model().objects.get(username="late"))


def test_an_expired_link_stays_expired_after_it_is_signed_again(td_client, club, mailoutbox, settings):
    invite(td_client, club)
    link = link_from(mailoutbox[0])
    invitation = Invitation.objects.get()
    later = timezone.now() + timedelta(days=settings.INVITATION_DAYS, minutes=1)
    with unittest.mock.patch.object(timezone, "now", return_value=later):
        assert Client().get(link).status_code == 400
        assert Client().get(reverse("accept_invitation", args=[invitation.token])).status_code == 400


def test_a_td_revokes_an_invitation(td_client, td, club, mailoutbox):
    invite(td_client, club)
    link = link_from(mailoutbox[0])
    invitation = Invitation.objects.get()
    page = td_client.get(reverse("directors", args=[club.slug])).content.decode()
    revoke = reverse("revoke_invitation", args=[club.slug, invitation.pk])
    assert f'action="{revoke}"' in page
    response = td_client.post(revoke)
    assert response.status_code == 302 and response["Location"] == reverse("directors", args=[club.slug])
    invitation.refresh_from_db()
    assert invitation.revoked_at is not None and invitation.revoked_by == td
    row = AuditEntry.objects.get(action="invitation-revoked")
    assert (row.username, row.club_id, row.before, row.after) == (
        "director",
        club.pk,
        {"email": invitation.email},
        None,
    )
    client = Client()
    response = client.post(link, {"username": "newtd", "password1": "fresh-td-pass-3", "password2": "fresh-td-pass-3"})
    assert response.status_code == 400 and "withdrawn" in response.content.decode()
    assert not get_user_model().objects.filter(username="newtd").exists()
    page = td_client.get(reverse("directors", args=[club.slug])).content.decode()
    assert "revoked" in page and f'action="{revoke}"' not in page
    # Revoking again changes nothing and says why.
    response = td_client.post(revoke, follow=True)
    assert "used, revoked or has expired" in response.content.decode()
    assert AuditEntry.objects.filter(action="invitation-revoked").count() == 1


def test_a_used_invitation_cannot_be_revoked(td_client, club, viewer, mailoutbox):
    invite(td_client, club, "member@example.org")
    client = Client()
    client.force_login(viewer)
    client.post(link_from(mailoutbox[0]))
    invitation = Invitation.objects.get()
    td_client.post(reverse("revoke_invitation", args=[club.slug, invitation.pk]))
    invitation.refresh_from_db()
    assert invitation.revoked_at is None and club.is_director(viewer)


def test_only_the_clubs_tds_revoke(client, td, club, viewer):
    other = Club.objects.create(name="Andere Club", slug="andere")
    other_td = get_user_model().objects.create_user("other-td", password="secret-pass-3")
    ClubRole.objects.create(club=other, user=other_td, role=ClubRole.Role.DIRECTOR)
    invitation = Invitation.objects.create(club=club, email="x@example.org", invited_by=td)
    assert client.post(reverse("revoke_invitation", args=[club.slug, invitation.pk])).status_code == 302  # login
    for user in (viewer, other_td):
        client.force_login(user)
        assert client.post(reverse("revoke_invitation", args=[club.slug, invitation.pk])).status_code == 403
    # Nor through the other club's address.
    assert client.post(reverse("revoke_invitation", args=[other.slug, invitation.pk])).status_code == 404
    invitation.refresh_from_db()
    assert invitation.revoked_at is None


def test_only_the_clubs_tds_can_invite(client, club, viewer, mailoutbox):
    other = Club.objects.create(name="Andere Club", slug="andere")
    other_td = get_user_model().objects.create_user("other-td", password="secret-pass-3")
    ClubRole.objects.create(club=other, user=other_td, role=ClubRole.Role.DIRECTOR)
    # Not logged in: to the login page.
    response = invite(client, club)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    # A viewer of the club, and a TD of another club: refused.
    for user in (viewer, other_td):
        client.force_login(user)
        assert client.get(reverse("directors", args=[club.slug])).status_code == 403
        assert invite(client, club).status_code == 403
    assert mailoutbox == [] and not Invitation.objects.exists()


def test_an_invitation_names_only_its_own_club(td_client, club, mailoutbox):
    client = Client()
    other = Club.objects.create(name="Andere Club", slug="andere")
    invite(td_client, club)
    link = link_from(mailoutbox[0])
    client.post(link, {"username": "newtd", "password1": "fresh-td-pass-3", "password2": "fresh-td-pass-3"})
    user = get_user_model().objects.get(username="newtd")
    assert club.is_director(user) and not other.is_director(user)


def test_a_bad_address_is_named(td_client, club, mailoutbox):
    response = invite(td_client, club, "not an address")
    assert response.status_code == 200 and "Enter a valid email address" in response.content.decode()
    assert mailoutbox == []
