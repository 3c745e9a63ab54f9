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


def test_a_new_version_is_printed_when_it_commits_and_only_three_files_are_kept(
    client, competition, td, storage, renders, django_capture_on_commit_callbacks
):
    """A large PDF asked for once is printed again by the worker for each new version as it commits, before
    anyone asks: the next request is served from storage, and each version is rendered once."""
    with django_capture_on_commit_callbacks(execute=True):
        assert content(client.get(url(competition))).startswith(b"%PDF")
    assert renders.call_count == 1
    versions = []
    for _round in range(4):
        with django_capture_on_commit_callbacks(execute=True):
            play_round(competition, td)  # several actions, each a new version; the last one's is printed
        competition.refresh_from_db()
        versions.append(competition.version)
        assert PrintedPdf.objects.filter(kind="standings", version=competition.version).exists()
        printed_so_far = renders.call_count
        assert content(client.get(url(competition))).startswith(b"%PDF")
        assert renders.call_count == printed_so_far  # from storage
    assert renders.call_count == 5  # the first version and one per round
    kept = PrintedPdf.objects.filter(kind="standings")
    assert sorted(kept.values_list("version", flat=True)) == versions[1:]
    assert len(files(storage)) == 3
    assert sorted(files(storage)) == sorted(pdf.file.name.rsplit("/", 1)[1] for pdf in kept)
    assert Job.objects.filter(kind="pdf").count() == 3  # the jobs of deleted files are gone too


def test_a_published_round_has_its_pairing_list_printed_before_anyone_asks(
    client, competition, td, storage, renders, django_capture_on_commit_callbacks
):
    address = reverse("pairings", args=[competition.club.slug, competition.slug, 1]) + "?format=pdf"
    with django_capture_on_commit_callbacks(execute=True):
        assert content(client.get(address, HTTP_ACCEPT_LANGUAGE="nl")).startswith(b"%PDF")
    with django_capture_on_commit_callbacks(execute=True):
        rnd = adapter.pair_next_round(competition, td)
    assert not PrintedPdf.objects.filter(round_number=2).exists()  # a draft: not public
    with django_capture_on_commit_callbacks(execute=True):
        adapter.publish(rnd, td)
    competition.refresh_from_db()
    pdf = PrintedPdf.objects.get(round_number=2)
    assert (pdf.kind, pdf.audience, pdf.language, pdf.version) == ("pairings", "public", "nl", competition.version)
    job = Job.objects.get(params__round=2)
    new = reverse("pairings", args=[competition.club.slug, competition.slug, 2]) + "?format=pdf"
    assert (job.params["path"], job.params["host"]) == (new.removesuffix("?format=pdf"), "testserver")
    count = renders.call_count
    assert content(client.get(new, HTTP_ACCEPT_LANGUAGE="nl")).startswith(b"%PDF")
    assert renders.call_count == count  # from storage


def test_a_newer_version_supersedes_the_job_queued_for_an_older_one(
    client, competition, td, storage, settings, renders, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        client.get(url(competition))
    settings.TASKS = DUMMY  # the jobs wait for a worker
    rnd = adapter.pair_next_round(competition, td)
    adapter.publish(rnd, td)
    game = rnd.games.first()
    queued = []
    for outcome in ("1-0", "0-1", "½-½"):
        with django_capture_on_commit_callbacks(execute=True):
            adapter.set_result(game, outcome, td)
        queued.append(Job.objects.get(kind="pdf", status=Job.Status.QUEUED))
    competition.refresh_from_db()
    versions = [job.params["version"] for job in queued]
    assert versions == sorted(set(versions))  # a job per version, each replacing the one before
    assert versions[-1] == competition.version  # one job in flight: the newest version's
    assert not Job.objects.filter(pk__in=[queued[0].pk, queued[1].pk]).exists()
    print_pdf.call(queued[0].pk, queued[0].attempt)  # the dropped job's task: nothing to do
    assert renders.call_count == 1
    print_pdf.call(queued[-1].pk, queued[-1].attempt)
    assert renders.call_count == 2
    assert PrintedPdf.objects.filter(version=competition.version).count() == 1


def test_a_job_of_an_older_version_prints_nothing_when_the_current_file_is_kept(
    client, competition, td, storage, settings, renders, django_capture_on_commit_callbacks
):
    """Once per version: a job whose version was overtaken prints the current one, unless it is there."""
    with django_capture_on_commit_callbacks(execute=True):
        client.get(url(competition))
    settings.TASKS = DUMMY
    with django_capture_on_commit_callbacks(execute=True):
        play_round(competition, td)
    job = Job.objects.get(kind="pdf", status=Job.Status.QUEUED)
    print_pdf.call(job.pk, job.attempt)
    assert renders.call_count == 2
    late = Job.objects.get(pk=job.pk)
    late.pk, late.key, late.status = None, "late", Job.Status.QUEUED
    late.params = job.params | {"version": job.params["version"] - 1}
    late.save()
    print_pdf.call(late.pk, late.attempt)  # an old job running late: the current file is kept already
    late.refresh_from_db()
    assert renders.call_count == 2 and late.status == Job.Status.DONE


def test_a_small_competition_is_not_printed_on_a_change(
    client, competition, td, storage, settings, renders, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        client.get(url(competition))
    settings.PDF_JOB_MIN_PLAYERS = 7  # now small: its PDFs are printed in the request
    with django_capture_on_commit_callbacks(execute=True):
        play_round(competition, td)
    assert renders.call_count == 1 and Job.objects.filter(kind="pdf").count() == 1


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
