"""Pairing a large field as a background job: the pair button starts it for a competition of at least
PAIRING_JOB_MIN_PLAYERS players (a pairing that may take more than a couple of seconds); smaller fields
are paired at once by the same `services.pair_next_round`."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils.translation import gettext as _
from django_tasks import task

from audit.models import AuditEntry
from jobs import runner
from pairing import services
from tournaments.models import Competition


@task()
def pair_round(job_id: int, attempt: int) -> None:
    runner.run(job_id, attempt, _pair)


def _pair(job, report: runner.Report) -> runner.Save:
    """The engine runs outside any transaction; `save` writes the round in the job's closing transaction
    (pairing again there if the competition changed meanwhile). A worker that dies midway leaves nothing
    behind, and the next attempt starts from the same state."""
    number = job.params["round"]
    competition = Competition.objects.get(pk=job.params["competition"])
    report(0.1)
    plan = None
    if not _paired(competition, number):
        try:
            plan = services.plan_next_round(competition)
        except ValidationError as error:
            raise runner.Failed(" ".join(error.messages)) from error
    report(0.9)

    def save() -> str:
        locked = Competition.objects.select_for_update().get(pk=competition.pk)
        if not _paired(locked, number):  # else paired already (an earlier attempt, the TD): that is the result
            if plan is None or services.next_round_number(locked) != number:
                raise runner.Failed(_("The competition changed while the pairing waited; pair again."))
            try:
                services.save_planned_round(locked, plan, job.created_by)
            except ValidationError as error:
                raise runner.Failed(" ".join(error.messages)) from error
        return reverse("manage_round", args=[locked.club.slug, locked.slug, number])

    return save


def _paired(competition: Competition, number: int) -> bool:
    return competition.round_set.paired().filter(number=number).exists()


def start(competition: Competition, user) -> runner.Job:
    """The job pairing `competition`'s next round. Asking again while it runs gives the same job; after an
    undo (a later entry in the competition's audit log) a new one."""
    number = services.next_round_number(competition)
    entries = AuditEntry.objects.filter(competition_id=competition.pk).order_by("-id")
    last_action = entries.values_list("id", flat=True).first() or 0
    params = {"competition": competition.pk, "round": number, "after": last_action}
    return runner.submit(
        pair_round, kind="pairing", club=competition.club, user=user, params=params,
        title=_("Pairing round %(n)s of %(competition)s") % {"n": number, "competition": competition.name},
        back_url=reverse("manage", args=[competition.club.slug, competition.slug]),
    )  # fmt: skip
