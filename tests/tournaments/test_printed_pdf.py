"""The PDFs of large competitions: made by a worker once per version and language, served from storage,
the page "being prepared" (polling, the earlier copy offered) while the job runs, at most three files kept.
Small competitions are printed at once, as before."""

from __future__ import annotations

import shutil
import subprocess
from unittest import mock

import pytest
from django.core.files.storage import FileSystemStorage
from django.test import Client
from django.urls import reverse

from jobs.models import Job
from pairing import services as adapter
from tests.conftest import make_competition, play_round
from tournaments.backup import export_club
from tournaments.models import PrintedPdf
from tournaments.tasks import print_pdf
from tournaments.views import public

pytestmark = pytest.mark.django_db

DUMMY = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}


@pytest.fixture
def storage(settings, tmp_path, monkeypatch):
    """The PDFs in a folder of this test, from 6 players on made by a worker (in the request: the tests' jobs
    run at once unless the queue is DUMMY)."""
    monkeypatch.setattr(PrintedPdf._meta.get_field("file"), "storage", FileSystemStorage(location=tmp_path))
    settings.PDF_JOB_MIN_PLAYERS = 6
    return tmp_path


@pytest.fixture
def renders():
    """Counts the PDFs rendered by the public views (in a request or by the job)."""
    with mock.patch.object(public, "render_pdf", wraps=public.render_pdf) as counted:
        yield counted


@pytest.fixture
def competition(club, td, members):
    competition = make_competition(club, td, members[:6])
    play_round(competition, td)
    return competition


def files(folder) -> list[str]:
    return sorted(path.name for path in folder.rglob("*.pdf"))


def text(pdf: bytes, tmp_path) -> str:
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext (poppler-utils) is not installed")
    source = tmp_path / "read.pdf"
    source.write_bytes(pdf)
    return subprocess.run(["pdftotext", str(source), "-"], capture_output=True, text=True, check=True).stdout


