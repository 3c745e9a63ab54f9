"""Forbidden pairs through the web application: the TD marks two participants who must not meet on the
competition's settings page, and the pairing keeps them apart (as if they had met) in the rounds given."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from audit.models import AuditEntry
from pairing import services as adapter
from pairing import services as pairing_services
from pairing.engines import trf
from tests.conftest import make_competition, make_members, play_round

pytestmark = pytest.mark.django_db


def settings_url(competition) -> str:
    return reverse("system_settings", args=[competition.club.slug, competition.slug])


def forbid(client, competition, a: int, b: int, first="", last=""):
    """Post the settings page's form for start numbers `a` and `b`."""
    by_number = {p.start_number: p.pk for p in competition.participants.all()}
    return client.post(
        reverse("add_forbidden_pair", args=[competition.club.slug, competition.slug]),
        {"first": by_number[a], "second": by_number[b], "first_round": first, "last_round": last},
    )


def boards(rnd) -> set[frozenset[int]]:
    return {frozenset((g.white.start_number, g.black.start_number)) for g in rnd.games.select_related("white", "black")}


def planned_boards(competition) -> set[frozenset[int]]:
    plan = pairing_services.plan_next_round(competition)
    return {frozenset((b.white, b.black)) for b in plan.pairing.boards}


@pytest.mark.parametrize(
    "system", ["dutch", "dutch-1998", "knsb-rating", "knsb-wp", "dansk", "monrad", "dubov-1997", "keizer"]
)
def test_the_pairing_keeps_a_forbidden_pair_apart(club, td, td_client, system):
    competition = make_competition(club, td, make_members(club, 8), system=system, rounds=5, slug="club")
    # Without the ban round 1 puts 1 against somebody: forbid exactly that pair.
    partner = next(next(iter(b - {1})) for b in planned_boards(competition) if 1 in b)
    response = forbid(td_client, competition, 1, partner)
    assert response.status_code == 302
    td_client.post(reverse("pair", args=[club.slug, competition.slug]))
    rnd = competition.round_set.get(number=1)
    assert frozenset((1, partner)) not in boards(rnd)
    assert len(boards(rnd)) == 4  # everybody is still paired
    assert AuditEntry.objects.filter(competition_id=competition.pk, action="forbid-pair", user_id=td.pk).count() == 1


def test_a_ban_holds_only_in_its_rounds(club, td, td_client):
    competition = make_competition(club, td, make_members(club, 8), system="dutch", rounds=5, slug="club")
    # Dutch round 1 of eight: 1-5, 2-6, 3-7, 4-8 (S1 against S2). A ban on 1-5 from round 2 on leaves round 1.
    assert frozenset((1, 5)) in planned_boards(competition)
    assert forbid(td_client, competition, 1, 5, first=2, last=3).status_code == 302
    assert frozenset((1, 5)) in boards(play_round(competition, td))
    # The engine gets the ban with its rounds, in start numbers.
    state = adapter.rounds._state(competition, 2)
    assert [(b.players, b.first_round, b.last_round) for b in state.forbidden] == [((1, 5), 2, 3)]


def test_the_settings_page_lists_and_deletes_the_bans(club, td, td_client):
    from tournaments.models import ForbiddenPair

    competition = make_competition(club, td, make_members(club, 6), system="dutch", rounds=5, slug="club")
    forbid(td_client, competition, 2, 3, first=1, last=2)
    page = td_client.get(settings_url(competition)).content.decode()
    assert "Player002" in page and "Player003" in page and "rounds 1–2" in page
    assert "cannot honour" not in page
    pair = ForbiddenPair.objects.get()
    response = td_client.post(reverse("delete_forbidden_pair", args=[club.slug, competition.slug, pair.pk]))
    assert response.status_code == 302
    assert not ForbiddenPair.objects.exists()
    allowed = AuditEntry.objects.get(competition_id=competition.pk, action="allow-pair", user_id=td.pk)
    assert (allowed.before["first"], allowed.before["second"]) == ("2. Player002 Surname002", "3. Player003 Surname003")


