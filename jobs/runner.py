"""Start, run, watch and recover jobs; the one place that knows how a job's life goes.

Life of a job: `submit` (in the request) creates it, or finds the same job already there (same key:
kind, club, parameters, content of the upload), and enqueues a django-tasks task with (job id, attempt).
The task calls `run`, which claims the job for that attempt, does the work and records the result in
the same transaction as the work's writes. So a task run twice, or an old attempt still running beside
a new one, changes nothing: only the current attempt, while the job is still open, may commit.

Work is a function `work(job, report) -> save`: it reads and computes outside any transaction, calling
`report(fraction)` now and then (which also tells it to stop when its attempt was superseded), and
returns `save()`, which writes the outcome and returns the URL of the result page. `Failed(message)`
ends the job with a message for the TD.

A worker that dies leaves its job RUNNING. Every worker (`manage.py worker`) looks for such jobs: one
whose heartbeat is older than JOBS_STALE_SECONDS, or whose worker process on this host is gone, is
queued again as the next attempt and picked up by any worker.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import socket
import threading
import time
from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, close_old_connections, connection, transaction
from django.utils import timezone, translation
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _

from . import uploads
from .models import Job

logger = logging.getLogger("jobs")

Report = Callable[[float], None]
Save = Callable[[], str]
Work = Callable[[Job, Report], Save]


class Failed(Exception):
    """The job cannot be done (e.g. a malformed file): the message is shown to the TD."""


class Superseded(Exception):
    """This attempt is no longer the job's current one (it was recovered elsewhere): stop, change nothing."""


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def job_key(kind: str, club_id: int | None, params: dict, content_sha256: str) -> str:
    text = json.dumps([kind, club_id, params, content_sha256], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def submit(
    task, *, kind: str, title: str, club, user, params: dict, file_name: str = "", chunks=None, back_url: str = "",
    same: tuple[str, ...] | None = None,
) -> Job:
    """The job doing `task` with `params` (and the file given as `chunks`, a callable giving byte chunks):
    an existing one with the same key unless it failed, else a new one, queued. The key is made of the
    kind, the club, the file's content and the parameters named in `same` (default: all)."""
    digest = uploads.content_hash(chunks()) if chunks else ""
    identity = params if same is None else {name: params[name] for name in same}
    key = job_key(kind, club.pk if club else None, identity, digest)
    existing = Job.objects.filter(key=key).first()
    if existing and existing.status != Job.Status.FAILED:
        return existing
    try:
        with transaction.atomic():
            job = Job.objects.select_for_update().filter(key=key).first()
            if job and job.status != Job.Status.FAILED:
                return job
            upload = uploads.store(file_name, chunks()) if chunks else None
            if job:  # failed before: try again
                job.attempt += 1
                job.status, job.progress, job.message, job.result_url = Job.Status.QUEUED, 0.0, "", ""
                job.upload, job.created_by, job.language = upload, user, translation.get_language()
                job.heartbeat = job.started_at = job.finished_at = None
                job.save()
            else:
                job = Job.objects.create(
                    kind=kind, task=task.module_path, key=key, title=title[:200], club=club, created_by=user,
                    language=translation.get_language() or settings.LANGUAGE_CODE, params=params, upload=upload,
                    back_url=back_url,
                )  # fmt: skip
    except IntegrityError:  # the same job created at this very moment by another request
        return Job.objects.get(key=key)
    enqueue(job)
    job.refresh_from_db()
    return job


def enqueue(job: Job) -> None:
    import_string(job.task).enqueue(job.pk, job.attempt)


def _claim(job_id: int, attempt: int) -> Job | None:
    with transaction.atomic():
        job = Job.objects.select_for_update().filter(pk=job_id).first()
        if job is None or job.attempt != attempt or not job.is_active:
            return None
        job.status, job.worker = Job.Status.RUNNING, worker_name()
        job.started_at = job.heartbeat = timezone.now()
        job.save(update_fields=["status", "worker", "started_at", "heartbeat"])
        return job


def _close(job: Job, attempt: int, status: str, *, message: str = "", result_url: str = "") -> None:
    """Record the outcome (inside the caller's transaction, with the work's writes); Superseded if too late."""
    current = Job.objects.select_for_update().filter(pk=job.pk).first()
    if current is None or current.attempt != attempt or not current.is_active:
        raise Superseded
    upload_id = current.upload_id
    Job.objects.filter(pk=job.pk).update(
        status=status, message=message, result_url=result_url, progress=1.0 if status == Job.Status.DONE else
        current.progress, finished_at=timezone.now(), upload=None,
    )  # fmt: skip
    if upload_id:
        uploads.Upload.objects.filter(pk=upload_id).delete()


class _Reporter:
    """`report(fraction)`: progress, at most a few writes a second; raises Superseded for an old attempt,
    and Failed when the work has run longer than JOBS_TIME_LIMIT_SECONDS (the upload's time limit)."""

    def __init__(self, job: Job, attempt: int) -> None:
        self.job, self.attempt, self.last = job, attempt, 0.0
        self.started = time.monotonic()

    def check_time(self) -> None:
        limit = settings.JOBS_TIME_LIMIT_SECONDS
        if limit and time.monotonic() - self.started > limit:
            raise Failed(
                _("The job took longer than %(seconds)s seconds and was stopped; nothing was saved.")
                % {"seconds": f"{limit:g}"}
            )

    def __call__(self, fraction: float) -> None:
        self.check_time()
        now = time.monotonic()
        if now - self.last < 0.5:
            return
        self.last = now
        updated = Job.objects.filter(pk=self.job.pk, attempt=self.attempt, status=Job.Status.RUNNING).update(
            progress=min(max(fraction, 0.0), 1.0), heartbeat=timezone.now()
        )
        if not updated:
            raise Superseded


class _Heartbeat(threading.Thread):
    """Touches the job's heartbeat every JOBS_HEARTBEAT_SECONDS while the work runs (own connection)."""

    def __init__(self, job: Job, attempt: int) -> None:
        super().__init__(daemon=True, name=f"job-{job.pk}-heartbeat")
        self.job_id, self.attempt, self.stopped = job.pk, attempt, threading.Event()

    def run(self) -> None:
        try:
            while not self.stopped.wait(settings.JOBS_HEARTBEAT_SECONDS):
                try:
                    Job.objects.filter(pk=self.job_id, attempt=self.attempt).update(heartbeat=timezone.now())
                except Exception:  # a locked SQLite file, a dropped connection: the next beat tries again
                    logger.debug("heartbeat of job %s skipped", self.job_id, exc_info=True)
        finally:
            connection.close()


def run(job_id: int, attempt: int, work: Work) -> None:
    """Run one attempt of a job (the body of every job task)."""
    job = _claim(job_id, attempt)
    if job is None:
        logger.info("job %s attempt %s: nothing to do", job_id, attempt)
        return
    logger.info("job %s attempt %s started: %s", job_id, attempt, job.title)
    heartbeat = _Heartbeat(job, attempt) if settings.JOBS_HEARTBEAT_SECONDS else None
    if heartbeat:
        heartbeat.start()
    try:
        with translation.override(job.language):
            try:
                reporter = _Reporter(job, attempt)
                save = work(job, reporter)
                reporter.check_time()  # the work's time limit, also for work that reported no progress
                with transaction.atomic():
                    result_url = save()
                    _close(job, attempt, Job.Status.DONE, result_url=result_url)
            except Failed as failure:
                with transaction.atomic():
                    _close(job, attempt, Job.Status.FAILED, message=str(failure))
            except Superseded:
                raise
            except Exception:
                logger.exception("job %s (%s) attempt %s failed", job.pk, job.title, attempt)
                message = _("The job failed unexpectedly; the error has been logged.")
                with transaction.atomic():
                    _close(job, attempt, Job.Status.FAILED, message=message)
    except Superseded:
        logger.info("job %s attempt %s was superseded; its work is dropped", job_id, attempt)
    finally:
        if heartbeat:
            heartbeat.stopped.set()
            heartbeat.join()


def _alive_here(worker: str) -> bool | None:
    """Whether the worker process `host:pid` runs; None when it is on another host (cannot tell)."""
    host, _colon, pid = worker.rpartition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return None
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def recover() -> list[Job]:
    """Queue again every running job whose worker is gone; returns them."""
    stale_before = timezone.now() - timedelta(seconds=settings.JOBS_STALE_SECONDS)
    recovered = []
    for job in Job.objects.filter(status=Job.Status.RUNNING).only("pk", "worker", "heartbeat"):
        alive = _alive_here(job.worker)
        if alive or (alive is None and job.heartbeat and job.heartbeat >= stale_before):
            continue
        with transaction.atomic():
            current = Job.objects.select_for_update().get(pk=job.pk)
            if current.status != Job.Status.RUNNING or current.worker != job.worker:
                continue
            current.attempt += 1
            current.status, current.worker = Job.Status.QUEUED, ""
            current.save(update_fields=["attempt", "status", "worker"])
        logger.warning("job %s lost its worker %s: queued again as attempt %s", current.pk, job.worker, current.attempt)
        enqueue(current)
        recovered.append(current)
    return recovered


class Recovery(threading.Thread):
    """In every worker: `recover()` at start, then every half JOBS_STALE_SECONDS."""

    def __init__(self) -> None:
        super().__init__(daemon=True, name="jobs-recovery")

    def run(self) -> None:
        while True:
            try:
                close_old_connections()
                recover()
            except Exception:
                logger.exception("recovering lost jobs failed")
            time.sleep(max(settings.JOBS_STALE_SECONDS / 2, 0.5))
