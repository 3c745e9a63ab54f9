"""The TD's decisions on entries are guarded: each button carries what the inbox or the check-in page
showed of the entry (or of the check-in, or of the entry settings); when another TD changed it
meanwhile, nothing is saved and the message names what changed, by whom and when."""

from __future__ import annotations

import pytest
from django.urls import reverse

from audit.models import AuditEntry
from entries import services
from entries.models import Entry, EntrySettings
from tests.entries.conftest import entry_data
from tests.guard import basis, messages_of, page, post, stale_message
from tournaments.models import Bye

pytestmark = pytest.mark.django_db


@pytest.fixture
def entry(player, open_competition):
    player.post(reverse("entry_form", args=[open_competition.club.slug, open_competition.slug]), entry_data())
    return Entry.objects.get()


def entry_basis(html: str, entry: Entry) -> str:
    return basis(html, after=f'id="entry-{entry.pk}"')


def decide(client, entry, data):
    return post(client, "entry_decide", entry.competition, data, entry.pk)


def test_an_entry_refused_meanwhile_is_not_accepted_from_an_older_inbox(td_client, entry, other_td):
    jan, jan_client = other_td
    mine = entry_basis(page(td_client, "entry_inbox", entry.competition), entry)
    theirs = entry_basis(page(jan_client, "entry_inbox", entry.competition), entry)
    decide(jan_client, entry, {"action": "refuse", "reason": "Too late", "based_on": theirs})
    entries = AuditEntry.objects.count()
    response = decide(td_client, entry, {"action": "accept", "based_on": mine})
    stale_message(messages_of(response), "entry refused")
    entry.refresh_from_db()
    assert entry.status == Entry.Status.REFUSED and entry.participant is None
    assert AuditEntry.objects.count() == entries


def test_an_accept_from_the_inbox_as_shown_accepts(td_client, entry):
    response = decide(td_client, entry, {"action": "accept",
                                         "based_on": entry_basis(page(td_client, "entry_inbox", entry.competition),
                                                                 entry)})  # fmt: skip
    assert "Piet Jansen: accepted." in messages_of(response)
    entry.refresh_from_db()
    assert entry.status == Entry.Status.ACCEPTED and entry.participant is not None


def test_a_merge_after_another_tds_waiting_list_is_refused(td_client, entry, listed, other_td):
    jan, jan_client = other_td
    mine = entry_basis(page(td_client, "entry_inbox", entry.competition), entry)
    services.to_waiting_list(entry, jan)
    response = decide(td_client, entry, {"action": "merge", "member": listed["guest"].pk, "based_on": mine})
    stale_message(messages_of(response), "entry on the waiting list")
    entry.refresh_from_db()
    assert entry.status == Entry.Status.WAITING and entry.participant is None


def test_marking_paid_twice_from_one_page_is_refused_the_second_time(td_client, entry, other_td):
    jan, jan_client = other_td
    mine = entry_basis(page(td_client, "entry_inbox", entry.competition), entry)
    decide(
        jan_client,
        entry,
        {"action": "paid", "based_on": entry_basis(page(jan_client, "entry_inbox", entry.competition), entry)},
    )
    response = decide(td_client, entry, {"action": "unpaid", "based_on": mine})
    stale_message(messages_of(response), "entry fee")
    entry.refresh_from_db()
    assert entry.paid is True
    response = decide(td_client, entry, {"action": "unpaid", "based_on": entry_basis(response.content.decode(), entry)})
    entry.refresh_from_db()
    assert entry.paid is False


def test_a_refusal_without_a_reason_or_with_an_unknown_action_saves_nothing(td_client, entry):
    response = decide(td_client, entry, {"action": "refuse", "reason": ""})
    assert "Give a reason for refusing (at most 200 characters)." in messages_of(response)
    response = decide(td_client, entry, {"action": "delete"})
    assert "Choose one of the actions on the page." in messages_of(response)
    entry.refresh_from_db()
    assert entry.status == Entry.Status.PENDING


@pytest.fixture
def accepted(td, entry):
    return services.accept(entry, td)


