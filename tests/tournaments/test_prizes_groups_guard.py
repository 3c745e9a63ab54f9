"""The prize table, the time control of the FIDE report, the split into rating groups and a club-match
result are guarded like the other actions: each form carries what its page showed; when another TD
changed it meanwhile, nothing is saved and the message names what changed, by whom and when."""

from __future__ import annotations

import pytest
from django.urls import reverse

from audit.models import AuditEntry
from pairing import services as adapter
from pairing.services import records
from tests.conftest import make_competition, make_members
from tests.guard import basis, messages_of, page, post, stale_message
from tournaments.models import Bye, Competition, PrizeTable

pytestmark = pytest.mark.django_db


@pytest.fixture
def swiss(club, td):
    return make_competition(club, td, make_members(club, 8), system="dutch", rounds=5, slug="swiss")


def prize_form(html: str, main: str) -> dict:
    return {"sharing": "", "currency": "€", "age_on": "", "main_text": main, "groups_text": "",
            "based_on": basis(html)}  # fmt: skip


def test_a_prize_table_from_an_older_page_is_refused_and_names_who_saved_it(td_client, swiss, other_td):
    jan, jan_client = other_td
    mine = page(td_client, "prize_settings", swiss)
    post(jan_client, "prize_settings", swiss, prize_form(page(jan_client, "prize_settings", swiss), "100, 50"))
    entries = AuditEntry.objects.count()
    response = post(td_client, "prize_settings", swiss, prize_form(mine, "80, 40"))
    stale_message(messages_of(response), "prize table")
    assert PrizeTable.objects.get(competition=swiss).main == [["100", ""], ["50", ""]]
    assert AuditEntry.objects.count() == entries
    # The page now shows Jan's table; saved from it, the TD's table replaces his.
    response = post(td_client, "prize_settings", swiss, prize_form(response.content.decode(), "80, 40"))
    assert "Prize table saved." in messages_of(response)
    assert PrizeTable.objects.get(competition=swiss).main == [["80", ""], ["40", ""]]


def report_page(client, competition) -> str:
    url = reverse("rating_report", args=[competition.club.slug, competition.slug]) + "?system=fide"
    return client.get(url).content.decode()


def test_a_time_control_from_an_older_report_page_is_refused(td_client, swiss, other_td):
    jan, jan_client = other_td
    mine = basis(report_page(td_client, swiss), after='id="time-control"')
    theirs = basis(report_page(jan_client, swiss), after='id="time-control"')
    post(jan_client, "rating_report", swiss, {"time_control": "rapid", "based_on": theirs})
    response = post(td_client, "rating_report", swiss, {"time_control": "blitz", "based_on": mine})
    stale_message(messages_of(response), "time control")
    swiss.refresh_from_db()
    assert swiss.time_control == "rapid"
    fresh = basis(response.content.decode(), after='id="time-control"')
    response = post(td_client, "rating_report", swiss, {"time_control": "blitz", "based_on": fresh})
    assert "Time control saved." in messages_of(response)
    swiss.refresh_from_db()
    assert swiss.time_control == "blitz"


def groups_page(client, competition, size: int) -> str:
    url = reverse("split_groups", args=[competition.club.slug, competition.slug])
    return client.get(url, {"size": size}).content.decode()


def test_a_split_previewed_before_another_tds_withdrawal_creates_nothing(td_client, club, td, other_td):
    jan, _jan_client = other_td
    event = make_competition(club, td, make_members(club, 16), system="dutch", rounds=5, slug="open")
    mine = basis(groups_page(td_client, event, 8))
    adapter.withdraw(event.participants.get(start_number=3), jan)
    response = post(td_client, "split_groups", event, {"size": 8, "based_on": mine})
    assert "This changed after your page was shown (player withdrawn, by Jan Tweede at " in response.content.decode()
    assert not Competition.objects.filter(slug__startswith="open-").exists()
    # Previewed again, the split goes through.
    response = post(td_client, "split_groups", event, {"size": 8, "based_on": basis(groups_page(td_client, event, 8))})
    assert "2 competitions created, one per group." in messages_of(response)
    assert Competition.objects.filter(slug__startswith="open-").count() == 2


def test_a_double_split_creates_the_groups_once(td_client, club, td):
    event = make_competition(club, td, make_members(club, 16), system="dutch", rounds=5, slug="open")
    data = {"size": 8, "based_on": basis(groups_page(td_client, event, 8))}
    post(td_client, "split_groups", event, data)
    response = post(td_client, "split_groups", event, data)
    assert "(split into rating groups, by director at " in response.content.decode()
    assert Competition.objects.filter(slug__startswith="open-").count() == 2


@pytest.fixture
def keizer_round(club, td):
    keizer = make_competition(club, td, make_members(club, 9), system="keizer", rounds=10, slug="keizer")
    away = keizer.participants.get(start_number=9)
    records.set_absence(keizer, 1, away, Bye.Kind.CLUB_MATCH, td)
    rnd = adapter.pair_next_round(keizer, td)
    adapter.publish(rnd, td)
    return keizer, rnd.byes.get(participant=away)


def club_match_shown(client, keizer) -> str:
    return basis(page(client, "manage_round", keizer, 1), "shown", after='id="club-9"')


def test_a_club_match_result_typed_over_another_tds_is_refused(td_client, keizer_round, other_td):
    keizer, bye = keizer_round
    jan, jan_client = other_td
    mine = club_match_shown(td_client, keizer)
    post(jan_client, "club_match_result", keizer, {"points": "1", "shown": club_match_shown(jan_client, keizer)}, 1, 9)
    entries = AuditEntry.objects.count()
    response = post(td_client, "club_match_result", keizer, {"points": "0", "shown": mine}, 1, 9)
    message = messages_of(response)
    assert "Meanwhile Jan Tweede entered 1 (at " in message and "you typed 0" in message
    bye.refresh_from_db()
    assert bye.points == 1 and AuditEntry.objects.count() == entries
    # Typed again on the page that shows Jan's result, the TD's replaces it.
    post(td_client, "club_match_result", keizer, {"points": "0", "shown": club_match_shown(td_client, keizer)}, 1, 9)
    bye.refresh_from_db()
    assert bye.points == 0


def test_a_refused_prize_table_is_explained_in_the_readers_language(td_client, swiss, other_td):
    jan, jan_client = other_td
    mine = page(td_client, "prize_settings", swiss)
    post(jan_client, "prize_settings", swiss, prize_form(page(jan_client, "prize_settings", swiss), "100"))
    url = reverse("prize_settings", args=[swiss.club.slug, swiss.slug])
    response = td_client.post(url, prize_form(mine, "80"), follow=True, HTTP_ACCEPT_LANGUAGE="da")
    assert "Dette blev ændret, efter din side blev vist (" in messages_of(response)
    assert "af Jan Tweede kl. " in messages_of(response)
