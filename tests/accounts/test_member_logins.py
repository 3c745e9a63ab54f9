"""A member's login, given by a TD of the member's club: a new account made on the page, or an invitation by
e-mail with which the member links the account they have (or makes one). No page of a club changes, links or
shows an account that exists; every change to an account is in the audit log with its values before and
after."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.changes import password_mark
from accounts.models import Invitation
from audit.models import AuditEntry
from clubs.models import Club, ClubRole, Member
from tests.conftest import make_members

pytestmark = pytest.mark.django_db

FIRST_PASSWORD = "a-long-first-pass-9"


def account_url(member) -> str:
    return reverse("member_account", args=[member.club.slug, member.pk])


def new_account(client, member, username="anna", email="anna@example.org", password=FIRST_PASSWORD):
    data = {"action": "account", "username": username, "email": email, "password1": password, "password2": password}
    return client.post(account_url(member), data)


def invite(client, member, email="anna@example.org"):
    return client.post(account_url(member), {"action": "invite", "email": email})


def link_from(mail) -> str:
    return re.search(r"https?://testserver(/invitation/\S+/)", mail.body).group(1)


@pytest.fixture
def other_club():
    """Another club, its TD with an e-mail address, and a superuser: accounts a club's page must not reach."""
    club = Club.objects.create(name="Andere Club", slug="andere")
    users = get_user_model().objects
    other_td = users.create_user("other-td", email="other.td@andere.example.org", password="other-td-pass-3")
    ClubRole.objects.create(club=club, user=other_td, role=ClubRole.Role.DIRECTOR)
    admin = users.create_superuser("root", email="root@site.example.org", password="root-pass-long-3")
    return club, other_td, admin


def account_state(user) -> tuple:
    user.refresh_from_db()
    return user.email, user.password, Member.objects.filter(user=user).exists()


# Regression: a TD of one club reaching another club's (or the site's) accounts ---------------------------


@pytest.mark.parametrize("victim_name", ["other-td", "root"])
def test_an_existing_user_name_with_an_email_changes_nothing(td_client, members, other_club, victim_name):
    victim = get_user_model().objects.get(username=victim_name)
    before = account_state(victim)
    member = members[0]
    posts = [
        {"username": victim_name, "email": "attacker@evil.example.org", "password": ""},  # the page's old form
        {"action": "account", "username": victim_name, "email": "attacker@evil.example.org",
         "password1": FIRST_PASSWORD, "password2": FIRST_PASSWORD},
        {"action": "account", "username": victim_name.upper(), "email": "attacker@evil.example.org",
         "password1": FIRST_PASSWORD, "password2": FIRST_PASSWORD},
    ]  # fmt: skip
    for data in posts:
        response = td_client.post(account_url(member), data)
        assert response.status_code == 200  # the form again, with its reason
        assert victim.email not in response.content.decode()
    assert "is taken" in response.content.decode()
    assert account_state(victim) == before
    member.refresh_from_db()
    assert member.user is None
    assert not AuditEntry.objects.filter(action__in=["member-login", "account-created"]).exists()


@pytest.mark.parametrize("victim_name", ["other-td", "root"])
def test_an_existing_user_name_without_an_email_neither_links_nor_shows_it(td_client, members, other_club, victim_name):
    victim = get_user_model().objects.get(username=victim_name)
    before = account_state(victim)
    member = members[0]
    for data in ({"username": victim_name}, {"action": "account", "username": victim_name}):
        response = td_client.post(account_url(member), data)
        assert response.status_code in (200, 302)
        assert victim.email not in response.content.decode()
    member.refresh_from_db()
    assert member.user is None and account_state(victim) == before
    for page in (account_url(member), reverse("members", args=[member.club.slug])):
        body = td_client.get(page).content.decode()
        assert victim.email not in body and victim_name not in body


def test_the_page_shows_a_linked_accounts_name_not_its_email(td_client, members):
    user = get_user_model().objects.create_user("anna", email="anna.private@example.org", password="anna-pass-long-3")
    members[0].user = user
    members[0].save()
    body = td_client.get(account_url(members[0])).content.decode()
    assert "anna" in body and "anna.private@example.org" not in body


