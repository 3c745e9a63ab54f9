"""Starting a club: `manage.py startclub` on the command line, or a site administrator's page; either way
the club's first TD is invited (the TDs' own invitation) or appointed, and the audit log records it."""

from __future__ import annotations

import re
from io import StringIO
from unittest import mock

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from accounts.models import Invitation
from audit.models import AuditEntry
from clubs.models import Club

pytestmark = pytest.mark.django_db


def startclub(*args: str) -> str:
    out = StringIO()
    call_command("startclub", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def test_startclub_invites_the_first_td_who_accepts_the_link():
    out = startclub("SV De Pion", "--city", "Delft", "--federation", "ned", "--language", "nl",
                    "--td-email", "anna@example.org")  # fmt: skip
    club = Club.objects.get()
    assert (club.name, club.slug, club.city, club.federation, club.language) == (
        "SV De Pion", "sv-de-pion", "Delft", "NED", "nl"
    )  # fmt: skip
    invitation = Invitation.objects.get()
    assert invitation.club == club and invitation.email == "anna@example.org" and invitation.invited_by is None
    (invite,) = mail.outbox
    assert invite.to == ["anna@example.org"]
    assert "wedstrijdleider van SV De Pion" in invite.body  # the club's language: the invitee has no account
    link = re.search(r"/invitation/\S+/", out).group(0)
    assert link in invite.body and out.count(settings.SITE_URL) >= 2
    actions = list(AuditEntry.objects.filter(club_id=club.pk).values_list("action", flat=True).order_by("pk"))
    assert actions == ["club-started", "invite-td"]
    # The link works as a TD's invitation does: an account, and the club directed.
    client = Client()
    client.post(link, {"username": "anna", "password1": "anna-td-pass-7", "password2": "anna-td-pass-7"})
    anna = get_user_model().objects.get(username="anna")
    assert club.is_director(anna) and anna.email == "anna@example.org"
    assert client.get(reverse("members", args=[club.slug])).status_code == 200


def test_startclub_appoints_an_existing_account_at_once():
    user = get_user_model().objects.create_user("bent", password="bent-pass-123")
    out = startclub("Skakklubben Springeren", "--slug", "springeren", "--td-user", "bent")
    club = Club.objects.get(slug="springeren")
    assert club.is_director(user) and "bent directs it" in out
    assert not Invitation.objects.exists() and mail.outbox == []


def test_startclub_makes_a_new_account_with_a_password_asked_twice():
    answers = iter(["new-td-pass-42", "new-td-pass-42"])
    asked = mock.patch("getpass.getpass", lambda _prompt: next(answers))
    with mock.patch("sys.stdin.isatty", return_value=True), asked:
        startclub("Club", "--td-user", "carla", "--td-email", "carla@example.org")
    carla = get_user_model().objects.get(username="carla")
    assert carla.check_password("new-td-pass-42") and carla.email == "carla@example.org"
    assert Club.objects.get(slug="club").is_director(carla)


@pytest.mark.parametrize(
    "args, problem",
    [
        (["Club"], "Name the first TD"),
        (["Club", "--td-email", "not-an-address"], "is not an e-mail address"),
        (["Admin", "--td-email", "a@example.org"], "is reserved"),
        (["Club", "--slug", "bad slug!", "--td-email", "a@example.org"], "short name"),
        (["", "--slug", "x", "--td-email", "a@example.org"], "name"),
        (["Club", "--td-user", "newbie"], "run the command in a terminal"),
    ],
)
def test_startclub_refuses_bad_input_and_saves_nothing(args, problem):
    with pytest.raises(CommandError, match=problem):
        startclub(*args)
    assert not Club.objects.exists() and not Invitation.objects.exists() and not AuditEntry.objects.exists()


def test_startclub_refuses_a_short_name_that_is_taken(club):
    with pytest.raises(CommandError, match="already a club"):
        startclub("Another", "--slug", club.slug, "--td-email", "a@example.org")
    assert Club.objects.count() == 1


def test_a_site_administrator_starts_a_club_on_a_page():
    admin = get_user_model().objects.create_user("site", password="site-pass-123", is_staff=True)
    client = Client()
    client.force_login(admin)
    assert 'id="new-club-link"' in client.get(reverse("home")).content.decode()
    form = {"name": "Schaakclub Rokade", "slug": "", "city": "Utrecht", "federation": "NED", "language": "nl",
            "td_email": "td@rokade.example.org"}  # fmt: skip
    response = client.post(reverse("new_club"), form)
    club = Club.objects.get(slug="schaakclub-rokade")
    assert response.status_code == 302 and response["Location"] == club.get_absolute_url()
    (invite,) = mail.outbox
    assert invite.to == ["td@rokade.example.org"] and "http://testserver/invitation/" in invite.body
    entry = AuditEntry.objects.get(action="club-started")
    assert entry.username == "site" and entry.after["name"] == "Schaakclub Rokade"
    # The same short name again: refused with a message, nothing saved.
    response = client.post(reverse("new_club"), form | {"name": "Rokade", "slug": "schaakclub-rokade"})
    assert response.status_code == 200 and "already a club" in response.content.decode()
    assert Club.objects.count() == 1 and len(mail.outbox) == 1


def test_only_a_site_administrator_may_start_a_club(client, club, td):
    client.force_login(td)  # a club's TD is no site administrator
    assert 'id="new-club-link"' not in client.get(reverse("home")).content.decode()
    assert client.get(reverse("new_club")).status_code == 403
    assert client.post(reverse("new_club"), {"name": "X", "td_email": "x@example.org"}).status_code == 403
    assert Club.objects.count() == 1
    client.logout()
    assert client.get(reverse("new_club")).status_code == 302  # to the login


def test_no_club_may_take_an_address_of_the_site():
    staff = get_user_model().objects.create_superuser("root", password="root-pass-123")
    client = Client()
    client.force_login(staff)
    for slug in ("me", "login", "clubs", "admin", "calendar"):
        response = client.post(reverse("new_club"), {"name": "X", "slug": slug, "td_email": "x@example.org"})
        assert "is reserved" in response.content.decode(), slug
    assert not Club.objects.exists()