@pytest.mark.parametrize(
    ("a", "b", "first", "last", "message"),
    [
        (1, 1, "", "", "Choose two different players."),
        (1, 2, 3, 2, "The first round comes after the last round."),
        (1, 2, 0, "", "Rounds are numbered from 1."),
        (1, 2, 2, 9, "This competition has 5 rounds."),
    ],
)
def test_bad_input_is_refused_with_a_message(club, td, td_client, a, b, first, last, message):
    from tournaments.models import ForbiddenPair

    competition = make_competition(club, td, make_members(club, 6), system="dutch", rounds=5, slug="club")
    response = forbid(td_client, competition, a, b, first, last)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not ForbiddenPair.objects.exists()


def test_the_same_ban_twice_and_a_player_of_another_competition_are_refused(club, td, td_client):
    from tournaments.models import ForbiddenPair

    members = make_members(club, 6)
    competition = make_competition(club, td, members, system="dutch", rounds=5, slug="club")
    other = make_competition(club, td, members, system="dutch", rounds=5, slug="other")
    assert forbid(td_client, competition, 1, 2).status_code == 302
    again = forbid(td_client, competition, 2, 1)
    assert again.status_code == 400 and "already forbidden" in again.content.decode()
    stranger = other.participants.get(start_number=3)
    response = td_client.post(
        reverse("add_forbidden_pair", args=[club.slug, competition.slug]),
        {"first": competition.participants.get(start_number=1).pk, "second": stranger.pk},
    )
    assert response.status_code == 400
    assert ForbiddenPair.objects.count() == 1


def test_only_the_td_may_forbid_a_pair(club, td, viewer, client):
    from tournaments.models import ForbiddenPair

    competition = make_competition(club, td, make_members(club, 4), system="dutch", rounds=3, slug="club")
    client.force_login(viewer)
    assert forbid(client, competition, 1, 2).status_code == 403
    client.logout()
    assert forbid(client, competition, 1, 2).status_code == 302  # to the login page
    assert not ForbiddenPair.objects.exists()


