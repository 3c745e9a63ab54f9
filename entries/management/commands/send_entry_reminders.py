"""Send the reminder before round 1 to the accepted players of every competition whose round 1 is near.

    manage.py send_entry_reminders              # round 1 planned within the next 48 hours
    manage.py send_entry_reminders --hours 24

Run it from cron (say every hour): each player is reminded once (the TD's button on the inbox does the
same for one competition at once). A competition counts when round 1 is planned on a club night that
starts within `--hours` from now and round 1 is not paired yet.
"""

from __future__ import annotations

from datetime import timedelta

from django.core.management.base import BaseCommand
from django.utils import timezone

from entries import services
from entries.models import Entry
from pairing.services import next_round_number
from season.models import PlannedRound


class Command(BaseCommand):
    help = "Send the reminder before round 1 to accepted entries of competitions whose round 1 is near."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--hours", type=int, default=48, help="how near round 1 must be (default 48)")

    def handle(self, *args, hours: int, **options) -> None:
        now = timezone.now()
        waiting = Entry.objects.filter(status=Entry.Status.ACCEPTED, reminded_at__isnull=True)
        plans = PlannedRound.objects.filter(number=1, competition__entries__in=waiting).select_related(
            "night", "competition"
        )
        sent = 0
        for plan in {p.competition_id: p for p in plans}.values():
            starts = plan.night.starts_at
            if now <= starts <= now + timedelta(hours=hours) and next_round_number(plan.competition) == 1:
                sent += services.remind(plan.competition, None)
        self.stdout.write(f"{sent} reminders sent")