def test_only_the_clubs_td_gives_logins(client, viewer, members, other_club):
    _, other_td, _ = other_club
    for user in (viewer, other_td):
        client.force_login(user)
        assert client.get(account_url(members[0])).status_code == 403
        assert new_account(client, members[0]).status_code == 403
        assert invite(client, members[0]).status_code == 403
    members[0].refresh_from_db()
    assert members[0].user is None
    assert not get_user_model().objects.filter(username="anna").exists() and not Invitation.objects.exists()


def test_a_member_of_another_club_is_not_found(td_client, other_club):
    (stranger,) = make_members(other_club[0], 1)
    assert td_client.get(account_url(stranger).replace("/andere/", "/testclub/")).status_code == 404


# A new account --------------------------------------------------------------------------------------------


def test_a_td_makes_a_member_a_new_account(td_client, td, members):
    member = members[0]
    response = new_account(td_client, member, password="123")
    assert response.status_code == 200 and not get_user_model().objects.filter(username="anna").exists()
    response = new_account(td_client, member)
    assert response.status_code == 302
    member.refresh_from_db()
    user = member.user
    assert user.username == "anna" and user.email == "anna@example.org" and user.check_password(FIRST_PASSWORD)
    # The audit rows: the account, with its e-mail address, and the member's login.
    made = AuditEntry.objects.get(action="account-created")
    assert (made.username, made.object_type, made.object_id) == ("director", "user", str(user.pk))
    assert made.before is None
    assert made.after == {"username": "anna", "email": "anna@example.org", "password": password_mark(user)}
    assert FIRST_PASSWORD not in str(made.after) and user.password not in str(made.after)
    login = AuditEntry.objects.get(action="member-login")
    assert (login.before, login.after, login.club_id) == ({"user": None}, {"user": "anna"}, member.club_id)
    # One login, one member; a member with a login gets no second one.
    response = td_client.post(
        account_url(member),
        {"action": "account", "username": "anna2", "password1": FIRST_PASSWORD, "password2": FIRST_PASSWORD},
        follow=True,
    )
    assert "has a login already" in response.content.decode()
    assert not get_user_model().objects.filter(username="anna2").exists()


def test_removing_the_login_unlinks_and_keeps_the_account(td_client, members):
    new_account(td_client, members[0])
    user = get_user_model().objects.get(username="anna")
    response = td_client.post(account_url(members[0]), {"action": "remove"})
    assert response.status_code == 302
    members[0].refresh_from_db()
    assert members[0].user is None
    user.refresh_from_db()
    assert user.email == "anna@example.org" and user.check_password(FIRST_PASSWORD)
    removed = AuditEntry.objects.filter(action="member-login").order_by("id").last()
    assert (removed.before, removed.after) == ({"user": "anna"}, {"user": None})


# An invitation to link an account -------------------------------------------------------------------------


def test_a_member_links_the_account_they_have(td_client, td, members, mailoutbox):
    member = members[0]
    owner = get_user_model().objects.create_user("anna", email="anna.own@example.org", password="anna-pass-long-3")
    assert invite(td_client, member, "anna@example.org").status_code == 302
    (mail,) = mailoutbox
    assert mail.to == ["anna@example.org"] and member.full_name in mail.body
    invitation = Invitation.objects.get()
    assert (invitation.kind, invitation.member) == (Invitation.Kind.MEMBER, member)
    assert AuditEntry.objects.get(action="invite-member").after == {"email": "anna@example.org"}
    client = Client()
    client.force_login(owner)
    link = link_from(mail)
    assert "Accept as anna" in client.get(link).content.decode()
    response = client.post(link)
    assert response.status_code == 302 and response["Location"] == reverse("my_page")
    member.refresh_from_db()
    assert member.user == owner
    owner.refresh_from_db()
    assert owner.email == "anna.own@example.org"  # the account's own address is kept
    linked = AuditEntry.objects.get(action="member-login")
    assert (linked.username, linked.before, linked.after) == ("anna", {"user": None}, {"user": "anna"})
    assert not member.club.is_director(owner)
    # The link is used up.
    assert client.post(link).status_code == 400
    # The TD sees the login's name, not the account's address.
    body = td_client.get(account_url(member)).content.decode()
    assert "anna" in body and "anna.own@example.org" not in body