def test_check_in_closed_from_a_page_older_than_an_arrival_leaves_everyone_in(td_client, accepted, other_td):
    jan, jan_client = other_td
    competition = accepted.competition
    mine = basis(page(td_client, "check_in", competition), after='id="close-check-in"')
    theirs = basis(page(jan_client, "check_in", competition), after=f'name="entry" value="{accepted.pk}"')
    post(jan_client, "check_in", competition, {"entry": accepted.pk, "arrived": "1", "based_on": theirs})
    response = post(td_client, "check_in", competition, {"action": "close", "based_on": mine})
    stale_message(messages_of(response), "arrival")
    assert not AuditEntry.objects.filter(action="check-in-close").exists()
    # Closed from the page that shows the arrival, check-in leaves nobody out.
    fresh = basis(response.content.decode(), after='id="close-check-in"')
    response = post(td_client, "check_in", competition, {"action": "close", "based_on": fresh})
    assert "1 players arrived; 0 left out of round 1." in messages_of(response)
    assert not Bye.objects.filter(round__competition=competition).exists()


def test_an_arrival_undone_from_an_older_page_is_refused(td_client, accepted, other_td):
    jan, jan_client = other_td
    competition = accepted.competition
    mine = basis(page(td_client, "check_in", competition), after=f'name="entry" value="{accepted.pk}"')
    services.set_flag(accepted, jan, "arrived", True)
    response = post(td_client, "check_in", competition, {"entry": accepted.pk, "arrived": "1", "based_on": mine})
    stale_message(messages_of(response), "arrival")
    assert AuditEntry.objects.filter(action="entry-arrived").count() == 1


def settings_post(html: str, max_players: int) -> dict:
    return {"action": "settings", "open": "on", "max_players": max_players,
            "based_on": basis(html, after='id="entry-settings"')}  # fmt: skip


def test_entry_settings_saved_meanwhile_are_not_overwritten(td_client, open_competition, other_td):
    jan, jan_client = other_td
    mine = page(td_client, "entry_inbox", open_competition)
    theirs = page(jan_client, "entry_inbox", open_competition)
    post(jan_client, "entry_inbox", open_competition, settings_post(theirs, 60))
    response = post(td_client, "entry_inbox", open_competition, settings_post(mine, 20))
    stale_message(messages_of(response), "entry form settings")
    assert EntrySettings.objects.get(competition=open_competition).max_players == 60
    response = post(td_client, "entry_inbox", open_competition, settings_post(response.content.decode(), 20))
    assert "Entry settings saved." in messages_of(response)
    assert EntrySettings.objects.get(competition=open_competition).max_players == 20


def test_a_withdrawal_by_the_td_from_an_inbox_older_than_a_payment_is_refused(td_client, accepted, other_td):
    jan, jan_client = other_td
    competition = accepted.competition
    mine = entry_basis(page(td_client, "entry_inbox", competition), accepted)
    services.set_flag(accepted, jan, "paid", True)
    response = decide(td_client, accepted, {"action": "remove", "based_on": mine})
    stale_message(messages_of(response), "entry fee")
    accepted.refresh_from_db()
    assert accepted.status == Entry.Status.ACCEPTED and not accepted.participant.withdrawn
    assert not AuditEntry.objects.filter(action="entry-remove").exists()
    response = decide(td_client, accepted, {"action": "remove", "based_on": entry_basis(response.content.decode(),
                                                                                          accepted)})  # fmt: skip
    accepted.refresh_from_db()
    assert accepted.status == Entry.Status.WITHDRAWN and accepted.participant.withdrawn


def test_check_in_closed_from_a_page_older_than_the_tds_withdrawal_is_refused(td_client, accepted, other_td):
    jan, jan_client = other_td
    competition = accepted.competition
    mine = basis(page(td_client, "check_in", competition), after='id="close-check-in"')
    services.remove(accepted, jan)
    response = post(td_client, "check_in", competition, {"action": "close", "based_on": mine})
    stale_message(messages_of(response), "entry withdrawn by the TD")
    assert not AuditEntry.objects.filter(action="check-in-close").exists()
