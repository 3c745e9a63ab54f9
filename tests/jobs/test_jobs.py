"""Background jobs: uploads kept in the database, one job per list, attempts, recovery, the job's page.

The tests' task backend runs a task at once; tests that must see a job waiting use the dummy backend,
and tests/deploy/test_worker.py runs a real worker across a restart.
"""

from __future__ import annotations

import io
import os
import socket
import subprocess
import sys
import zipfile
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from jobs import runner, uploads
from jobs.models import Job, Upload, UploadChunk
from ratings.models import RatingListImport
from ratings.tasks import read_rating_list
from tests.ratings.test_web_rating_lists import fide_txt, people, upload  # noqa: F401

pytestmark = pytest.mark.django_db

DUMMY = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}


def chunks_of(data: bytes, size: int):
    return lambda: (data[i : i + size] for i in range(0, len(data), size))


def test_an_upload_is_kept_in_chunks_and_read_back_seekable(monkeypatch):
    monkeypatch.setattr(uploads, "CHUNK_SIZE", 1000)
    data = bytes(range(256)) * 11  # 2816 bytes: three chunks, the last one partial
    stored = uploads.store("list.bin", chunks_of(data, 700)())
    assert (stored.size, stored.sha256) == (len(data), uploads.content_hash([data]))
    assert list(UploadChunk.objects.filter(upload=stored).values_list("index", flat=True)) == [0, 1, 2]
    with uploads.open_upload(stored) as stream:
        assert stream.read(10) == data[:10]
        stream.seek(1995)
        assert stream.read(10) == data[1995:2005]  # across a chunk boundary
        stream.seek(-5, io.SEEK_END)
        assert stream.read() == data[-5:]
        assert stream.raw.fraction == 1.0


def test_a_zipped_list_is_read_from_the_database(monkeypatch):
    """zipfile seeks to the directory at the end, then reads the member: the reader must allow both."""
    monkeypatch.setattr(uploads, "CHUNK_SIZE", 4096)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("players_list_foa.txt", fide_txt() * 50)
    stored = uploads.store("list.zip", [buffer.getvalue()])
    with uploads.open_upload(stored) as stream, zipfile.ZipFile(stream) as archive:
        assert archive.read("players_list_foa.txt") == fide_txt() * 50


def test_the_same_list_sent_twice_is_one_job_and_one_preview(td_client, club, people):  # noqa: F811
    first = upload(td_client, club, "fide", "a.txt", fide_txt())
    again = upload(td_client, club, "fide", "copy-of-a.txt", fide_txt())
    assert (
        first["Location"]
        == again["Location"]
        == reverse("rating_list", args=[club.slug, RatingListImport.objects.get().pk])
    )
    assert Job.objects.count() == 1
    other_date = upload(td_client, club, "fide", "a.txt", fide_txt(), day="2026-12-01")
    assert other_date["Location"] != first["Location"] and Job.objects.count() == 2
    assert Upload.objects.count() == 0  # each upload went with its finished job


def queued_list_job(td_client, club, settings, content: bytes = b"") -> Job:
    settings.TASKS = DUMMY
    response = upload(td_client, club, "fide", "a.txt", content or fide_txt())
    job = Job.objects.get()
    assert response["Location"] == reverse("job", args=[club.slug, job.pk])
    assert job.status == Job.Status.QUEUED and job.upload.size == len(content or fide_txt())
    return job


def test_a_task_run_twice_gives_one_result(td_client, club, people, settings):  # noqa: F811
    job = queued_list_job(td_client, club, settings)
    read_rating_list.call(job.pk, job.attempt)
    read_rating_list.call(job.pk, job.attempt)
    job.refresh_from_db()
    assert job.status == Job.Status.DONE and job.progress == 1.0
    assert RatingListImport.objects.count() == 1
    assert job.result_url == reverse("rating_list", args=[club.slug, RatingListImport.objects.get().pk])


def test_only_the_current_attempt_may_finish_the_job(td_client, club, people, settings):  # noqa: F811
    job = queued_list_job(td_client, club, settings)
    Job.objects.filter(pk=job.pk).update(attempt=2)  # recovered: attempt 1 is history
    read_rating_list.call(job.pk, 1)
    assert Job.objects.get().status == Job.Status.QUEUED and RatingListImport.objects.count() == 0
    read_rating_list.call(job.pk, 2)
    assert Job.objects.get().status == Job.Status.DONE and RatingListImport.objects.count() == 1


def test_an_attempt_superseded_while_it_works_stops_and_saves_nothing(td_client, club, settings):
    job = queued_list_job(td_client, club, settings)
    saved = []

    def work(running: Job, report):
        Job.objects.filter(pk=running.pk).update(attempt=2)  # another worker took it over meanwhile
        report(0.3)
        return lambda: saved.append(1) or "/"

    runner.run(job.pk, 1, work)
    job.refresh_from_db()
    assert saved == [] and job.attempt == 2 and job.status == Job.Status.RUNNING


