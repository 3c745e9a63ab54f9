"""The waiting list: a place that comes free in a full field is offered to the first on the list, who takes
it through his link within the form's hours, or the offer lapses and passes to the next."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core import mail
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from audit.models import AuditEntry
from entries import services
from entries.models import Entry, EntrySettings
from tests.entries.conftest import entry_data

pytestmark = pytest.mark.django_db


def enter(client, competition, name: str, language: str = "en") -> Entry:
    url = reverse("entry_form", args=[competition.club.slug, competition.slug])
    client.post(url, entry_data(first_name=name, email=f"{name.lower()}@example.org"), HTTP_ACCEPT_LANGUAGE=language)
    return Entry.objects.get(first_name=name)


def decide(client, entry, action: str, **data):
    url = reverse("entry_decide", args=[entry.competition.club.slug, entry.competition.slug, entry.pk])
    return client.post(url, {"action": action, **data})


@pytest.fixture
def full_field(player, td_client, open_competition):
    """Two places, both accepted (Anna, Bert); Carla, then Dirk (in Dutch), then Eva on the waiting list."""
    EntrySettings.objects.filter(competition=open_competition).update(max_players=2)
    accepted = [enter(player, open_competition, name) for name in ("Anna", "Bert")]
    for entry in accepted:
        decide(td_client, entry, "accept")
    waiting = [enter(player, open_competition, "Carla"), enter(player, open_competition, "Dirk", "nl"),
               enter(player, open_competition, "Eva")]  # fmt: skip
    assert [e.status for e in waiting] == ["waiting"] * 3
    mail.outbox.clear()
    return {e.first_name: e for e in accepted + waiting}


def status(entry: Entry) -> str:
    entry.refresh_from_db()
    return entry.status


def test_a_withdrawal_offers_the_place_to_the_first_on_the_waiting_list(player, full_field):
    before = timezone.now()
    player.post(reverse("my_entry", args=[full_field["Anna"].token]), {"action": "withdraw", "confirm": "1"})
    carla = full_field["Carla"]
    assert [status(full_field[name]) for name in ("Anna", "Carla", "Dirk")] == ["withdrawn", "offered", "waiting"]
    assert before + timedelta(hours=48) <= carla.offer_expires_at <= timezone.now() + timedelta(hours=48)
    assert [m.subject for m in mail.outbox] == ["Weekend Open: a place has come free for you"]
    assert mail.outbox[0].to == ["carla@example.org"] and carla.token in mail.outbox[0].body
    offer = AuditEntry.objects.get(action="entry-offer")
    assert (offer.object_id, offer.before["status"], offer.after["status"]) == (str(carla.pk), "waiting", "offered")
    # The offered place is held: a new entry goes to the waiting list behind the others.
    assert enter(player, full_field["Anna"].competition, "Frank").status == "waiting"


def test_the_player_takes_the_offered_place_in_time(player, full_field):
    services.withdraw(full_field["Bert"])
    carla = full_field["Carla"]
    page = player.get(reverse("my_entry", args=[carla.token])).content.decode()
    assert 'id="take-place"' in page
    player.post(reverse("my_entry", args=[carla.token]), {"action": "take-place"})
    assert status(carla) == "pending"  # holds the place; the TD decides as on any entry
    assert AuditEntry.objects.filter(action="entry-confirm", object_id=str(carla.pk)).exists()
    assert "Carla Jansen" in player.get(reverse("entry_list", args=["testclub", "open"])).content.decode()
    assert services.offer_free_places(carla.competition) == []  # the field is full again


def test_an_offer_not_taken_in_time_passes_to_the_next_in_his_language(
    player, full_field, django_capture_on_commit_callbacks
):
    services.withdraw(full_field["Anna"])
    carla, dirk = full_field["Carla"], full_field["Dirk"]
    Entry.objects.filter(pk=carla.pk).update(offer_expires_at=timezone.now() - timedelta(minutes=1))
    mail.outbox.clear()
    for _run in range(2):  # the second run finds nothing more to do
        with django_capture_on_commit_callbacks(execute=True):
            call_command("expire_entry_offers", stdout=io.StringIO())
    assert (status(carla), status(dirk), status(full_field["Eva"])) == ("withdrawn", "offered", "waiting")
    assert [m.to for m in mail.outbox] == [["carla@example.org"], ["dirk@example.org"]]
    assert mail.outbox[0].subject == "Weekend Open: the offered place has passed on"
    assert mail.outbox[1].subject == "Weekend Open: er is een plaats vrijgekomen voor je"
    assert {"entry-offer-expired", "entry-offer"} <= set(AuditEntry.objects.values_list("action", flat=True))
    late = player.post(reverse("my_entry", args=[carla.token]), {"action": "take-place"}, follow=True)
    assert "No place is offered to you" in late.content.decode() and status(carla) == "withdrawn"
    assert "not taken in time" in late.content.decode()


def test_a_lapsed_offer_cannot_be_taken_before_the_command_runs(player, full_field):
    services.withdraw(full_field["Anna"])
    carla = full_field["Carla"]
    Entry.objects.filter(pk=carla.pk).update(offer_expires_at=timezone.now() - timedelta(seconds=1))
    page = player.post(reverse("my_entry", args=[carla.token]), {"action": "take-place"}, follow=True)
    assert "The offer has lapsed" in page.content.decode() and status(carla) == "offered"


def test_without_a_waiting_list_a_free_place_is_offered_to_nobody(player, td_client, open_competition):
    EntrySettings.objects.filter(competition=open_competition).update(max_players=1)
    anna = enter(player, open_competition, "Anna")
    decide(td_client, anna, "accept")
    mail.outbox.clear()
    services.withdraw(anna)
    assert not mail.outbox and not AuditEntry.objects.filter(action="entry-offer").exists()
    assert not Entry.objects.filter(status="offered").exists()


def test_raising_the_maximum_by_two_offers_two_places(td_client, full_field):
    url = reverse("entry_inbox", args=["testclub", "open"])
    td_client.post(url, {"action": "settings", "open": "on", "max_players": "4", "offer_hours": "12"})
    offered = Entry.objects.filter(status="offered").order_by("created_at")
    assert [e.first_name for e in offered] == ["Carla", "Dirk"] and status(full_field["Eva"]) == "waiting"
    assert all(11.99 < (e.offer_expires_at - timezone.now()).total_seconds() / 3600 <= 12 for e in offered)
    assert len(mail.outbox) == 2 and AuditEntry.objects.filter(action="entry-offer").count() == 2
    page = td_client.get(url).content.decode()
    assert "Place offered (2)" in page and "Waiting list (1)" in page


def test_the_td_withdrawing_an_accepted_player_offers_his_place(td_client, full_field):
    bert = full_field["Bert"]
    decide(td_client, bert, "remove")
    bert.refresh_from_db()
    assert bert.status == "withdrawn" and bert.participant.withdrawn
    assert status(full_field["Carla"]) == "offered"
    assert AuditEntry.objects.filter(action="entry-remove", object_id=str(bert.pk)).exists()


def test_refusing_an_entry_of_a_full_field_offers_its_place(player, td_client, open_competition):
    EntrySettings.objects.filter(competition=open_competition).update(max_players=1)
    anna, bert = enter(player, open_competition, "Anna"), enter(player, open_competition, "Bert")
    assert (anna.status, bert.status) == ("pending", "waiting")
    decide(td_client, anna, "refuse", reason="Not a junior")
    assert status(bert) == "offered"
    # The TD may accept an offered entry at once.
    decide(td_client, bert, "accept")
    assert status(bert) == "accepted"
