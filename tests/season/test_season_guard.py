"""The season's TD posts are guarded: planning nights and seasons, a night's page, the rounds on nights,
the sign-off rules and the presence the TD sets on the present list each carry what their page showed;
when another TD changed it meanwhile, nothing is saved and the message names what changed, by whom and
when."""

from __future__ import annotations

from datetime import date, time

import pytest
from django.urls import reverse

from audit.models import AuditEntry
from pairing import services as adapter
from season import planning
from season.models import ClubNight, SignOffRules
from tests.conftest import make_competition
from tests.guard import basis, messages_of, page, post, stale_message
from tournaments.models import Bye

pytestmark = pytest.mark.django_db


def plan_page(client, club, season) -> str:
    return client.get(reverse("plan_season", args=[club.slug]) + f"?season={season.pk}").content.decode()


def nights_post(html: str, season, first: str, last: str) -> dict:
    shown = basis(html, after='id="nights-form"')
    return {"action": "nights", "season": season.pk, "first": first, "last": last, "weekday": "3",
            "start": "20:00", "skip": "", "kind": "club", "note": "", "based_on": shown}  # fmt: skip


def test_nights_added_from_a_page_older_than_another_tds_are_refused(td_client, club, season, other_td):
    jan, jan_client = other_td
    url = reverse("plan_season", args=[club.slug])
    mine = plan_page(td_client, club, season)
    jan_client.post(url, nights_post(plan_page(jan_client, club, season), season, "2026-09-01", "2026-09-30"))
    assert season.nights.count() == 4
    response = td_client.post(url, nights_post(mine, season, "2026-10-01", "2026-10-31"), follow=True)
    stale_message(messages_of(response), "club nights added")
    assert season.nights.count() == 4
    # From the page that shows Jan's nights, the TD's go in.
    td_client.post(url, nights_post(response.content.decode(), season, "2026-10-01", "2026-10-31"))
    assert season.nights.count() == 9


def test_a_season_added_from_an_older_page_is_refused(td_client, club, season, other_td):
    jan, _jan_client = other_td
    url = reverse("plan_season", args=[club.slug])
    mine = basis(plan_page(td_client, club, season), "season-based_on")
    planning.add_nights(season, [date(2026, 9, 3)], time(20, 0), user=jan)
    data = {"action": "season", "season-name": "2027-2028", "season-start": "2027-09-01", "season-end": "2028-06-30"}
    response = td_client.post(url, data | {"season-based_on": mine}, follow=True)
    stale_message(messages_of(response), "club nights added")
    assert not club.seasons.filter(name="2027-2028").exists()
    fresh = basis(response.content.decode(), "season-based_on")
    td_client.post(url, data | {"season-based_on": fresh})
    assert club.seasons.filter(name="2027-2028").exists()


def night_url(club, night) -> str:
    return reverse("edit_night", args=[club.slug, night.pk])


def test_a_night_moved_meanwhile_is_not_changed_or_removed_from_an_older_page(td_client, club, nights, other_td):
    jan, jan_client = other_td
    night = nights[0]
    mine = basis(td_client.get(night_url(club, night)).content.decode())
    theirs = basis(jan_client.get(night_url(club, night)).content.decode())
    jan_client.post(night_url(club, night), {"date": "2026-09-04", "start": "20:00", "kind": "club", "note": "",
                                             "based_on": theirs})  # fmt: skip
    entries = AuditEntry.objects.count()
    data = {"date": "2026-09-03", "start": "19:00", "kind": "club", "note": "Simul", "based_on": mine}
    response = td_client.post(night_url(club, night), data, follow=True)
    stale_message(messages_of(response), "club night changed")
    response = td_client.post(night_url(club, night), {"action": "delete", "based_on": mine}, follow=True)
    stale_message(messages_of(response), "club night changed")
    night = ClubNight.objects.get(pk=night.pk)
    assert (night.date, night.start, night.note) == (date(2026, 9, 4), time(20, 0), "")
    assert AuditEntry.objects.count() == entries
    # Removed from the page that shows the move, the night goes.
    fresh = basis(response.content.decode(), after='value="delete"')
    td_client.post(night_url(club, night), {"action": "delete", "based_on": fresh})
    assert not ClubNight.objects.filter(pk=night.pk).exists()


@pytest.fixture
def keizer(club, td, members, season):
    competition = make_competition(club, td, members[:6], system="keizer", rounds=3, slug="keizer")
    competition.season = season
    competition.save()
    return competition


def test_rounds_planned_meanwhile_are_not_overwritten(td_client, keizer, nights, other_td):
    jan, jan_client = other_td
    mine = basis(page(td_client, "plan_rounds", keizer))
    theirs = basis(page(jan_client, "plan_rounds", keizer))
    post(jan_client, "plan_rounds", keizer, {"round-1": nights[1].pk, "based_on": theirs})
    response = post(td_client, "plan_rounds", keizer, {"round-1": nights[2].pk, "based_on": mine})
    stale_message(messages_of(response), "rounds planned")
    assert planning.round_nights(keizer) == {1: nights[1]}
    response = post(td_client, "plan_rounds", keizer, {"action": "fill", "from": "2026-09-01", "based_on": mine})
    stale_message(messages_of(response), "rounds planned")
    assert planning.round_nights(keizer) == {1: nights[1]}
    post(td_client, "plan_rounds", keizer, {"round-1": nights[2].pk, "based_on": basis(response.content.decode())})
    assert planning.round_nights(keizer) == {1: nights[2]}


def rules_basis(html: str) -> str:
    return basis(html, after='id="sign-off-rules"')


def test_sign_off_rules_saved_meanwhile_are_not_overwritten(td_client, keizer, other_td):
    jan, jan_client = other_td
    mine = rules_basis(page(td_client, "present_list", keizer))
    data = {"action": "rules", "open": "on", "deadline_hours": 6}
    post(jan_client, "present_list", keizer, data | {"based_on": rules_basis(page(jan_client, "present_list", keizer))})
    response = post(td_client, "present_list", keizer, data | {"deadline_hours": 48, "based_on": mine})
    stale_message(messages_of(response), "sign-off rules")
    assert SignOffRules.of(keizer).deadline_hours == 6
    fresh = rules_basis(response.content.decode())
    response = post(td_client, "present_list", keizer, data | {"deadline_hours": 48, "based_on": fresh})
    assert "Sign-off rules saved." in messages_of(response)
    assert SignOffRules.of(keizer).deadline_hours == 48


def presence_shown(html: str, participant) -> str:
    return basis(html, "shown", after=f'name="participant" value="{participant.pk}"')


def test_a_presence_changed_meanwhile_is_not_overwritten_from_the_present_list(td_client, keizer, other_td):
    jan, _jan_client = other_td
    player = keizer.participants.get(start_number=4)
    mine = presence_shown(page(td_client, "present_list", keizer), player)
    assert mine == "present"
    adapter.set_absence(keizer, player, Bye.Kind.ABSENT_NOTICE, jan)
    data = {"participant": player.pk, "kind": Bye.Kind.CLUB_MATCH, "shown": mine}
    response = post(td_client, "present_list", keizer, data)
    message = messages_of(response)
    assert "The presence of " in message and "changed after your page was shown (by Jan Tweede at " in message
    assert Bye.objects.get(participant=player, round__number=1).kind == Bye.Kind.ABSENT_NOTICE
    data["shown"] = presence_shown(response.content.decode(), player)
    post(td_client, "present_list", keizer, data)
    assert Bye.objects.get(participant=player, round__number=1).kind == Bye.Kind.CLUB_MATCH
