"""A job's page: its progress while it runs (htmx polls it; a refresh link without JavaScript), then
the result page, or the message of a job that failed."""

from __future__ import annotations

from django.shortcuts import get_object_or_404, redirect, render
from django_htmx.http import HttpResponseClientRedirect

from clubs.access import directed_club

from .models import Job


def follow(job: Job):
    """Where to send the TD after starting `job`: its result if it is done already, else its page."""
    if job.status == Job.Status.DONE and job.result_url:
        return redirect(job.result_url)
    return redirect("job", job.club.slug, job.pk)


def job_page(request, club, pk):
    club = directed_club(request, club)
    job = get_object_or_404(Job, club=club, pk=pk)
    if job.status == Job.Status.DONE and job.result_url:
        return HttpResponseClientRedirect(job.result_url) if request.htmx else redirect(job.result_url)
    template = "jobs/job.html#status" if request.htmx else "jobs/job.html"
    return render(request, template, {"club": club, "job": job})
