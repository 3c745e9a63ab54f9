"""Long work done by a worker outside the request (django-tasks), and the files it works on.

A `Job` is what the TD sees: a status, a progress bar, then the result page or a message. It is keyed
by what it does (`key`: kind, club, parameters and the upload's content hash), so sending the same
file twice finds the same job. `attempt` counts the runs: a run belongs to one attempt, and only the
current attempt may record progress or a result (see `jobs.runner`).

An `Upload` keeps a file sent with a request in the database, in chunks, until its job has ended: web
processes keep nothing on their own disk, so any worker of a deployment can read it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.models import Club

CHUNK_SIZE = 1 << 20  # bytes per UploadChunk


class Upload(models.Model):
    name = models.CharField(max_length=255)
    size = models.PositiveBigIntegerField(default=0)
    sha256 = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.name} ({self.size} bytes)"


class UploadChunk(models.Model):
    upload = models.ForeignKey(Upload, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    data = models.BinaryField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["upload", "index"], name="upload_chunk_unique")]
        ordering = ["upload", "index"]

    def __str__(self) -> str:
        return f"{self.upload_id}/{self.index}"


class Job(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("waiting for a worker")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    ACTIVE = (Status.QUEUED, Status.RUNNING)

    kind = models.CharField(max_length=40)
    task = models.CharField(max_length=200)  # the django-tasks task that runs it (module path)
    key = models.CharField(max_length=64, unique=True)
    title = models.CharField(max_length=200)
    club = models.ForeignKey(Club, on_delete=models.CASCADE, null=True, blank=True, related_name="jobs")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    language = models.CharField(max_length=10, default=settings.LANGUAGE_CODE)
    params = models.JSONField(default=dict, blank=True)
    upload = models.OneToOneField(Upload, on_delete=models.SET_NULL, null=True, blank=True, related_name="job")
    back_url = models.CharField(max_length=300, blank=True)  # the page the job was started from
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    attempt = models.PositiveIntegerField(default=1)
    progress = models.FloatField(default=0.0)  # 0..1
    message = models.TextField(blank=True)
    result_url = models.CharField(max_length=300, blank=True)
    worker = models.CharField(max_length=120, blank=True)  # host:pid of the process running it
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    heartbeat = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status", "heartbeat"])]
        verbose_name = _("job")
        verbose_name_plural = _("jobs")

    def __str__(self) -> str:
        return f"{self.title} ({self.status})"

    @property
    def is_active(self) -> bool:
        return self.status in self.ACTIVE

    @property
    def percent(self) -> int:
        return round(100 * min(max(self.progress, 0.0), 1.0))
