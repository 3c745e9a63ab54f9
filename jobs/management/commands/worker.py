"""Run a job worker for the configured task backend, recovering jobs whose worker died.

    manage.py worker      # the database queue (db_worker), or with REDIS_URL the RQ queue (rqworker)

`make run` and `make serve` start one beside the web server; a deployment runs as many as it likes.
"""

from __future__ import annotations

import logging
import time

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import OperationalError
from django_tasks import DEFAULT_TASK_BACKEND_ALIAS, task_backends

from jobs.runner import Recovery

logger = logging.getLogger("jobs")


class Command(BaseCommand):
    help = "Run background jobs (rating lists, large TRF files) from the queue; recover jobs of dead workers."

    def handle(self, *args, **options):
        backend = type(task_backends[DEFAULT_TASK_BACKEND_ALIAS]).__name__
        if backend not in {"DatabaseBackend", "RQBackend"}:
            raise CommandError(f"the task backend {backend} has no queue to work on")
        Recovery().start()
        if backend == "RQBackend":
            call_command("rqworker", "default", job_class="django_tasks_rq.Job", verbosity=options["verbosity"])
            return
        interval = 0.5  # seconds between two polls of the queue
        while True:
            try:
                call_command(
                    "db_worker", interval=interval, reload=False, startup_delay=False, verbosity=options["verbosity"]
                )
                return
            except OperationalError as error:
                # SQLite: the queue's poll waits up to its busy timeout for the write lock; a lock held
                # longer (a large import in one transaction) makes the worker poll again, not stop.
                if "locked" not in str(error).lower():
                    raise
                logger.warning("the database stayed locked; polling the queue again")
                time.sleep(interval)
