"""Hostile input through the public entry form: refused with a message naming the problem, nothing saved
(no entry, no audit row, no mail); floods from one address or for one e-mail address throttled."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import override_settings
from django.urls import reverse

from audit.models import AuditEntry
from entries.models import Entry
from tests.entries.conftest import entry_data

pytestmark = pytest.mark.django_db


def post(player, competition, **fields):
    return player.post(reverse("entry_form", args=[competition.club.slug, competition.slug]), entry_data(**fields))


def assert_nothing_saved():
    assert not Entry.objects.exists()
    assert not AuditEntry.objects.filter(action__startswith="entry").exists()
    assert not mail.outbox


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"first_name": "A" * 61}, "Ensure this value has at most 60 characters (it has 61)."),
        ({"last_name": "B" * 500}, "Ensure this value has at most 80 characters (it has 500)."),
        ({"club_name": "C" * 121}, "Ensure this value has at most 120 characters (it has 121)."),
        ({"first_name": "Piet\x1b[31m"}, "First name holds a control character."),
        ({"last_name": "Jansen\u202egnp.exe"}, "Last name holds a control character."),
        ({"first_name": "Pi\x00et"}, "Null characters are not allowed."),
        ({"last_name": '=HYPERLINK("http://evil.example","x")'}, "Last name may not begin with =, +, -, or @."),
        ({"first_name": "+31612345678"}, "First name may not begin with =, +, -, or @."),
        ({"club_name": "@SUM(A1:A9)"}, "Club may not begin with =, +, -, or @."),
        ({"first_name": "-2+3"}, "First name may not begin with =, +, -, or @."),
        ({"last_name": "12345"}, "Last name needs at least one letter."),
        ({"fide_id": "12a4"}, "A FIDE id is a number, e.g. 1503014."),
        ({"fide_id": "１２３４"}, "A FIDE id is a number, e.g. 1503014."),
        ({"fide_id": "123456789012"}, "Ensure this value has at most 11 characters (it has 12)."),
        ({"national_id": "12-34; DROP"}, "A national id holds only digits and letters."),
        ({"federation": "NE1"}, "A federation is three letters, e.g. NED, DEN, GER."),
        ({"birth_year": "1850"}, "Give a year of birth between 1900 and this year."),
        ({"birth_year": "99999999999999999999"}, "Ensure this value is less than or equal to 32767."),
        ({"birth_year": "1e3"}, "Enter a whole number."),
        ({"email": "not-an-address"}, "Enter a valid email address."),
        ({"email": "a@b.c\r\nBcc: victim@example.org"}, "Enter a valid email address."),
        ({"note": "hello\x07"}, "The note holds a control character."),
        ({"note": "x" * 501}, "Ensure this value has at most 500 characters (it has 501)."),
        ({"website": "http://spam.example"}, "Leave this field empty."),
    ],
    ids=lambda value: repr(value)[:40] if isinstance(value, dict) else None,
)
def test_hostile_input_is_refused_with_a_clear_message_and_nothing_saved(player, open_competition, fields, message):
    response = post(player, open_competition, **fields)
    assert response.status_code == 400
    assert message in response.content.decode().replace("&quot;", '"').replace("&#x27;", "'")
    assert_nothing_saved()


@override_settings(ENTRY_LIMITS={"client": 5, "email": 3})
def test_a_flood_from_one_address_is_throttled(player, open_competition):
    """Changing X-Forwarded-For does not help: without a trusted proxy the header is not read."""
    url = reverse("entry_form", args=["testclub", "open"])
    for i in range(6):
        data = entry_data(first_name=f"Flood{'abcdef'[i]}", email=f"f{i}@example.org")
        response = player.post(url, data, HTTP_X_FORWARDED_FOR=f"10.0.0.{i}")
    assert response.status_code == 429
    assert "Too many entries from your address or for your e-mail" in response.content.decode()
    assert Entry.objects.count() == 5


@override_settings(ENTRY_LIMITS={"client": 100, "email": 3})
def test_entries_for_one_email_address_are_throttled(player, open_competition):
    for i in range(3):
        post(player, open_competition, first_name=f"Name{'abc'[i]}", email="same@example.org")
    response = post(player, open_competition, first_name="Named", email="SAME@example.org")
    assert response.status_code == 429 and Entry.objects.count() == 3


def test_lookups_from_one_address_are_throttled(player, open_competition, monkeypatch):
    from entries import views

    monkeypatch.setattr(views, "LOOKUP_LIMIT", 2)
    url = reverse("entry_form", args=["testclub", "open"])
    for _ in range(2):
        page = player.post(url, {"lookup": "1", "fide_id": "1"}, follow=True).content.decode()
        assert "not in the rating lists" in page
    page = player.post(url, {"lookup": "1", "fide_id": "1"}).content.decode()
    assert "Too many look-ups from your address" in page


@pytest.mark.parametrize("pick", ["abc", "-1", "0", "99999999999999999999999", "1e3"])
def test_a_pick_that_is_no_row_of_the_lists_fills_in_nothing_and_enters_no_one(player, open_competition, pick):
    url = reverse("entry_form", args=["testclub", "open"])
    response = player.post(url, {**entry_data(), "pick": pick})
    page = response.content.decode()
    assert response.status_code == 200 and "You are not in the rating lists" in page
    assert 'value="Piet"' in page  # the form as typed, for the player to send
    assert_nothing_saved()


def test_a_payment_link_is_never_a_script(td_client, open_competition):
    url = reverse("entry_inbox", args=["testclub", "open"])
    response = td_client.post(url, {"action": "settings", "open": "on", "fee_link": "javascript:alert(1)//https://"})
    assert response.status_code == 400 and "Enter a valid URL." in response.content.decode()


def test_an_entry_on_another_competitions_address_is_not_found(td_client, open_competition, player):
    post(player, open_competition)
    entry = Entry.objects.get()
    response = td_client.post(reverse("entry_decide", args=["testclub", "other", entry.pk]), {"action": "accept"})
    assert response.status_code == 404
    entry.refresh_from_db()
    assert entry.status == "pending"
