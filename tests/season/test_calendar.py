"""The season calendar: nights planned several at once, rounds on nights, moving a night, public pages."""

from __future__ import annotations

from datetime import date, time

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from audit.models import AuditEntry
from season import planning
from season.models import ClubNight, PlannedRound
from tests.conftest import make_competition


def test_weekly_dates_every_thursday_between_two_dates_without_the_skipped():
    dates = planning.weekly_dates(date(2026, 12, 1), date(2027, 1, 14), 3, {date(2026, 12, 24), date(2026, 12, 31)})
    assert dates == [date(2026, 12, 3), date(2026, 12, 10), date(2026, 12, 17), date(2027, 1, 7), date(2027, 1, 14)]
    assert all(d.weekday() == 3 for d in dates)


def test_weekly_dates_refuses_a_reversed_range():
    with pytest.raises(ValidationError):
        planning.weekly_dates(date(2027, 1, 1), date(2026, 1, 1), 3)


def test_adding_nights_twice_keeps_one_night_per_date(season, nights):
    assert [n.date for n in nights] == [date(2026, 9, 3), date(2026, 9, 10), date(2026, 9, 24), date(2026, 10, 1)]
    again = planning.add_nights(season, [date(2026, 9, 3), date(2026, 10, 8)], time(19, 30))
    assert [n.date for n in again] == [date(2026, 10, 8)]
    assert season.nights.count() == 5


def test_td_plans_nights_on_the_page(td_client, club, season):
    url = reverse("plan_season", args=[club.slug])
    response = td_client.post(
        url,
        {
            "action": "nights", "season": season.pk, "first": "2026-09-01", "last": "2026-12-31", "weekday": "3",
            "start": "20:00", "skip": "2026-10-22, 2026-12-24\n2026-12-31", "kind": "club", "note": "",
        },
    )  # fmt: skip
    assert response.status_code == 302
    dates = list(season.nights.values_list("date", flat=True))
    assert len(dates) == 18 - 3 and date(2026, 10, 22) not in dates and date(2026, 10, 29) in dates
    page = td_client.get(url + f"?season={season.pk}").content.decode()
    assert "Thu 29 Oct 2026" in page


def test_a_bad_skip_date_is_named_and_nothing_is_saved(td_client, club, season):
    response = td_client.post(
        reverse("plan_season", args=[club.slug]),
        {"action": "nights", "season": season.pk, "first": "2026-09-01", "last": "2026-12-31", "weekday": "3",
         "start": "20:00", "skip": "24 December", "kind": "club"},
    )  # fmt: skip
    assert response.status_code == 200
    assert "“24 December” is not a date" in response.content.decode()
    assert not season.nights.exists()


def test_planning_needs_a_td(client, viewer, club, season):
    url = reverse("plan_season", args=[club.slug])
    assert client.get(url).status_code == 302  # to the login
    client.force_login(viewer)
    assert client.get(url).status_code == 403


def test_rounds_of_two_competitions_on_one_night_move_with_it(club, td, members, nights):
    keizer = make_competition(club, td, members[:6], system="keizer", rounds=10, slug="keizer")
    swiss = make_competition(club, td, members[:6], system="dutch", rounds=5, slug="swiss")
    planning.plan_rounds(keizer, {1: nights[0], 2: nights[1]}, td)
    planning.plan_rounds(swiss, {1: nights[1]}, td)
    assert set(nights[1].planned_rounds.values_list("competition__slug", "number")) == {("keizer", 2), ("swiss", 1)}
    planning.move_night(nights[1], date(2026, 9, 15), time(19, 45), td)
    moved = ClubNight.objects.get(pk=nights[1].pk)
    assert (moved.date, moved.start, moved.sequence) == (date(2026, 9, 15), time(19, 45), 1)
    assert planning.round_nights(keizer)[2].date == date(2026, 9, 15)
    assert planning.round_nights(swiss)[1].date == date(2026, 9, 15)
    entry = AuditEntry.objects.get(action="night-moved")
    assert entry.club_id == club.pk and set(entry.params["rounds"]) == {f"{keizer.name} 2", f"{swiss.name} 1"}


def test_a_night_cannot_move_onto_another_night(td, nights):
    with pytest.raises(ValidationError, match="already has a club night"):
        planning.move_night(nights[0], nights[1].date, time(20, 0), td)


def test_no_rounds_on_a_holiday(club, td, members, season, nights):
    holiday = planning.add_nights(season, [date(2026, 12, 24)], time(20, 0), ClubNight.Kind.HOLIDAY, "Christmas")[0]
    keizer = make_competition(club, td, members[:4], system="keizer", rounds=10, slug="keizer")
    with pytest.raises(ValidationError, match="holiday"):
        planning.plan_rounds(keizer, {1: holiday}, td)
    assert not PlannedRound.objects.exists()


