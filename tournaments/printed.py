"""The PDFs of large competitions, made once per version by a worker and served from storage.

WeasyPrint takes about ten milliseconds per table row, so the standings, crosstable and pairing list of a
field of thousands would outlast the web server's time limit. From settings.PDF_JOB_MIN_PLAYERS players on,
the page's PDF (`?format=pdf`) is made by a worker (the job `tournaments.tasks.print_pdf`) and kept as a
`PrintedPdf`: one file per competition, kind, round, audience, language and competition version. Asking
again for the same version serves the file; a new version (a result, a correction: every action raises
it, `tournaments.versioning`) makes a new file on its first request, while the page offers the newest
earlier copy and says how old it is. Each series keeps its KEEP newest files; older ones are deleted
with their rows.

The worker renders the PDF with the page's own view: a GET request of the page's address with
`?format=pdf`, marked `printing`, so the view renders at once (`tournaments.pdf.render_pdf`).

A change does not wait for the next visitor: when a new version commits (`tournaments.versioning.bump`),
`reprint` queues the jobs of the public PDFs of that competition that were printed before (the same
kinds, languages, host and scheme; the pairing list of the newest published round), so the file is ready
before anyone asks. At most one job per series and version exists (the job's key), a job queued for an
older version is dropped when a newer one is queued (`supersede`: it would print the same newest data
again), and a job finding the file of the current version already kept prints nothing.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction
from django.http import HttpRequest, QueryDict
from django.urls import resolve, reverse
from django.utils import translation
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _
from django_htmx.middleware import HtmxDetails

from jobs import runner
from jobs.models import Job

from .models import Competition, PrintedPdf, Round

KEEP = 3  # the newest files kept of each series (competition, kind, round, audience, language)
KIND = "pdf"  # the jobs' kind


def is_large(competition: Competition) -> bool:
    """Whether the competition's PDFs are made by a worker (settings.PDF_JOB_MIN_PLAYERS)."""
    return competition.participants.count() >= settings.PDF_JOB_MIN_PLAYERS


def series(competition: int, kind: str, round: int, audience: str, language: str):  # noqa: A002
    """The files of one series, newest first."""
    return PrintedPdf.objects.filter(
        competition_id=competition, kind=kind, round_number=round, audience=audience, language=language
    ).order_by("-version")


def job_params(competition: Competition, kind: str, number: int, audience: str, language: str) -> dict:
    """What a job making this PDF is keyed by: the series and the competition's version."""
    return {
        "competition": competition.pk,
        "kind": kind,
        "round": number,
        "audience": audience,
        "language": language,
        "version": competition.version,
    }


def find_job(params: dict, club) -> Job | None:
    key = runner.job_key(KIND, club.pk, params, "")
    return Job.objects.filter(key=key).first()


def forget(job: Job) -> None:
    """A finished job whose file is gone (deleted with its series' older files): its row goes, so the file
    is printed again."""
    job.delete()


def _request(job: Job, report: runner.Report) -> HttpRequest:
    """The GET request of the page's PDF as its visitor sent it (address, host, scheme, who)."""
    params = job.params
    request = HttpRequest()
    request.method = "GET"
    request.path = request.path_info = params["path"]
    request.GET = QueryDict("format=pdf")
    host, _colon, port = params["host"].partition(":")
    request.META = {
        "REQUEST_METHOD": "GET",
        "QUERY_STRING": "format=pdf",
        "HTTP_HOST": params["host"],
        "SERVER_NAME": host,
        "SERVER_PORT": port or ("443" if params["scheme"] == "https" else "80"),
        "wsgi.url_scheme": params["scheme"],
    }
    if params["scheme"] == "https" and settings.SECURE_PROXY_SSL_HEADER:
        header, value = settings.SECURE_PROXY_SSL_HEADER
        request.META[header] = value
    user = None
    if params.get("user"):
        user = get_user_model().objects.filter(pk=params["user"], is_active=True).first()
    request.user = user or AnonymousUser()
    request.htmx = HtmxDetails(request)
    request.printing = True  # the view renders the PDF itself (see `tournaments.views.printed`)
    request.pdf_report = report
    return request


def work(job: Job, report: runner.Report) -> runner.Save:
    """The job's work: render the page's PDF for the competition's current version, then keep it."""
    params = job.params
    version = Competition.objects.filter(pk=params["competition"]).values_list("version", flat=True).first()
    if version is None:
        raise runner.Failed(_("The competition no longer exists."))
    version = max(version, params["version"])
    names = ("competition", "kind", "round", "audience", "language")
    if series(**{name: params[name] for name in names}).filter(version__gte=version).exists():
        return lambda: params["path"] + "?format=pdf"  # printed meanwhile by the job of a newer version
    report(0.05)
    match = resolve(params["path"])
    view = getattr(match.func, "__wrapped__", match.func)  # the page itself, not its cache
    response = view(_request(job, report), *match.args, **match.kwargs)
    if response.status_code != 200 or response.get("Content-Type") != "application/pdf":
        status = {"status": response.status_code}
        raise runner.Failed(_("The page could not be printed (status %(status)s).") % status)
    content = response.content
    report(0.95)

    def save() -> str:
        keep(params, version, content)
        return params["path"] + "?format=pdf"

    return save


