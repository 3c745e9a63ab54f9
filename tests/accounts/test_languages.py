"""Whose language: a user keeps the language he last chose (switcher or his own page) and gets his pages in it
after logging in and every e-mail in it; a club's language serves visitors who chose none and members
without one."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

from audit.models import AuditEntry
from clubs.languages import language_of
from clubs.models import Club, Profile
from pairing import services as adapter
from season.models import MemberCalendar
from tests.conftest import make_competition
from tests.season.conftest import linked_user

pytestmark = pytest.mark.django_db


def choose(client, language: str, next_page: str = "/"):
    return client.post(reverse("set_language"), {"language": language, "next": next_page})


def test_the_language_switcher_keeps_a_logged_in_users_choice(client, td):
    client.force_login(td)
    assert choose(client, "da").status_code == 302
    assert Profile.objects.get(user=td).language == "da"
    choose(client, "nl")
    assert Profile.objects.get(user=td).language == "nl"
    choose(client, "xx")  # not a language of the site: nothing kept
    assert Profile.objects.get(user=td).language == "nl"


def test_an_anonymous_choice_keeps_nothing(client, td):
    choose(client, "da")
    assert not Profile.objects.exists()
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "da"


def test_the_language_is_chosen_on_my_page(client, members):
    user = linked_user(members[0], "anna")
    client.force_login(user)
    page = client.get(reverse("my_page")).content.decode()
    section = page[page.index('id="my-language"') :]
    assert 'name="language"' in section and reverse("set_language") in section
    choose(client, "da", reverse("my_page"))
    page = client.get(reverse("my_page")).content.decode()
    assert Profile.objects.get(user=user).language == "da"
    assert '<option value="da" selected>' in page and "Sprog" in page  # the section's heading, in Danish


def test_logging_in_brings_back_the_users_language(td):
    Profile.objects.create(user=td, language="nl")
    client = Client()
    response = client.post(reverse("login"), {"username": "director", "password": "secret-pass-1"})
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "nl"
    assert 'lang="nl"' in client.get(reverse("home")).content.decode()


def test_a_language_chosen_before_logging_in_is_kept_as_the_users(td):
    Profile.objects.create(user=td, language="nl")
    client = Client()
    choose(client, "da", reverse("login"))  # on the login page, not logged in yet
    response = client.post(reverse("login"), {"username": "director", "password": "secret-pass-1"})
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies  # the browser keeps its "da"
    assert Profile.objects.get(user=td).language == "da"
    assert 'lang="da"' in client.get(reverse("home")).content.decode()


def test_a_user_who_never_chose_gets_no_language_cookie_at_login(td):
    response = Client().post(reverse("login"), {"username": "director", "password": "secret-pass-1"})
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies


def test_a_clubs_language_serves_visitors_who_chose_none(client, club):
    club.language = "da"
    club.save()
    page = client.get(club.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'lang="da"' in page
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"  # the visitor's own choice wins
    assert 'lang="nl"' in client.get(club.get_absolute_url()).content.decode()
    other = Club.objects.create(name="Other", slug="other")  # no language: the browser's
    assert 'lang="en"' in Client().get(other.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_changing_the_clubs_language_takes_effect_at_once(client, club):
    assert 'lang="en"' in client.get(club.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    club.language = "nl"
    club.save()
    assert 'lang="nl"' in client.get(club.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_language_of_a_user_his_own_then_his_clubs_then_the_sites(club, members):
    user = linked_user(members[0], "anna")
    assert language_of(user) == settings.LANGUAGE_CODE
    club.language = "da"
    club.save()
    user = get_user_model().objects.get(pk=user.pk)
    assert language_of(user) == "da"
    Profile.objects.create(user=user, language="nl")
    assert language_of(user) == "nl"
    assert language_of(None, club) == "da"


def test_pairing_mails_go_out_in_each_recipients_language(club, td, members, django_capture_on_commit_callbacks):
    keizer = make_competition(club, td, members[:4], system="keizer", rounds=5, slug="keizer")
    club.language = "da"
    club.save()
    anna = linked_user(members[0], "anna", "anna@example.org")
    linked_user(members[1], "bob", "bob@example.org")  # no language of his own: the club's
    carl = linked_user(members[2], "carl", "carl@example.org")
    Profile.objects.create(user=anna, language="nl")
    Profile.objects.create(user=carl, language="en")
    for member in members[:3]:
        MemberCalendar.objects.create(member=member, mail_pairings=True)
    rnd = adapter.pair_next_round(keizer, td)
    with django_capture_on_commit_callbacks(execute=True):
        adapter.publish(rnd, td)
    by_address = {m.to[0]: m for m in mail.outbox}
    assert set(by_address) == {"anna@example.org", "bob@example.org", "carl@example.org"}
    assert "indeling van ronde 1" in by_address["anna@example.org"].subject
    assert "Beste " in by_address["anna@example.org"].body
    assert "parringer i runde 1" in by_address["bob@example.org"].subject
    assert "Kære " in by_address["bob@example.org"].body
    assert "pairings of round 1" in by_address["carl@example.org"].subject
    assert "Dear " in by_address["carl@example.org"].body


def test_an_invitation_is_written_in_the_invitees_language(td_client, club, viewer):
    viewer.email = "viewer@example.org"
    viewer.save()
    Profile.objects.create(user=viewer, language="da")
    td_client.post(reverse("directors", args=[club.slug]), {"email": "viewer@example.org"})
    (invitation,) = mail.outbox
    assert "turneringsleder" in invitation.subject and "inviterer dig" in invitation.body
    # Someone without an account: the club's language.
    club.language = "nl"
    club.save()
    td_client.post(reverse("directors", args=[club.slug]), {"email": "stranger@example.org"})
    assert "nodigt je uit" in mail.outbox[1].body


def test_a_password_reset_mail_is_in_the_accounts_language(client, td):
    td.email = "td@example.org"
    td.save()
    Profile.objects.create(user=td, language="nl")
    client.post(reverse("password_reset"), {"email": "td@example.org"}, HTTP_ACCEPT_LANGUAGE="en")
    (reset,) = mail.outbox
    assert "wachtwoord" in (reset.subject + reset.body).lower()


def test_a_clubs_printouts_are_in_its_language_whoever_prints_them(td_client, club, td, members):
    competition = make_competition(club, td, members[:4], system="roundrobin", slug="rr")
    adapter.publish(adapter.pair_next_round(competition, td), td)
    club.language = "nl"
    club.save()
    td_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "da"
    url = reverse("standings", args=[club.slug, competition.slug])
    assert 'lang="da"' in td_client.get(url).content.decode()  # the page: the TD's own choice
    pdf = td_client.get(url + "?format=pdf")
    assert pdf["Content-Type"] == "application/pdf" and pdf["Content-Language"] == "nl"


def test_a_td_sets_the_clubs_language_on_its_page(td_client, club, viewer, client):
    page = td_client.get(club.get_absolute_url()).content.decode()
    assert 'id="club-language"' in page
    td_client.post(reverse("club_language", args=[club.slug]), {"language": "da"})
    club.refresh_from_db()
    assert club.language == "da"
    entry = AuditEntry.objects.get(action="club-language")
    assert (entry.before, entry.after, entry.username) == ({"language": ""}, {"language": "da"}, "director")
    td_client.post(reverse("club_language", args=[club.slug]), {"language": "xx"})  # refused with a message
    club.refresh_from_db()
    assert club.language == "da" and AuditEntry.objects.filter(action="club-language").count() == 1
    client.force_login(viewer)  # not a TD: neither the form nor the right
    assert 'id="club-language"' not in client.get(club.get_absolute_url()).content.decode()
    assert client.post(reverse("club_language", args=[club.slug]), {"language": "nl"}).status_code == 403
    club.refresh_from_db()
    assert club.language == "da"


def test_a_members_login_invitation_is_written_in_the_clubs_language(td_client, club, members):
    club.language = "da"
    club.save()
    url = reverse("member_account", args=[club.slug, members[0].pk])
    td_client.post(url, {"action": "invite", "email": "player@example.org"}, HTTP_ACCEPT_LANGUAGE="en")
    (invitation,) = mail.outbox
    assert invitation.to == ["player@example.org"] and "inviterer dig til at tilknytte din konto" in invitation.body
