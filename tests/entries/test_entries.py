"""Online entries: the form and the TD's settings, the lists' look-up, the inbox's decisions, the mails, the
player's own link, the entry list's privacy, check-in and the first pairing, hostile input."""

from __future__ import annotations

import io

import pytest
from django.core import mail
from django.urls import reverse

from audit.models import AuditEntry
from entries import services
from entries.models import Entry, EntrySettings
from pairing import services as adapter
from tests.entries.conftest import entry_data
from tournaments.models import Bye, Participant

pytestmark = pytest.mark.django_db


def form_url(competition) -> str:
    return reverse("entry_form", args=[competition.club.slug, competition.slug])


def enter(client, competition, language: str = "en", **fields):
    return client.post(form_url(competition), entry_data(**fields), HTTP_ACCEPT_LANGUAGE=language)


def decide(client, entry, action: str, **data):
    url = reverse("entry_decide", args=[entry.competition.club.slug, entry.competition.slug, entry.pk])
    return client.post(url, {"action": action, **data})


# The form ------------------------------------------------------------------------------------------


def test_an_entry_is_saved_pending_with_a_receipt_in_the_players_language(player, open_competition):
    response = enter(player, open_competition, "nl")
    entry = Entry.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("my_entry", args=[entry.token])
    assert (entry.status, entry.full_name, entry.language, entry.federation) == ("pending", "Piet Jansen", "nl", "NED")
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["piet@example.org"]
    assert mail.outbox[0].subject == "Weekend Open: je inschrijving is ontvangen"
    assert entry.token in mail.outbox[0].body
    row = AuditEntry.objects.get(action="entry")
    assert row.competition_id == open_competition.pk and "piet@example.org" not in str(row.after)


def test_a_closed_form_takes_no_entry(player, open_competition):
    EntrySettings.objects.filter(competition=open_competition).update(open=False)
    response = enter(player, open_competition)
    assert response.status_code == 200 and "Entries for this competition are closed." in response.content.decode()
    assert not Entry.objects.exists() and not mail.outbox


def test_the_closing_time_closes_the_form(player, open_competition):
    from datetime import timedelta

    from django.utils import timezone

    EntrySettings.objects.filter(competition=open_competition).update(closes_at=timezone.now() - timedelta(minutes=1))
    enter(player, open_competition)
    assert not Entry.objects.exists()


def test_over_the_maximum_the_entry_goes_to_the_waiting_list(player, open_competition):
    EntrySettings.objects.filter(competition=open_competition).update(max_players=2)
    for i in range(3):
        enter(player, open_competition, first_name=f"Player{'abc'[i]}", email=f"p{i}@example.org")
    statuses = list(Entry.objects.order_by("pk").values_list("status", flat=True))
    assert statuses == ["pending", "pending", "waiting"]
    assert "waiting list" in mail.outbox[-1].body


@pytest.mark.parametrize(
    "second",
    [{"fide_id": "1234567", "first_name": "Other", "email": "x@example.org"},
     {"email": "other@example.org"},
     {"first_name": "piet", "last_name": "JANSEN", "email": "y@example.org"}],
    ids=["same FIDE id", "same name and year", "same name other case"],
)  # fmt: skip
def test_a_double_entry_is_refused(player, open_competition, second):
    enter(player, open_competition, fide_id="1234567")
    response = enter(player, open_competition, **second)
    assert response.status_code == 400 and "has already entered this competition" in response.content.decode()
    assert Entry.objects.count() == 1


def test_the_same_name_with_another_year_of_birth_is_another_player(player, open_competition):
    enter(player, open_competition)
    enter(player, open_competition, birth_year="1975", email="father@example.org")
    assert Entry.objects.count() == 2


