"""A member's own page: next game, this season's games across competitions, the feed, the answers."""

from __future__ import annotations

from datetime import date, time

from django.contrib.auth import get_user_model
from django.urls import reverse

from clubs.models import Season
from pairing import services as adapter
from pairing.services import pair_next_round
from season import planning
from season.models import MemberCalendar, SignOff
from tests.conftest import make_competition, play_round

from .conftest import linked_user


def test_the_page_needs_a_login_and_a_linked_member(client, club):
    assert client.get(reverse("my_page")).status_code == 302
    user = get_user_model().objects.create_user("nobody", password="pw-nobody-123")
    client.force_login(user)
    assert "not linked to a club member" in client.get(reverse("my_page")).content.decode()


def test_next_game_games_of_the_season_feed_and_answers(client, club, td, members, season, nights):
    member = members[0]
    user = linked_user(member, "anna")
    keizer = make_competition(club, td, members[:4], system="keizer", rounds=5, slug="keizer")
    swiss = make_competition(club, td, members[:4], system="dutch", rounds=3, slug="swiss")
    last_year = Season.objects.create(club=club, name="2025-2026", start=date(2025, 9, 1))
    old = make_competition(club, td, members[:2], system="roundrobin", slug="old")
    for competition, s in ((keizer, season), (swiss, season), (old, last_year)):
        competition.season = s
        competition.save()
    play_round(old, td)
    play_round(keizer, td)
    rnd = pair_next_round(swiss, td)
    adapter.publish(rnd, td)
    participant = swiss.participants.get(member=member)
    board = rnd.games.filter(white=participant).first() or rnd.games.get(black=participant)
    SignOff.objects.create(participant=keizer.participants.get(member=member), round_number=2,
                           answer="absent-notice", answered_by=user)  # fmt: skip
    client.force_login(user)
    page = client.get(reverse("my_page")).content.decode()
    next_game = page[page.index('id="next-pairing"') : page.index('id="sign-off"')]
    assert "Test dutch" in next_game and f"board {board.board}" in next_game
    games = page[page.index('id="my-games"') : page.index('id="my-answers"')]
    assert "My games in 2026-2027" in games
    assert games.count("<tr><td>Test keizer</td>") == 1 and games.count("<tr><td>Test dutch</td>") == 1
    assert "Test roundrobin" not in games  # last season's
    assert MemberCalendar.of(member).token in page
    answers = page[page.index('id="my-answers"') :]
    assert "Test keizer, round 2: absent with notice" in answers
    assert 'id="my-rating-chart"' in page


def test_a_draft_pairing_is_not_shown_to_the_member(client, club, td, members):
    keizer = make_competition(club, td, members[:4], system="keizer", rounds=5, slug="keizer")
    pair_next_round(keizer, td)
    client.force_login(linked_user(members[0], "anna"))
    page = client.get(reverse("my_page")).content.decode()
    assert "No game published for you yet" in page and "board" not in page.split('id="my-games"')[0]


def test_members_own_nights_on_the_page(client, club, td, members, nights):
    keizer = make_competition(club, td, members[:4], system="keizer", rounds=5, slug="keizer")
    planning.plan_rounds(keizer, {1: planning.add_nights(nights[0].season, [date(2099, 1, 1)], time(20, 0))[0]}, td)
    client.force_login(linked_user(members[0], "anna"))
    page = client.get(reverse("my_page")).content.decode()
    assert "Thu 1 Jan" in page and "Next club night" in page


def test_mail_opt_in(client, club, members):
    user = linked_user(members[0], "anna", "anna@example.org")
    client.force_login(user)
    client.post(reverse("my_settings"), {"mail_pairings": "on"})
    assert MemberCalendar.of(members[0]).mail_pairings
    client.post(reverse("my_settings"), {})
    assert not MemberCalendar.of(members[0]).mail_pairings


def test_nothing_private_on_the_public_pages_and_feeds(client, club, td, members, season, nights):
    member = members[0]
    member.birth_date = date(1987, 6, 5)
    member.save()
    keizer = make_competition(club, td, members[:4], system="keizer", rounds=5, slug="keizer")
    planning.plan_rounds(keizer, {1: nights[0]}, td)
    play_round(keizer, td)
    pages = [
        reverse("club_calendar", args=[club.slug]),
        reverse("competition_calendar", args=[club.slug, keizer.slug]),
        reverse("club_feed", args=[club.slug]),
        reverse("member_feed", args=[MemberCalendar.of(member).token]),
    ]
    token = MemberCalendar.of(member).token
    for url in pages:
        body = client.get(url).content.decode()
        assert "1987" not in body and "June" not in body
        assert url.endswith(f"{token}.ics") or token not in body
    private = [
        reverse("my_page"),
        reverse("present_list", args=[club.slug, keizer.slug]),
        reverse("plan_season", args=[club.slug]),
        reverse("plan_rounds", args=[club.slug, keizer.slug]),
        reverse("edit_night", args=[club.slug, nights[0].pk]),
        reverse("notice", args=[club.slug, keizer.slug]),
    ]
    for url in private:
        response = client.get(url)
        assert response.status_code == 302 and reverse("login") in response["Location"]


def test_my_rating_chart_with_its_numbers(client, club, members):
    from ratings.models import RatingChange

    member = members[0]
    client.force_login(linked_user(member, "anna"))
    section = client.get(reverse("my_page")).content.decode().split('id="my-rating-chart"')[1]
    assert "No rating history yet" in section and "<svg" not in section
    RatingChange.objects.create(member=member, system="knsb", date=date(2026, 9, 1), old=None, new=1850)
    RatingChange.objects.create(member=member, system="knsb", date=date(2026, 10, 1), old=1850, new=1872)
    section = client.get(reverse("my_page")).content.decode().split('id="my-rating-chart"')[1]
    assert "<svg" in section and "1872" in section and "1850" in section
