"""Run a job worker for the configured task backend, recovering jobs whose worker died.

    manage.py worker      # the database queue (db_worker), or with REDIS_URL the RQ queue (rqworker)

`make run` and `make serve` start one beside the web server; a deployment runs as many as it likes.
"""

from __future__ import annotations

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django_tasks import DEFAULT_TASK_BACKEND_ALIAS, task_backends

from jobs.runner import Recovery


class Command(BaseCommand):
    help = "Run background jobs (rating lists, large TRF files) from the queue; recover jobs of dead workers."

    def handle(self, *args, **options):
        backend = type(task_backends[DEFAULT_TASK_BACKEND_ALIAS]).__name__
        if backend not in {"DatabaseBackend", "RQBackend"}:
            raise CommandError(f"the task backend {backend} has no queue to work on")
        Recovery().start()
        if backend == "DatabaseBackend":
            call_command("db_worker", interval=0.5, reload=False, startup_delay=False, verbosity=options["verbosity"])
        else:
            call_command("rqworker", "default", job_class="django_tasks_rq.Job", verbosity=options["verbosity"])