def test_the_rating_and_age_ranges_and_members_only(player, open_competition, listed):
    EntrySettings.objects.filter(competition=open_competition).update(max_rating=2000, min_birth_year=1980)
    too_strong = enter(player, open_competition, fide_id="1503014", first_name="Anna", last_name="de Vries")
    assert "ratings up to 2000" in too_strong.content.decode() and "2190" in too_strong.content.decode()
    too_old = enter(player, open_competition, birth_year="1960", email="old@example.org")
    assert "born in 1980 or later" in too_old.content.decode()
    EntrySettings.objects.filter(competition=open_competition).update(max_rating=None, min_birth_year=None,
                                                                       members_only=True)  # fmt: skip
    guest = enter(player, open_competition, fide_id="1401234", first_name="Søren", last_name="Bech",
                  email="s@example.org")  # fmt: skip
    assert "Only members of the club may enter" in guest.content.decode()
    assert not Entry.objects.exists()
    enter(player, open_competition, fide_id="1503014", first_name="Anna", last_name="de Vries", email="a@example.org")
    assert Entry.objects.get().national_rating == 2190


# The rating lists -----------------------------------------------------------------------------------


def test_looking_up_a_fide_id_fills_in_the_form_from_the_clubs_lists(player, open_competition, listed):
    response = player.post(form_url(open_competition), {"lookup": "1", "fide_id": "1503014"})
    page = response.content.decode()
    assert response.status_code == 200 and "Found: Anna de Vries" in page and "FIDE 2210" in page
    assert 'value="de Vries"' in page and 'value="NED"' in page and not Entry.objects.exists()


def test_looking_up_a_name_matches_as_the_importer_does(player, open_competition, listed):
    page = player.post(form_url(open_competition), {"lookup": "1", "first_name": "soren", "last_name": "bech"})
    assert 'value="1401234"' in page.content.decode()


def test_the_td_sees_where_typed_data_and_the_list_disagree(player, td_client, open_competition, listed):
    enter(player, open_competition, fide_id="1503014", first_name="Anna", last_name="de Vries", federation="GER")
    entry = Entry.objects.get()
    assert (entry.title, entry.fide_rating, entry.national_rating) == ("WFM", 2210, 2190)
    page = td_client.get(reverse("entry_inbox", args=["testclub", "open"])).content.decode()
    assert "In the rating lists: Anna de Vries" in page
    assert "<td>federation</td><td>GER</td><td>NED</td>" in page


# The TD's decisions ------------------------------------------------------------------------------------


def test_accepting_enters_the_player_through_the_adapter_with_audit_rows(player, td_client, td, open_competition):
    enter(player, open_competition, "da", fide_id="7654321")
    entry = Entry.objects.get()
    mail.outbox.clear()
    decide(td_client, entry, "accept")
    entry.refresh_from_db()
    participant = Participant.objects.get(competition=open_competition)
    assert entry.status == "accepted" and entry.participant == participant and entry.decided_by == td
    assert participant.member.is_guest and participant.member.fide_id == "7654321"
    actions = set(AuditEntry.objects.values_list("action", flat=True))
    assert {"entry-accept", "participant-add", "member-add"} <= actions
    assert mail.outbox[0].subject == "Weekend Open: din tilmelding er godkendt"


def test_an_accept_the_adapter_refuses_leaves_the_entry_pending(player, td_client, td, club, members):
    from tests.conftest import make_competition

    rr = make_competition(club, td, members[:4])
    adapter.pair_next_round(rr, td)  # a round robin's schedule is fixed once round 1 is paired
    EntrySettings.objects.create(competition=rr, open=True)
    enter(player, rr)
    entry = Entry.objects.get()
    response = decide(td_client, entry, "accept")
    entry.refresh_from_db()
    assert entry.status == "pending" and entry.participant is None
    assert not AuditEntry.objects.filter(action="entry-accept").exists()
    assert not rr.participants.filter(member__last_name="Jansen").exists()
    assert "schedule is fixed" in td_client.get(response["Location"]).content.decode()


def test_merging_enters_the_earlier_guest(player, td_client, open_competition, listed):
    enter(player, open_competition, first_name="Soren", last_name="Bech", fide_id="1401234")
    entry = Entry.objects.get()
    refused = decide(td_client, entry, "accept")
    assert "merge the entry" in td_client.get(refused["Location"]).content.decode()
    decide(td_client, entry, "merge", member=str(listed["guest"].pk))
    entry.refresh_from_db()
    assert entry.status == "accepted" and entry.participant.member == listed["guest"]
    assert AuditEntry.objects.filter(action="entry-merge").exists()


