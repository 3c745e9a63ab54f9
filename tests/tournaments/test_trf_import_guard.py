"""A TRF import is guarded: the import page offered a short name as free; when another TD made or imported
a competition with it meanwhile, nothing is imported and the message names who did and when, whether the
file is imported at once or by a worker."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from pairing import services as adapter
from tests.conftest import make_competition, make_members
from tests.shared_data import DUTCH_CORPUS
from tournaments.models import Competition, Participant

pytestmark = pytest.mark.django_db

TRF = DUTCH_CORPUS / "t001_n007_r05_messy.trf"


def import_post(client, club, slug: str):
    data = {"file": SimpleUploadedFile(TRF.name, TRF.read_bytes()), "slug": slug, "system": "dutch", "name": ""}
    return client.post(reverse("import_trf", args=[club.slug]), data)


def test_an_import_under_a_short_name_another_td_took_meanwhile_names_him(td_client, club, other_td):
    jan, jan_client = other_td
    td_client.get(reverse("import_trf", args=[club.slug]))
    assert import_post(jan_client, club, "open").status_code == 302
    participants = Participant.objects.count()
    response = import_post(td_client, club, "open")
    page = response.content.decode()
    assert response.status_code == 200
    assert "Meanwhile Jan Tweede made the competition " in page and "with the short name open (at " in page
    assert Competition.objects.filter(slug="open").count() == 1 and Participant.objects.count() == participants
    # Under another short name, the same file goes in.
    assert import_post(td_client, club, "open-2").status_code == 302


def test_the_import_itself_refuses_a_short_name_taken_since_the_form_was_checked(club, td, other_td):
    jan, _client = other_td
    make_competition(club, jan, make_members(club, 4), slug="open")
    with pytest.raises(adapter.StaleAction) as refused:
        adapter.import_trf(club, TRF.read_text(), td, name="", slug="open", system="dutch", source=TRF.name)
    assert (
        "Meanwhile Jan Tweede made the competition Test roundrobin with the short name open"
        in refused.value.messages[0]
    )
    assert Competition.objects.filter(slug="open").count() == 1


def test_a_job_waiting_while_another_td_takes_the_short_name_fails_naming_him(td_client, club, other_td, settings):
    from jobs.models import Job
    from tournaments.tasks import import_trf_file

    jan, _client = other_td
    settings.TRF_INLINE_MAX_BYTES = 100  # the worker imports it
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    import_post(td_client, club, "open")
    job = Job.objects.get(kind="trf-import")
    make_competition(club, jan, make_members(club, 4), slug="open")  # while the job waits
    import_trf_file.call(job.pk, job.attempt)
    job.refresh_from_db()
    assert job.status == Job.Status.FAILED
    assert "Meanwhile Jan Tweede made the competition Test roundrobin with the short name open" in job.message
    assert Competition.objects.get(slug="open").participants.count() == 4


def test_the_refusal_is_in_the_readers_language(td_client, club, other_td):
    jan, _client = other_td
    make_competition(club, jan, make_members(club, 4), slug="open")
    data = {"file": SimpleUploadedFile(TRF.name, TRF.read_bytes()), "slug": "open", "system": "dutch", "name": ""}
    page = td_client.post(reverse("import_trf", args=[club.slug]), data, HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Intussen heeft Jan Tweede de competitie Test roundrobin met de korte naam open" in page
