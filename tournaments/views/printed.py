"""A large competition's PDF as its page answers `?format=pdf` (`tournaments.printed`): the file of the
current version from storage; else the page "being prepared", which starts the job (one per version), polls
it (htmx, `&poll=1`, past the page cache) and opens the PDF when it is ready, and meanwhile offers the newest
earlier copy (`&version=N`) saying how old it is. A job that failed says why and offers to try again
(`&retry=1`); it is not started again by every request."""

from __future__ import annotations

from django.http import FileResponse, Http404
from django.shortcuts import render
from django.utils import translation
from django_htmx.http import HttpResponseClientRedirect

from jobs.models import Job

from .. import printed, tasks
from ..models import Competition, PrintedPdf


def deferred_pdf(request, competition: Competition, kind: str, filename: str, number: int = 0, audience="public"):
    """The answer to a large competition's `?format=pdf`, or None: not a PDF, or the view renders the PDF
    itself (a small competition, or the worker printing)."""
    if request.GET.get("format") != "pdf" or getattr(request, "printing", False):
        return None
    if not printed.is_large(competition):
        return None
    language = translation.get_language() or ""
    params = printed.job_params(competition, kind, number, audience, language)
    files = printed.series(competition.pk, kind, number, audience, language)
    if "version" in request.GET:
        wanted = files.filter(version=request.GET["version"]).first() if request.GET["version"].isdigit() else None
        if wanted is None:
            raise Http404
        return _file(wanted, filename)
    current = files.filter(version__gte=competition.version).first()
    if current is not None:
        if request.htmx:
            return HttpResponseClientRedirect(f"{request.path}?format=pdf")
        return _file(current, filename)
    job = printed.find_job(params, competition.club)
    if job is not None and job.status == Job.Status.DONE:  # its file was deleted meanwhile: print it again
        printed.forget(job)
        job = None
    if job is None or (job.status == Job.Status.FAILED and "retry" in request.GET):
        job = tasks.start_pdf(request, competition, params)
        if job.status == Job.Status.DONE:  # printed at once (a worker in the process, as in the tests)
            current = files.filter(version__gte=competition.version).first()
            if current is not None:
                return _file(current, filename)
    context = {
        "competition": competition,
        "job": job,
        "kind": PrintedPdf.Kind(kind).label,
        "older": files.filter(version__lt=competition.version).first(),
    }
    if request.htmx:
        return render(request, "tournaments/printed_pdf.html#status", context)
    return render(request, "tournaments/printed_pdf.html", context, status=202)


def _file(pdf: PrintedPdf, filename: str) -> FileResponse:
    response = FileResponse(pdf.file.open("rb"), content_type="application/pdf", filename=filename)
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response