def test_refusing_needs_a_reason_and_mails_it(player, td_client, open_competition):
    enter(player, open_competition, "nl")
    entry = Entry.objects.get()
    decide(td_client, entry, "refuse", reason="")
    entry.refresh_from_db()
    assert entry.status == "pending"
    decide(td_client, entry, "refuse", reason="Het toernooi is voor jeugd")
    entry.refresh_from_db()
    assert entry.status == "refused" and "Het toernooi is voor jeugd" in mail.outbox[-1].body
    assert "niet geaccepteerd" in mail.outbox[-1].subject


def test_a_full_field_accepts_no_more(player, td_client, open_competition):
    EntrySettings.objects.filter(competition=open_competition).update(max_players=1)
    enter(player, open_competition)
    enter(player, open_competition, first_name="Karel", email="karel@example.org")
    first, second = Entry.objects.order_by("pk")
    assert second.status == "waiting"
    decide(td_client, first, "accept")
    decide(td_client, second, "accept")
    second.refresh_from_db()
    assert second.status == "waiting"
    services.withdraw(first)  # a place comes free: the TD takes the first of the waiting list
    decide(td_client, second, "accept")
    second.refresh_from_db()
    assert second.status == "accepted"


def test_the_acceptance_mail_carries_the_schedule_and_a_calendar_file(player, td_client, open_competition):
    from datetime import date, time

    from clubs.models import Season
    from season.models import ClubNight, PlannedRound

    season = Season.objects.create(club=open_competition.club, name="2026-2027")
    for number, day in ((1, 5), (2, 6)):
        night = ClubNight.objects.create(season=season, date=date(2026, 12, day), start=time(10))
        PlannedRound.objects.create(competition=open_competition, number=number, night=night)
    enter(player, open_competition)
    decide(td_client, Entry.objects.get(), "accept")
    accepted = mail.outbox[-1]
    assert "Round 1: Saturday 5 December 2026 10:00" in accepted.body
    name, content, kind = accepted.attachments[0]
    assert kind == "text/calendar" and content.count("BEGIN:VEVENT") == 2


# The player's link and the entry list ---------------------------------------------------------------


def test_the_player_withdraws_through_his_link(player, td_client, td, open_competition):
    enter(player, open_competition)
    entry = Entry.objects.get()
    decide(td_client, entry, "accept")
    link = reverse("my_entry", args=[entry.token])
    player.post(link, {"action": "withdraw"})  # not confirmed: nothing changes
    entry.refresh_from_db()
    assert entry.status == "accepted"
    player.post(link, {"action": "withdraw", "confirm": "1"})
    entry.refresh_from_db()
    assert entry.status == "withdrawn" and entry.participant.withdrawn
    assert player.get(reverse("my_entry", args=["not-a-token"])).status_code == 404
    # Round 1 is paired without him.
    for name in ("Karel", "Lotte", "Maria"):
        enter(player, open_competition, first_name=name, email=f"{name}@example.org")
    for other in Entry.objects.filter(status="pending"):
        decide(td_client, other, "accept")
    rnd = adapter.pair_next_round(open_competition, td)
    paired = {p for g in rnd.games.all() for p in (g.white_id, g.black_id)}
    assert len(paired) == 2 and entry.participant_id not in paired
    assert entry.participant_id not in set(rnd.byes.values_list("participant_id", flat=True))


