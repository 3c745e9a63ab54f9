"""The iCalendar feeds, read back with the icalendar library's parser (RFC 5545)."""

from __future__ import annotations

from datetime import UTC, date, datetime, time

from django.db.models import Q
from django.urls import reverse
from icalendar import Calendar

from season import planning
from season.models import ClubNight, MemberCalendar
from tests.conftest import make_competition, play_round

from .conftest import linked_user


def parse(response) -> Calendar:
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    return Calendar.from_ical(response.content)


def events(cal: Calendar) -> dict[str, object]:
    return {str(e["UID"]): e for e in cal.walk("VEVENT")}


def test_club_feed_holds_every_planned_night(client, club, td, members, season, nights):
    planning.add_nights(season, [date(2026, 12, 24)], time(20, 0), ClubNight.Kind.HOLIDAY, "Christmas")
    keizer = make_competition(club, td, members[:4], system="keizer", rounds=3, slug="keizer")
    planning.plan_rounds(keizer, {1: nights[0]}, td)
    cal = parse(client.get(reverse("club_feed", args=[club.slug])))
    assert str(cal["VERSION"]) == "2.0" and cal["PRODID"]
    found = events(cal)
    assert len(found) == season.nights.count() == 5
    starts = sorted(e.decoded("DTSTART") for e in found.values())
    # 20:00 in Amsterdam is 18:00 UTC in summer time, 19:00 UTC in winter time.
    assert starts[0] == datetime(2026, 9, 3, 18, 0, tzinfo=UTC)
    assert starts[-1] == datetime(2026, 12, 24, 19, 0, tzinfo=UTC)
    first = found[f"night-{nights[0].pk}@clubavond"]
    assert "Test keizer, round 1" in str(first["SUMMARY"])
    assert first.decoded("DTEND") > first.decoded("DTSTART")
    assert any("Christmas" in str(e["SUMMARY"]) for e in found.values())
    for event in found.values():
        assert event.get("DTSTAMP") is not None and event.get("UID")


def test_moving_a_night_changes_the_feed(client, club, td, season, nights):
    url = reverse("club_feed", args=[club.slug])
    uid = f"night-{nights[2].pk}@clubavond"
    before = events(parse(client.get(url)))[uid]
    planning.move_night(nights[2], date(2026, 9, 23), time(19, 30), td)
    after = events(parse(client.get(url)))[uid]
    assert before.decoded("DTSTART") == datetime(2026, 9, 24, 18, 0, tzinfo=UTC)
    assert after.decoded("DTSTART") == datetime(2026, 9, 23, 17, 30, tzinfo=UTC)
    assert int(after["SEQUENCE"]) == int(before["SEQUENCE"]) + 1


def test_member_feed_holds_the_nights_of_own_competitions_and_published_pairings(client, club, td, members, season,
                                                                                 nights):  # fmt: skip
    keizer = make_competition(club, td, members[:4], system="keizer", rounds=3, slug="keizer")
    other = make_competition(club, td, members[4:8], system="keizer", rounds=3, slug="other")
    planning.plan_rounds(keizer, {1: nights[0], 2: nights[1]}, td)
    planning.plan_rounds(other, {1: nights[3]}, td)
    member = members[0]
    calendar = MemberCalendar.of(member)
    url = reverse("member_feed", args=[calendar.token])
    found = events(parse(client.get(url)))
    assert {e.decoded("DTSTART").date() for e in found.values()} == {date(2026, 9, 3), date(2026, 9, 10)}
    play_round(keizer, td)
    participant = keizer.participants.get(member=member)
    game = keizer.round_set.get(number=1).games.get(Q(white=participant) | Q(black=participant))
    first = events(parse(client.get(url)))[f"night-{nights[0].pk}-m{member.pk}@clubavond"]
    assert f"board {game.board}: {game.white.name} – {game.black.name}" in str(first["DESCRIPTION"])


def test_a_draft_pairing_stays_out_of_the_member_feed(client, club, td, members, nights):
    from pairing.services import pair_next_round

    keizer = make_competition(club, td, members[:4], system="keizer", rounds=3, slug="keizer")
    planning.plan_rounds(keizer, {1: nights[0]}, td)
    pair_next_round(keizer, td)
    body = client.get(reverse("member_feed", args=[MemberCalendar.of(members[0]).token])).content.decode()
    assert "board" not in body


def test_unknown_or_renewed_token_gives_404(client, club, members, nights):
    member = members[0]
    user = linked_user(member, "anna")
    old = MemberCalendar.of(member).token
    assert client.get(reverse("member_feed", args=["x" * 32])).status_code == 404
    client.force_login(user)
    client.post(reverse("my_settings"), {"action": "new-feed"})
    assert client.get(reverse("member_feed", args=[old])).status_code == 404
    assert client.get(reverse("member_feed", args=[MemberCalendar.of(member).token])).status_code == 200
    assert len(MemberCalendar.of(member).token) >= 32
