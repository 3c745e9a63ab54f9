"""Background jobs of competitions: importing a large TRF file (the import page starts it for files over
TRF_INLINE_MAX_BYTES; smaller ones are imported at once by the same `pairing.services.import_trf`), and printing a
large competition's PDF once per version (`tournaments.printed`)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.urls import reverse
from django.utils.translation import gettext as _
from django_tasks import task

from clubs.validation import InputError
from jobs import runner, uploads
from pairing import services
from pairing.engines.trf import TrfError

from . import printed


@task()
def import_trf_file(job_id: int, attempt: int) -> None:
    runner.run(job_id, attempt, _import)


def _import(job, report: runner.Report) -> runner.Save:
    params = job.params
    with uploads.open_upload(job.upload) as stream:
        text = stream.read().decode("utf-8")  # stored as the form decoded it
    report(0.5)

    def save() -> str:
        try:
            competition = services.import_trf(
                job.club, text, job.created_by, name=params["name"], slug=params["slug"], system=params["system"],
                source=params["file_name"],
            )  # fmt: skip
        except services.StaleAction as error:  # the short name was taken while the job waited: by whom, when
            raise runner.Failed(" ".join(error.messages)) from error
        except (TrfError, InputError, ValidationError) as error:
            raise runner.Failed(str(error)) from error
        except IntegrityError as error:  # the short name was taken while the job waited
            raise runner.Failed(_("This short name is taken; choose another.")) from error
        return reverse("manage", args=[job.club.slug, competition.slug])

    return save


def start(club, text: str, file_name: str, *, name: str, slug: str, system: str, user) -> runner.Job:
    """The job importing the (decoded) TRF `text` as the competition `slug` of `club`."""
    params = {"name": name, "slug": slug, "system": system, "file_name": file_name[:255]}
    data = text.encode("utf-8")
    return runner.submit(
        import_trf_file, kind="trf-import", title=_("Importing %(file)s") % {"file": file_name}, club=club,
        user=user, params=params, file_name=file_name, chunks=lambda: [data],
        back_url=reverse("import_trf", args=[club.slug]),
    )  # fmt: skip


@task()
def print_pdf(job_id: int, attempt: int) -> None:
    runner.run(job_id, attempt, printed.work)


def start_pdf(request, competition, params: dict) -> runner.Job:
    """The job printing the page `request` asked for (its address, host and scheme; the TD for drafts)
    for the version and series in `params` (`printed.job_params`): one job per version and series, the
    series's jobs still queued for older versions dropped."""
    director = params["audience"] == "director"
    extra = {"path": request.path, "host": request.get_host(), "scheme": request.scheme}
    if director:
        extra["user"] = request.user.pk
    kind = printed.PrintedPdf.Kind(params["kind"]).label
    job = runner.submit(
        print_pdf, kind=printed.KIND, club=competition.club, user=request.user if director else None,
        params=params | extra, same=tuple(params),
        title=_("Printing the %(kind)s of %(competition)s") % {"kind": kind, "competition": competition.name},
        back_url=request.path,
    )  # fmt: skip
    printed.supersede(job)
    return job