def test_the_player_asks_for_a_half_point_bye_within_the_systems_limits(player, td_client, open_competition):
    from season.models import SignOffRules

    SignOffRules.objects.create(competition=open_competition, half_byes=1)
    enter(player, open_competition)
    entry = Entry.objects.get()
    decide(td_client, entry, "accept")
    entry.refresh_from_db()
    player.post(reverse("my_entry", args=[entry.token]), {"action": "answer", "answer": "half-bye"})
    bye = Bye.objects.get(participant=entry.participant_id)
    assert (bye.round.number, bye.kind) == (1, Bye.Kind.HALF_BYE)
    refused = player.post(reverse("my_entry", args=[entry.token]), {"action": "answer", "answer": "club-match"},
                          follow=True)  # fmt: skip
    assert "is not an answer here" in refused.content.decode()
    assert Bye.objects.get(participant=entry.participant_id).kind == Bye.Kind.HALF_BYE


@pytest.mark.rule("000 A2")
def test_the_entry_list_is_sorted_by_rating_and_keeps_private_data_private(player, open_competition, listed):
    enter(player, open_competition, first_name="Zeno", last_name="Unrated", email="z@example.org", birth_year="1987")
    enter(player, open_competition, fide_id="1503014", first_name="Anna", last_name="de Vries", email="a@example.org")
    enter(player, open_competition, fide_id="1401234", first_name="Søren", last_name="Bech", email="s@example.org",
          name_only="on", club_name="Skakklubben Nord")  # fmt: skip
    page = player.get(reverse("entry_list", args=["testclub", "open"])).content.decode()
    assert page.index("Anna de Vries") < page.index("Søren Bech") < page.index("Zeno Unrated")
    assert "2190" in page and "1890" not in page and "Skakklubben Nord" not in page
    assert "@example.org" not in page and "1987" not in page
    assert "3 players have entered" in page and "37 places left" in page


# Check-in and the first pairing -------------------------------------------------------------------


@pytest.mark.rule("000 F5")
def test_players_who_did_not_arrive_are_left_out_of_round_1(player, td_client, td, open_competition):
    for i in range(6):
        enter(player, open_competition, first_name=f"Player{'abcdef'[i]}", email=f"c{i}@example.org")
    entries = list(Entry.objects.order_by("pk"))
    for entry in entries:
        decide(td_client, entry, "accept")
    url = reverse("check_in", args=["testclub", "open"])
    for entry in entries[:4]:
        td_client.post(url, {"entry": entry.pk, "arrived": "1"})
    assert "4 of 6 arrived" in td_client.get(url).content.decode()
    assert "Playerb" in td_client.get(url + "?q=playerb").content.decode()
    td_client.post(url, {"action": "close"})
    rnd = adapter.pair_next_round(open_competition, td)
    paired = {p for g in rnd.games.all() for p in (g.white_id, g.black_id)}
    arrived = {e.participant_id for e in Entry.objects.filter(arrived=True)}
    assert paired == arrived and len(paired) == 4
    absent = set(rnd.byes.filter(kind=Bye.Kind.ABSENT).values_list("participant_id", flat=True))
    assert absent == set(Entry.objects.filter(arrived=False).values_list("participant_id", flat=True))
    assert len(absent) == 2
    assert AuditEntry.objects.filter(action="check-in-close").exists()


def test_a_late_arrival_is_put_back_before_the_pairing(player, td_client, td, open_competition):
    for i in range(2):
        enter(player, open_competition, first_name=f"Player{'ab'[i]}", email=f"l{i}@example.org")
    first, second = Entry.objects.order_by("pk")
    decide(td_client, first, "accept")
    decide(td_client, second, "accept")
    url = reverse("check_in", args=["testclub", "open"])
    td_client.post(url, {"entry": first.pk, "arrived": "1"})
    td_client.post(url, {"action": "close"})
    td_client.post(url, {"entry": second.pk, "arrived": "1"})
    td_client.post(url, {"action": "close"})
    rnd = adapter.pair_next_round(open_competition, td)
    assert rnd.games.count() == 1 and not rnd.byes.exists()


# The fee link ------------------------------------------------------------------------------------------