def test_a_member_makes_an_account_through_the_invitation(td_client, members, mailoutbox):
    member = members[0]
    invite(td_client, member, "anna@example.org")
    link = link_from(mailoutbox[0])
    client = Client()
    account = {"username": "anna", "password1": "anna-pass-long-3", "password2": "anna-pass-long-3"}
    assert client.post(link, account).status_code == 302
    user = get_user_model().objects.get(username="anna")
    member.refresh_from_db()
    assert member.user == user and user.email == "anna@example.org"
    made = AuditEntry.objects.get(action="account-created")
    assert made.username == "anna"
    assert made.after == {"username": "anna", "email": "anna@example.org", "password": password_mark(user)}


def test_an_account_that_is_another_members_login_is_not_linked_twice(td_client, members, mailoutbox):
    owner = get_user_model().objects.create_user("anna", password="anna-pass-long-3")
    members[1].user = owner
    members[1].save()
    invite(td_client, members[0])
    client = Client()
    client.force_login(owner)
    response = client.post(link_from(mailoutbox[0]))
    assert response.status_code == 400 and "already the login of" in response.content.decode()
    members[0].refresh_from_db()
    assert members[0].user is None and Invitation.objects.get().accepted_at is None


def test_a_td_revokes_a_members_invitation(td_client, members, mailoutbox):
    member = members[0]
    invite(td_client, member)
    invitation = Invitation.objects.get()
    revoke = reverse("revoke_invitation", args=[member.club.slug, invitation.pk])
    assert f'action="{revoke}"' in td_client.get(account_url(member)).content.decode()
    response = td_client.post(revoke)
    assert response.status_code == 302 and response["Location"] == account_url(member)
    owner = get_user_model().objects.create_user("anna", password="anna-pass-long-3")
    client = Client()
    client.force_login(owner)
    response = client.post(link_from(mailoutbox[0]))
    assert response.status_code == 400 and "withdrawn" in response.content.decode()
    member.refresh_from_db()
    assert member.user is None
    row = AuditEntry.objects.get(action="invitation-revoked")
    assert (row.object_type, row.object_id, row.club_id) == ("member", str(member.pk), member.club_id)


def test_account_changes_in_the_admin_have_their_values_before_and_after(client, other_club, members):
    _, other_td, root = other_club
    client.force_login(root)
    change = reverse("admin:auth_user_change", args=[other_td.pk])
    joined = timezone.localtime(other_td.date_joined)
    data = {
        "username": "other-td", "first_name": "", "last_name": "", "email": "moved@andere.example.org",
        "is_active": "on", "date_joined_0": joined.strftime("%Y-%m-%d"), "date_joined_1": joined.strftime("%H:%M:%S"),
        "last_login_0": "", "last_login_1": "", "_save": "Save",
    }  # fmt: skip
    assert client.post(change, data).status_code == 302
    row = AuditEntry.objects.get(action="account-change")
    assert row.username == "root" and row.object_id == str(other_td.pk)
    assert (row.before["email"], row.after["email"]) == ("other.td@andere.example.org", "moved@andere.example.org")
    password = reverse("admin:auth_user_password_change", args=[other_td.pk])
    new = {"password1": "set-by-admin-77", "password2": "set-by-admin-77", "usable_password": "true"}
    assert client.post(password, new).status_code == 302
    other_td.refresh_from_db()
    row = AuditEntry.objects.get(action="password-change")
    assert row.username == "root" and row.after["password"] == password_mark(other_td) != row.before["password"]
    # The member's login, set in the admin.
    member_change = reverse("admin:clubs_member_change", args=[members[0].pk])
    page = client.get(member_change)
    form = page.context["adminform"].form
    data = {name: form[name].value() or "" for name in form.fields} | {"user": str(other_td.pk), "_save": "Save"}
    assert client.post(member_change, data).status_code == 302
    row = AuditEntry.objects.get(action="member-login")
    assert (row.username, row.before, row.after) == ("root", {"user": None}, {"user": "other-td"})