def test_td_plans_and_fills_rounds_on_the_page(td_client, club, td, members, season, nights):
    keizer = make_competition(club, td, members[:6], system="keizer", rounds=3, slug="keizer")
    keizer.season = season
    keizer.save()
    url = reverse("plan_rounds", args=[club.slug, keizer.slug])
    td_client.post(url, {"round-1": nights[1].pk, "round-2": "", "round-3": ""})
    assert planning.round_nights(keizer) == {1: nights[1]}
    td_client.post(url, {"action": "fill", "from": "2026-09-01"})
    # Rounds 2 and 3 on the first free nights: 3 Sep and 24 Sep (10 Sep holds round 1).
    assert {n: night.date for n, night in planning.round_nights(keizer).items()} == {
        1: date(2026, 9, 10), 2: date(2026, 9, 3), 3: date(2026, 9, 24),
    }  # fmt: skip
    response = td_client.post(url, {"round-1": "999999"})
    assert response.status_code == 302
    assert planning.round_nights(keizer)[1] == nights[1]


def test_td_moves_a_night_on_its_page(td_client, club, td, members, nights):
    keizer = make_competition(club, td, members[:4], system="keizer", rounds=3, slug="keizer")
    planning.plan_rounds(keizer, {1: nights[0]}, td)
    url = reverse("edit_night", args=[club.slug, nights[0].pk])
    assert "round 1" in td_client.get(url).content.decode()
    td_client.post(url, {"date": "2026-09-04", "start": "19:30", "kind": "club", "note": "Simul first"})
    night = ClubNight.objects.get(pk=nights[0].pk)
    assert (night.date, night.start, night.note) == (date(2026, 9, 4), time(19, 30), "Simul first")
    response = td_client.post(url, {"date": "2026-09-04", "start": "19:30", "kind": "holiday", "note": ""})
    assert response.status_code == 200 and ClubNight.objects.get(pk=night.pk).kind == "club"


def test_public_calendars_show_nights_and_rounds_without_login(client, club, td, members, season, nights):
    keizer = make_competition(club, td, members[:4], system="keizer", rounds=3, slug="keizer")
    planning.plan_rounds(keizer, {1: nights[0], 2: nights[2]}, td)
    planning.add_nights(season, [date(2026, 12, 24)], time(20, 0), ClubNight.Kind.HOLIDAY, "Christmas")
    page = client.get(reverse("club_calendar", args=[club.slug])).content.decode()
    assert "Thu 3 Sep 2026" in page and "Christmas" in page and "Test keizer" in page
    assert reverse("club_feed", args=[club.slug]) in page
    page = client.get(reverse("competition_calendar", args=[club.slug, keizer.slug])).content.decode()
    assert "Thu 24 Sep 2026" in page and "Thu 10 Sep 2026" not in page and "Christmas" not in page
    assert (
        reverse("plan_season", args=[club.slug])
        not in client.get(reverse("club_calendar", args=[club.slug])).content.decode()
    )


def test_calendar_is_a_reserved_competition_name(td_client, club):
    data = {"name": "X", "slug": "calendar", "system": "keizer", "rounds": 3}
    response = td_client.post(reverse("new_competition", args=[club.slug]), data)
    assert "reserved" in response.content.decode()


def test_bad_ids_and_dates_get_a_message_not_an_error(td_client, club, td, members, season, nights):
    keizer = make_competition(club, td, members[:4], system="keizer", rounds=3, slug="keizer")
    response = td_client.post(reverse("plan_season", args=[club.slug]), {"action": "nights", "season": "abc"})
    assert response.status_code == 404
    response = td_client.post(reverse("plan_rounds", args=[club.slug, keizer.slug]), {"action": "fill", "from": "x"},
                              follow=True)  # fmt: skip
    assert "Give the first date as" in response.content.decode() and not keizer.round_plan.exists()
    url = reverse("present_list", args=[club.slug, keizer.slug])
    assert td_client.post(url, {"participant": "abc", "kind": "absent"}).status_code == 404


def test_td_removes_a_night_without_rounds(td_client, club, td, members, nights):
    keizer = make_competition(club, td, members[:4], system="keizer", rounds=3, slug="keizer")
    planning.plan_rounds(keizer, {1: nights[0]}, td)
    td_client.post(reverse("edit_night", args=[club.slug, nights[0].pk]), {"action": "delete"})
    assert ClubNight.objects.filter(pk=nights[0].pk).exists()
    td_client.post(reverse("edit_night", args=[club.slug, nights[1].pk]), {"action": "delete"})
    assert not ClubNight.objects.filter(pk=nights[1].pk).exists()