def test_the_payment_link_is_shown_after_entering_and_the_td_marks_paid(player, td_client, open_competition):
    EntrySettings.objects.filter(competition=open_competition).update(fee_link="https://pay.example.org/open",
                                                                       fee_note="€ 25")  # fmt: skip
    response = enter(player, open_competition)
    page = player.get(response["Location"]).content.decode()
    assert 'href="https://pay.example.org/open"' in page and "€ 25" in page
    entry = Entry.objects.get()
    decide(td_client, entry, "paid")
    entry.refresh_from_db()
    assert entry.paid and AuditEntry.objects.filter(action="entry-paid").exists()
    assert "pay.example.org" not in player.get(response["Location"]).content.decode()


def test_a_payment_link_must_be_https(td_client, open_competition):
    url = reverse("entry_inbox", args=["testclub", "open"])
    response = td_client.post(url, {"action": "settings", "open": "on", "fee_link": "javascript:alert(1)"})
    assert response.status_code == 400
    response = td_client.post(url, {"action": "settings", "open": "on", "fee_link": "http://pay.example.org/"})
    assert "begins with https://" in response.content.decode()
    assert EntrySettings.objects.get(competition=open_competition).fee_link == ""


def test_the_td_opens_the_form_and_sets_the_maximum(td_client, club, td):
    from tournaments.models import Competition

    competition = Competition.objects.create(club=club, name="Rapid", slug="rapid", system="dutch", rounds=7)
    url = reverse("entry_inbox", args=["testclub", "rapid"])
    td_client.post(url, {"action": "settings", "open": "on", "max_players": "60", "min_rating": "1800",
                         "max_rating": "1500"})  # fmt: skip
    assert not EntrySettings.objects.filter(competition=competition).exists()
    td_client.post(url, {"action": "settings", "open": "on", "max_players": "60"})
    rules = EntrySettings.objects.get(competition=competition)
    assert rules.open and rules.max_players == 60
    assert AuditEntry.objects.filter(action="entry-settings", competition_id=competition.pk).exists()


def test_the_reminder_before_round_1_goes_once_to_each_accepted_player(player, td_client, open_competition):
    enter(player, open_competition, "da")
    enter(player, open_competition, first_name="Karel", email="karel@example.org")
    first, _second = Entry.objects.order_by("pk")
    decide(td_client, first, "accept")
    mail.outbox.clear()
    url = reverse("entry_inbox", args=["testclub", "open"])
    td_client.post(url, {"action": "remind"})
    td_client.post(url, {"action": "remind"})
    assert [m.subject for m in mail.outbox] == ["Weekend Open: 1. runde nærmer sig"]
    assert first.token in mail.outbox[0].body


def test_the_reminder_command_reminds_the_players_of_a_round_1_within_the_hours(
    player, td_client, open_competition, django_capture_on_commit_callbacks
):
    from datetime import timedelta

    from django.core.management import call_command
    from django.utils import timezone

    from clubs.models import Season
    from season.models import ClubNight, PlannedRound

    enter(player, open_competition, "nl")
    decide(td_client, Entry.objects.get(), "accept")
    mail.outbox.clear()
    start = timezone.localtime() + timedelta(hours=30)
    night = ClubNight.objects.create(season=Season.objects.create(club=open_competition.club, name="2026"),
                                     date=start.date(), start=start.time().replace(microsecond=0))  # fmt: skip
    PlannedRound.objects.create(competition=open_competition, number=1, night=night)
    for hours in ("24", "48", "48"):  # too far off; near enough; everyone reminded already
        with django_capture_on_commit_callbacks(execute=True):
            call_command("send_entry_reminders", "--hours", hours, stdout=io.StringIO())
    assert [m.subject for m in mail.outbox] == ["Weekend Open: ronde 1 komt eraan"]


def test_a_name_look_up_never_reveals_a_members_national_id(player, open_competition, listed):
    by_name = player.post(form_url(open_competition), {"lookup": "1", "first_name": "Anna", "last_name": "de Vries"})
    assert 'value="1503014"' in by_name.content.decode() and "8123456" not in by_name.content.decode()
    by_id = player.post(form_url(open_competition), {"lookup": "1", "national_id": "8123456"})
    assert 'value="8123456"' in by_id.content.decode()
