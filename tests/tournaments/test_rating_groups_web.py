"""Splitting an event into rating groups, one competition per group (seed 004 §65), from the TD's page."""

import pytest
from django.urls import reverse

from audit.models import AuditEntry
from tests.conftest import make_competition, make_members, play_round
from tournaments.models import Competition

pytestmark = pytest.mark.django_db


def groups_url(competition):
    return reverse("split_groups", args=[competition.club.slug, competition.slug])


def members_of(competition):
    return [p.member for p in competition.participants.select_related("member").order_by("member__national_rating")]


@pytest.mark.rule("004 65")
def test_a_swiss_event_splits_with_only_the_lowest_group_odd(td_client, club, td):
    members = make_members(club, 27)  # national ratings 2090, 2080, ...: strongest first
    event = make_competition(club, td, members, system="dutch", rounds=7, slug="open")
    preview = td_client.get(groups_url(event), {"size": 9})
    assert [len(g) for g in preview.context["division"]] == [10, 8, 9]  # 9 -> 10 takes the next group's best
    response = td_client.post(groups_url(event), {"size": 9})
    assert response.status_code == 302
    groups = [Competition.objects.get(club=club, slug=f"open-{n}") for n in (1, 2, 3)]
    assert [sorted(members_of(g), key=members.index) for g in groups] == [members[:10], members[10:18], members[18:]]
    assert all(g.system == "dutch" and g.rounds == 7 for g in groups)
    assert groups[1].name == "Test dutch, group 2"
    assert AuditEntry.objects.get(competition_id=event.pk, action="split-groups").params == {"group_sizes": [10, 8, 9]}


@pytest.mark.rule("004 65")
def test_a_round_robin_event_keeps_groups_of_the_chosen_size(td_client, club, td):
    event = make_competition(club, td, make_members(club, 27), system="roundrobin", slug="rr")
    td_client.post(groups_url(event), {"size": 9})
    assert [Competition.objects.get(slug=f"rr-{n}").participants.count() for n in (1, 2, 3)] == [9, 9, 9]


@pytest.mark.rule("004 65")
def test_groups_only_before_round_one_and_only_by_the_td(client, td_client, club, td, viewer):
    event = make_competition(club, td, make_members(club, 8), system="dutch", rounds=3, slug="open")
    page = td_client.get(groups_url(event), {"size": 8})
    assert "only one group" in td_client.post(groups_url(event), {"size": 8}).content.decode()
    assert page.status_code == 200
    play_round(event, td)
    response = td_client.post(groups_url(event), {"size": 4})
    assert "before round 1 is paired" in response.content.decode()
    assert not Competition.objects.filter(slug__startswith="open-").exists()
    client.force_login(viewer)
    assert client.post(groups_url(event), {"size": 4}).status_code == 403