def content(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def url(competition, name="standings") -> str:
    return reverse(name, args=[competition.club.slug, competition.slug]) + "?format=pdf"


def test_a_large_pdf_is_rendered_once_per_version_and_served_from_storage(
    client, competition, storage, renders, django_capture_on_commit_callbacks
):
    first = client.get(url(competition))
    assert first.status_code == 200 and first["Content-Type"] == "application/pdf"
    printed = content(first)
    assert printed.startswith(b"%PDF")
    assert renders.call_count == 1
    second = client.get(url(competition))
    assert content(second) == printed
    assert 'filename="rr-standings.pdf"' in second["Content-Disposition"]
    assert renders.call_count == 1  # from storage
    pdf = PrintedPdf.objects.get()
    competition.refresh_from_db()
    assert (pdf.kind, pdf.round_number, pdf.language, pdf.version) == ("standings", 0, "en", competition.version)
    assert Job.objects.filter(kind="pdf").count() == 1
    assert len(files(storage)) == 1


def test_a_new_version_makes_a_new_file_and_only_three_are_kept(
    client, competition, td, storage, renders, django_capture_on_commit_callbacks
):
    versions = []
    for _round in range(4):
        competition.refresh_from_db()
        versions.append(competition.version)
        with django_capture_on_commit_callbacks(execute=True):
            assert content(client.get(url(competition))).startswith(b"%PDF")
            client.get(url(competition))
            play_round(competition, td)  # a new version
    assert renders.call_count == 4
    kept = PrintedPdf.objects.filter(kind="standings")
    assert sorted(kept.values_list("version", flat=True)) == versions[1:]
    assert len(files(storage)) == 3
    assert sorted(files(storage)) == sorted(pdf.file.name.rsplit("/", 1)[1] for pdf in kept)
    assert Job.objects.filter(kind="pdf").count() == 3  # the jobs of deleted files are gone too


@pytest.mark.parametrize(("language", "word"), [("nl", "Kruistabel"), ("da", "Krydstabel")])
def test_each_language_has_its_own_file_printed_once(client, competition, storage, renders, tmp_path, language, word):
    english = content(client.get(url(competition, "crosstable"), HTTP_ACCEPT_LANGUAGE="en"))
    translated = content(client.get(url(competition, "crosstable"), HTTP_ACCEPT_LANGUAGE=language))
    again = content(client.get(url(competition, "crosstable"), HTTP_ACCEPT_LANGUAGE=language))
    assert renders.call_count == 2 and again == translated
    assert sorted(PrintedPdf.objects.values_list("language", flat=True)) == sorted(["en", language])
    assert "Crosstable" in text(english, tmp_path)
    assert word in text(translated, tmp_path)


@pytest.mark.parametrize(
    ("language", "prepared", "earlier"),
    [
        ("en", "is being prepared", "An earlier copy, made"),
        ("nl", "wordt klaargemaakt", "Een eerdere versie, gemaakt"),
        ("da", "bliver gjort klar", "En tidligere udgave, lavet"),
    ],
)
def test_while_the_worker_prints_the_page_polls_and_offers_the_earlier_copy(
    client, competition, td, storage, settings, language, prepared, earlier
):
    headers = {"HTTP_ACCEPT_LANGUAGE": language}
    older = content(client.get(url(competition), **headers))  # printed at once (the test's worker)
    play_round(competition, td)
    settings.TASKS = DUMMY  # from now on the job waits for a worker
    waiting = client.get(url(competition), **headers)
    assert waiting.status_code == 202
    page = waiting.content.decode()
    assert prepared in page and earlier in page
    poll = f'hx-get="{reverse("standings", args=[competition.club.slug, competition.slug])}?format=pdf&amp;poll=1"'
    assert poll in page
    old = PrintedPdf.objects.get()
    assert f"?format=pdf&amp;version={old.version}" in page
    assert content(client.get(url(competition) + f"&version={old.version}", **headers)) == older
    job = Job.objects.get(kind="pdf", status=Job.Status.QUEUED)
    assert client.get(url(competition), **headers).status_code == 202  # the same job, not another
    assert Job.objects.filter(kind="pdf").count() == 2
    partial = client.get(url(competition) + "&poll=1", HTTP_HX_REQUEST="true", **headers)
    assert partial.status_code == 200 and prepared in partial.content.decode()
    assert "<html" not in partial.content.decode()
    print_pdf.call(job.pk, job.attempt)  # the worker
    ready = client.get(url(competition) + "&poll=1", HTTP_HX_REQUEST="true", **headers)
    assert ready["HX-Redirect"] == url(competition)
    fresh = client.get(url(competition), **headers)
    assert content(fresh).startswith(b"%PDF") and content(fresh) != older


def test_a_failed_print_says_so_and_is_tried_again_only_when_asked(client, competition, storage, renders, settings):
    with mock.patch.object(public, "render_pdf", side_effect=RuntimeError("no fonts")):
        failed = client.get(url(competition))
        assert failed.status_code == 202 and "could not be made" in failed.content.decode()
        assert "retry=1" in failed.content.decode()
        client.get(url(competition))
    job = Job.objects.get(kind="pdf")
    assert (job.status, job.attempt) == (Job.Status.FAILED, 1)  # not started again by the second request
    retried = client.get(url(competition) + "&retry=1")
    assert content(retried).startswith(b"%PDF")
    job.refresh_from_db()
    assert (job.status, job.attempt) == (Job.Status.DONE, 2)


def test_the_tds_draft_pairing_list_is_printed_apart_from_the_public_one(td_client, competition, td, storage):
    client = Client()
    rnd = adapter.pair_next_round(competition, td)  # a draft: only the TD sees it
    address = reverse("pairings", args=[competition.club.slug, competition.slug, rnd.number]) + "?format=pdf"
    assert content(td_client.get(address)).startswith(b"%PDF")
    assert client.get(address).status_code == 404  # the public has no round 2 yet
    pdf = PrintedPdf.objects.get()
    assert (pdf.kind, pdf.round_number, pdf.audience) == ("pairings", 2, "director")
    public_address = reverse("pairings", args=[competition.club.slug, competition.slug, 1]) + "?format=pdf"
    assert content(client.get(public_address)).startswith(b"%PDF")
    assert PrintedPdf.objects.filter(audience="public", round_number=1).exists()


def test_a_small_competition_is_printed_at_once(client, competition, storage, settings, renders):
    settings.PDF_JOB_MIN_PLAYERS = 7
    response = client.get(url(competition))
    assert response["Content-Type"] == "application/pdf" and response.content.startswith(b"%PDF")
    assert renders.call_count == 1
    assert not PrintedPdf.objects.exists() and not Job.objects.exists()


def test_a_club_backup_leaves_the_printed_files_out(client, competition, storage, renders):
    """A printed PDF is made again from the data when asked for: it is no part of the club's backup."""
    client.get(url(competition))
    assert PrintedPdf.objects.count() == 1
    labels = {section["model"] for section in export_club(competition.club)["models"]}
    assert "tournaments.competition" in labels and "tournaments.printedpdf" not in labels