@pytest.mark.parametrize("system", ["roundrobin", "knockout"])
def test_a_system_that_cannot_honour_them_says_so_and_takes_none(club, td, td_client, system):
    from tournaments.models import ForbiddenPair

    competition = make_competition(club, td, make_members(club, 4), system=system, rounds=3, slug="club")
    page = td_client.get(settings_url(competition)).content.decode()
    assert "cannot honour forbidden pairs" in page
    assert 'id="forbidden-form"' not in page
    response = forbid(td_client, competition, 1, 2)
    assert response.status_code == 400
    assert "cannot honour forbidden pairs" in response.content.decode()
    assert not ForbiddenPair.objects.exists()
    with translation.override("nl"):
        page = td_client.get(settings_url(competition), HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "cannot honour" not in page and 'id="forbidden-unsupported"' in page


def test_a_ban_left_from_a_swiss_system_does_not_stop_a_round_robin(club, td, td_client):
    """A competition switched to a round robin after a ban was entered pairs by its table; the page says the
    ban is not honoured."""
    competition = make_competition(club, td, make_members(club, 4), system="dutch", rounds=3, slug="club")
    forbid(td_client, competition, 1, 4)
    competition.system = "roundrobin"
    competition.rounds = None
    competition.settings = {}
    competition.save()
    assert "not honoured" in td_client.get(settings_url(competition)).content.decode()
    assert len(boards(play_round(competition, td))) == 2


def test_trf_export_and_import_carry_the_bans(club, td, td_client):
    from pairing.services.trf import import_trf
    from tournaments.models import ForbiddenPair
    from tournaments.trf_export import export_trf

    competition = make_competition(club, td, make_members(club, 6), system="dutch", rounds=5, slug="club")
    forbid(td_client, competition, 1, 4)
    forbid(td_client, competition, 2, 6, first=2, last=3)
    text = export_trf(competition)
    lines = text.splitlines()
    assert "260   1   5    1    4" in lines and "XXP 1 4" in lines
    assert "260   2   3    2    6" in lines
    assert sorted(trf.read_state(text).forbidden, key=lambda b: b.players) == [
        trf.ForbiddenPair((1, 4), 1, 5),
        trf.ForbiddenPair((2, 6), 2, 3),
    ]
    copy = import_trf(club, text, name="Copy", slug="copy", system="dutch")
    rows = ForbiddenPair.objects.filter(competition=copy)
    assert sorted((r.first.start_number, r.second.start_number, r.first_round, r.last_round) for r in rows) == [
        (1, 4, 1, 5),
        (2, 6, 2, 3),
    ]


def test_an_exchange_that_puts_a_forbidden_pair_together_needs_the_override(club, td, td_client):
    from audit.models import AuditEntry

    competition = make_competition(club, td, make_members(club, 4), system="dutch", rounds=3, slug="club")
    forbid(td_client, competition, 1, 2)
    rnd = pairing_services.pair_next_round(competition, td)
    # Dutch round 1 of four: 1-3, 2-4 (S1 against S2). Exchanging 3 and 2 would give 1-2.
    assert boards(rnd) == {frozenset((1, 3)), frozenset((2, 4))}
    url = reverse("exchange", args=[club.slug, competition.slug, 1])
    response = td_client.post(url, {"a": 3, "b": 2}, follow=True)
    assert "must not meet in this round (a forbidden pair)" in response.content.decode()
    assert boards(rnd) == {frozenset((1, 3)), frozenset((2, 4))}
    td_client.post(url, {"a": 3, "b": 2, "override": "1"})
    assert frozenset((1, 2)) in boards(rnd)
    entry = AuditEntry.objects.get(action="exchange-players", competition_id=competition.pk)
    assert entry.params == {"players": [3, 2], "override": ["forbidden"]}


def test_the_manage_page_links_to_the_bans_with_their_number(club, td, td_client):
    competition = make_competition(club, td, make_members(club, 4), system="dutch", rounds=3, slug="club")
    forbid(td_client, competition, 1, 2)
    forbid(td_client, competition, 3, 4, first=2)
    page = td_client.get(reverse("manage", args=[club.slug, competition.slug])).content.decode()
    page = " ".join(page.split())  # attributes may stand on lines of their own
    assert f'href="{settings_url(competition)}#forbidden-pairs" id="forbidden-pairs-link">Forbidden pairs (2)' in page


def test_rating_groups_keep_the_bans_of_players_in_the_same_group(club, td, td_client):
    from tournaments.models import Competition, ForbiddenPair

    event = make_competition(club, td, make_members(club, 8), system="dutch", rounds=5, slug="open")
    forbid(td_client, event, 1, 2, first=2, last=4)  # both in the strong group
    forbid(td_client, event, 1, 8)  # in different groups: nothing to keep apart
    response = td_client.post(reverse("split_groups", args=[club.slug, event.slug]), {"size": 4})
    assert response.status_code == 302
    strong, weak = (Competition.objects.get(club=club, slug=f"open-{n}") for n in (1, 2))
    names = {p.member.full_name for p in strong.participants.select_related("member")}
    assert "Player001 Surname001" in names and "Player002 Surname002" in names
    [ban] = ForbiddenPair.objects.filter(competition=strong).select_related("first__member", "second__member")
    assert {ban.first.name, ban.second.name} == {"Player001 Surname001", "Player002 Surname002"}
    assert (ban.first_round, ban.last_round) == (2, 4)
    assert not ForbiddenPair.objects.filter(competition=weak).exists()


def test_forbidding_and_allowing_leave_rows_in_the_audit_log(club, td, td_client):
    from audit.models import AuditEntry
    from tournaments.models import ForbiddenPair

    competition = make_competition(club, td, make_members(club, 4), system="dutch", rounds=3, slug="club")
    forbid(td_client, competition, 1, 2, first=2)
    added = AuditEntry.objects.get(action="forbid-pair")
    assert added.user_id == td.pk and added.competition_id == competition.pk
    assert added.before is None
    assert added.after == {
        "first": "1. Player001 Surname001",
        "second": "2. Player002 Surname002",
        "first_round": 2,
        "last_round": None,
    }
    pair = ForbiddenPair.objects.get()
    td_client.post(reverse("delete_forbidden_pair", args=[club.slug, competition.slug, pair.pk]))
    lifted = AuditEntry.objects.get(action="allow-pair")
    assert lifted.before == added.after and lifted.after is None