def test_a_malformed_list_fails_with_its_line_and_can_be_sent_again(td_client, club, people, settings):  # noqa: F811
    bad = fide_txt(bad="12x4           Broken, Line")
    job = queued_list_job(td_client, club, settings, bad)
    read_rating_list.call(job.pk, job.attempt)
    job.refresh_from_db()
    assert (
        job.status == Job.Status.FAILED and job.message.startswith("line 4:") and "Nothing was imported" in job.message
    )
    page = td_client.get(reverse("job", args=[club.slug, job.pk])).content.decode()
    assert job.message in page and reverse("rating_lists", args=[club.slug]) in page and "hx-trigger" not in page
    upload(td_client, club, "fide", "a.txt", bad)  # the same file again: the failed job is tried again
    job.refresh_from_db()
    assert (job.attempt, job.status) == (2, Job.Status.QUEUED) and Job.objects.count() == 1


def test_the_job_page_shows_progress_polls_and_then_leads_to_the_result(td_client, club, people, settings):  # noqa: F811
    job = queued_list_job(td_client, club, settings)
    url = reverse("job", args=[club.slug, job.pk])
    page = td_client.get(url).content.decode()
    assert "Waiting for a worker" in page and 'hx-trigger="every 1s"' in page and f'href="{url}"' in page
    Job.objects.filter(pk=job.pk).update(status=Job.Status.RUNNING, progress=0.42)
    partial = td_client.get(url, headers={"HX-Request": "true"}).content.decode()
    assert partial.lstrip().startswith('<div id="job-status"') and "<html" not in partial
    assert 'value="42"' in partial and "42 % done" in partial
    Job.objects.filter(pk=job.pk).update(status=Job.Status.QUEUED)
    read_rating_list.call(job.pk, job.attempt)
    result = reverse("rating_list", args=[club.slug, RatingListImport.objects.get().pk])
    assert td_client.get(url)["Location"] == result
    assert td_client.get(url, headers={"HX-Request": "true"})["HX-Redirect"] == result


def test_only_the_clubs_tds_see_its_jobs(client, td_client, club, viewer, settings):
    job = queued_list_job(td_client, club, settings)
    client.force_login(viewer)
    assert client.get(reverse("job", args=[club.slug, job.pk])).status_code == 403


def dead_pid() -> int:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def test_running_jobs_of_dead_workers_are_queued_again(td_client, club, people, settings):  # noqa: F811
    settings.JOBS_STALE_SECONDS = 60
    job = queued_list_job(td_client, club, settings)
    here = socket.gethostname()
    now = timezone.now()
    cases = {
        "elsewhere, silent for long": (f"other-host:{os.getpid()}", now - timedelta(seconds=61), True),
        "elsewhere, beat just now": ("other-host:1", now, False),
        "here, process gone": (f"{here}:{dead_pid()}", now, True),
        "here, process alive": (f"{here}:{os.getpid()}", now - timedelta(seconds=600), False),
    }
    for name, (worker, heartbeat, recovered) in cases.items():
        Job.objects.filter(pk=job.pk).update(status=Job.Status.RUNNING, worker=worker, heartbeat=heartbeat, attempt=1)
        assert [j.pk for j in runner.recover()] == ([job.pk] if recovered else []), name
        job.refresh_from_db()
        assert (job.status, job.attempt) == ((Job.Status.QUEUED, 2) if recovered else (Job.Status.RUNNING, 1)), name
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
    Job.objects.filter(pk=job.pk).update(
        status=Job.Status.RUNNING, worker="other-host:1", heartbeat=now - timedelta(hours=1)
    )
    runner.recover()  # queued again, and (this backend) run at once
    job.refresh_from_db()
    assert (job.status, job.attempt) == (Job.Status.DONE, 2) and RatingListImport.objects.count() == 1


def test_a_large_trf_file_is_imported_by_a_job(td_client, club, settings):
    from tests.tournaments.test_competitions import CORPUS
    from tournaments.models import Competition

    settings.TRF_INLINE_MAX_BYTES = 100
    text = (CORPUS / "t001_n007_r05_messy.trf").read_text()
    post = {"file": SimpleUploadedFile("big.trf", text.encode()), "slug": "big", "system": "dutch", "name": ""}
    response = td_client.post(reverse("import_trf", args=[club.slug]), post)
    assert response["Location"] == reverse("manage", args=[club.slug, "big"])
    assert Competition.objects.get(slug="big").participants.count() == 7
    job = Job.objects.get()
    assert (job.kind, job.status, job.upload) == ("trf-import", Job.Status.DONE, None)

    broken = "\n".join(
        line[:96] + "Q" + line[97:] if line.startswith("001    3") else line for line in text.splitlines()
    )
    post = {"file": SimpleUploadedFile("bad.trf", broken.encode()), "slug": "bad", "system": "dutch"}
    page = td_client.post(reverse("import_trf", args=[club.slug]), post, follow=True).content.decode()
    assert "bad.trf:4: round 1: unknown colour" in page and not Competition.objects.filter(slug="bad").exists()


def test_a_job_past_its_time_limit_stops_with_a_message_and_saves_nothing(td_client, club, people, settings):  # noqa: F811
    settings.JOBS_TIME_LIMIT_SECONDS = 1e-9  # any work at all takes longer
    upload(td_client, club, "fide", "a.txt", fide_txt())
    job = Job.objects.get()
    assert job.status == Job.Status.FAILED
    assert "took longer than 1e-09 seconds and was stopped; nothing was saved" in job.message
    assert not RatingListImport.objects.exists() and not Upload.objects.exists()
    page = td_client.get(reverse("job", args=[club.slug, job.pk])).content.decode()
    assert "nothing was saved" in page