def keep(params: dict, version: int, content: bytes) -> PrintedPdf:
    """Store the file of `version` (unless it is there already) and delete the series' older files beyond KEEP."""
    fields = {
        "competition_id": params["competition"],
        "kind": params["kind"],
        "round_number": params["round"],
        "audience": params["audience"],
        "language": params["language"],
    }
    existing = PrintedPdf.objects.filter(**fields, version=version).first()
    if existing:
        return existing
    name = f"{params['competition']}-{params['kind']}-{params['round']}-{params['language']}-v{version}.pdf"
    pdf = PrintedPdf(**fields, version=version, size=len(content))
    pdf.file.save(name, ContentFile(content), save=False)
    try:
        with transaction.atomic():
            pdf.save()
    except IntegrityError:  # made meanwhile by another job of a later request
        pdf.file.delete(save=False)
        return PrintedPdf.objects.get(**fields, version=version)
    names = ("competition", "kind", "round", "audience", "language")
    stale = list(series(**{name: params[name] for name in names})[KEEP:])
    for old in stale:
        _discard(old)
    _forget_jobs(params, [old.version for old in stale])
    return pdf


def _discard(pdf: PrintedPdf) -> None:
    """Delete a file and its row; the file when the transaction commits (a rollback keeps both)."""
    name, storage = pdf.file.name, pdf.file.storage
    pdf.delete()
    transaction.on_commit(lambda: storage.delete(name))


def _forget_jobs(params: dict, versions: list[int]) -> None:
    """The finished jobs of files deleted: their rows go too."""
    if not versions:
        return
    jobs = Job.objects.filter(kind=KIND, status__in=[Job.Status.DONE, Job.Status.FAILED])
    for job in jobs.filter(params__competition=params["competition"], params__kind=params["kind"]):
        p = job.params
        same = all(p.get(name) == params[name] for name in ("round", "audience", "language"))
        if same and p.get("version", 0) <= max(versions):
            job.delete()


def supersede(job: Job) -> int:
    """Drop the queued jobs of `job`'s series for older versions (their worker finds nothing to do); how many."""
    params = job.params
    older = Job.objects.filter(
        kind=KIND, status=Job.Status.QUEUED, club_id=job.club_id, params__competition=params["competition"],
        params__kind=params["kind"], params__round=params["round"], params__audience=params["audience"],
        params__language=params["language"], params__version__lt=params["version"],
    )  # fmt: skip
    return older.delete()[0]


def reprint(competitions) -> list[Job]:
    """After a change (its transaction committed): queue the jobs printing the new version of the public PDFs
    of these competitions (primary keys) that large ones had printed before; the jobs queued."""
    queued = []
    files = PrintedPdf.objects.filter(competition_id__in=list(competitions))
    printed = set(files.values_list("competition_id", flat=True))
    if not printed:  # most changes: nothing of these competitions was ever printed by a worker
        return queued
    earlier = Job.objects.filter(kind=KIND, params__competition__in=sorted(printed), params__audience="public")
    done: dict[int, dict[tuple[str, str], Job]] = {}
    for job in earlier.order_by("pk"):  # the newest job of each kind and language
        done.setdefault(job.params["competition"], {})[(job.params["kind"], job.params["language"])] = job
    for competition in Competition.objects.filter(pk__in=list(done)).select_related("club"):
        if not is_large(competition):
            continue
        newest = competition.round_set.exclude(status=Round.Status.DRAFT).exclude(paired_at=None).last()
        for (kind, language), last in done[competition.pk].items():
            where = [competition.club.slug, competition.slug]
            number = 0
            if kind == PrintedPdf.Kind.PAIRINGS:
                if newest is None:
                    continue
                number = newest.number
                path = reverse("pairings", args=[*where, number])
            else:
                path = reverse(kind, args=where)
            with translation.override(language or None):
                queued.append(_queue(last, competition, kind, number, language, path))
    return queued


def _queue(last: Job, competition: Competition, kind: str, number: int, language: str, path: str) -> Job:
    """The job printing this series's current version, like the earlier job `last` (its task, host, scheme)."""
    params = job_params(competition, kind, number, "public", language)
    extra = {"path": path, "host": last.params["host"], "scheme": last.params["scheme"]}
    job = runner.submit(
        import_string(last.task), kind=KIND, club=competition.club, user=None, params=params | extra,
        same=tuple(params), title=last.title, back_url=path,
    )  # fmt: skip
    supersede(job)
    return job
