"""Pairing a large field as a job: the pair button starts it from PAIRING_JOB_MIN_PLAYERS players; the job
pairs the round the TD asked for once, however often it runs, and a plan overtaken by a change is paired
again from the new state. tests/deploy/test_worker.py pairs 1000 players with a real worker that is killed
midway."""

from __future__ import annotations

import pytest
from django.urls import reverse

from jobs.models import Job
from pairing import services as adapter
from pairing.services import records as services
from pairing.tasks import pair_round
from tests.conftest import make_competition, make_members, play_round
from tournaments.models import Round

pytestmark = pytest.mark.django_db

DUMMY = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}


def boards(rnd: Round) -> list[tuple[int, int]]:
    return [(g.white.start_number, g.black.start_number) for g in rnd.games.order_by("board")]


def test_a_small_field_is_paired_at_once(td_client, club, td, settings):
    settings.PAIRING_JOB_MIN_PLAYERS = 9
    competition = make_competition(club, td, make_members(club, 8), system="dutch", rounds=5, slug="open")
    response = td_client.post(reverse("pair", args=[club.slug, competition.slug]))
    assert response["Location"] == reverse("manage_round", args=[club.slug, competition.slug, 1])
    assert not Job.objects.exists()


def test_a_large_field_is_paired_by_a_job_and_the_td_lands_on_the_round(td_client, club, td, settings):
    settings.PAIRING_JOB_MIN_PLAYERS = 8
    competition = make_competition(club, td, make_members(club, 8), system="dutch", rounds=5, slug="open")
    response = td_client.post(reverse("pair", args=[club.slug, competition.slug]))
    job = Job.objects.get()
    assert (job.kind, job.status, job.progress) == ("pairing", Job.Status.DONE, 1.0)
    assert response["Location"] == reverse("manage_round", args=[club.slug, competition.slug, 1])
    rnd = competition.round_set.get(number=1)
    assert rnd.status == Round.Status.DRAFT and rnd.explanation
    # C.04.3 round 1: the top half against the bottom half by start number
    assert sorted(tuple(sorted(b)) for b in boards(rnd)) == [(1, 5), (2, 6), (3, 7), (4, 8)]


def test_a_pairing_job_asked_twice_and_run_twice_pairs_one_round(td_client, club, td, settings):
    settings.PAIRING_JOB_MIN_PLAYERS = 8
    settings.TASKS = DUMMY
    competition = make_competition(club, td, make_members(club, 8), system="dutch", rounds=5, slug="open")
    first = td_client.post(reverse("pair", args=[club.slug, competition.slug]))
    second = td_client.post(reverse("pair", args=[club.slug, competition.slug]))  # a double click
    job = Job.objects.get()
    assert first["Location"] == second["Location"] == reverse("job", args=[club.slug, job.pk])
    assert job.status == Job.Status.QUEUED and not competition.round_set.filter(paired_at__isnull=False).exists()
    pair_round.call(job.pk, job.attempt)
    pair_round.call(job.pk, job.attempt)
    job.refresh_from_db()
    assert job.status == Job.Status.DONE
    assert job.result_url == reverse("manage_round", args=[club.slug, competition.slug, 1])
    assert list(competition.round_set.filter(paired_at__isnull=False).values_list("number", flat=True)) == [1]
    assert competition.round_set.get(number=1).games.count() == 4


def test_a_job_that_cannot_pair_says_why(td_client, club, td, settings):
    settings.PAIRING_JOB_MIN_PLAYERS = 2
    competition = make_competition(club, td, make_members(club, 2), system="monrad", rounds=3, slug="monrad")
    play_round(competition, td)
    td_client.post(reverse("pair", args=[club.slug, competition.slug]))
    job = Job.objects.get()
    assert job.status == Job.Status.FAILED
    assert "no pairing avoids a second game between the same two players" in job.message
    assert competition.round_set.filter(paired_at__isnull=False).count() == 1


def test_a_plan_overtaken_by_a_change_is_paired_again_from_the_new_state(club, td):
    """A result corrected while the worker computed: the saved round follows the corrected result."""
    competition = make_competition(club, td, make_members(club, 6), system="dutch", rounds=5, slug="open")
    play_round(competition, td)  # white wins on every board
    stale = adapter.plan_next_round(competition)
    first = competition.round_set.get(number=1)
    for game in first.games.all():  # every result of round 1 turned round: other score groups
        services.set_result(game, "0-1", td, override=True)
    fresh = adapter.plan_next_round(competition)
    assert fresh.state != stale.state and fresh.pairing.boards != stale.pairing.boards
    rnd = adapter.save_planned_round(competition, stale, td)
    assert boards(rnd) == [(b.white, b.black) for b in fresh.pairing.boards]
