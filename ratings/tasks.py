"""Reading a rating list as a background job (a full FIDE list takes up to a minute): the upload page
starts it, the job's page shows the progress, then the preview to confirm. A site admin's upload also
replaces the site's full list of that system (`ratings.full_lists`), with the preview's save: the list
is read a second time, from the stored upload, inside that transaction."""

from __future__ import annotations

import logging
from datetime import date

from django.urls import reverse
from django.utils.translation import gettext as _
from django_tasks import task

from jobs import runner, uploads

from . import full_lists, imports
from .lists import ListError
from .models import RatingSystem

logger = logging.getLogger("ratings")


@task()
def read_rating_list(job_id: int, attempt: int) -> None:
    runner.run(job_id, attempt, _read)


def _read(job, report: runner.Report) -> runner.Save:
    params = job.params
    with uploads.open_upload(job.upload) as stream:
        try:
            progress = lambda _lines: report(stream.raw.fraction)  # noqa: E731
            result = imports.read_and_match(job.club, params["source"], stream, progress)
        except ListError as error:
            raise runner.Failed(_("%(error)s. Nothing was imported.") % {"error": error}) from error

    def save() -> str:
        if getattr(job.created_by, "is_superuser", False):
            with uploads.open_upload(job.upload) as again:
                try:
                    full_lists.load(params["source"], again, date.fromisoformat(params["list_date"]),
                                    params["file_name"], job.created_by)  # fmt: skip
                except ListError as error:  # only "a later list is held": the club's preview is still made
                    logger.info("full list not replaced: %s", error)
        list_import = imports.save_preview(
            job.club, params["source"], result, params["file_name"], date.fromisoformat(params["list_date"]),
            job.created_by,
        )  # fmt: skip
        return reverse("rating_list", args=[job.club.slug, list_import.pk])

    return save


def start(club, source: str, upload, list_date: date, user) -> runner.Job:
    """The job reading `upload` (an UploadedFile) for `club`: a new one, or the same list's job already there."""
    title = _("Reading the %(list)s list of %(date)s (%(file)s)") % {
        "list": RatingSystem(source).label, "date": list_date.isoformat(), "file": upload.name,
    }  # fmt: skip
    return runner.submit(
        read_rating_list, kind="rating-list", title=title, club=club, user=user,
        params={"source": source, "list_date": list_date.isoformat(), "file_name": upload.name[:255]},
        file_name=upload.name, chunks=upload.chunks, back_url=reverse("rating_lists", args=[club.slug]),
        same=("source", "list_date"),  # the same list under another file name is the same job
    )  # fmt: skip
