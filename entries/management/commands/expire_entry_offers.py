"""Let offers of a place from a waiting list lapse when not taken in time, and offer the place to the next.

    manage.py expire_entry_offers

Run it from cron (say every ten minutes), as `send_entry_reminders`: every entry offered a place whose
deadline (the entry form's hours to confirm) has passed is withdrawn, with a mail saying so, and the place
is offered to the next on the waiting list (`entries.services.expire_offers`). Running it twice changes
nothing more.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand

from entries import services


class Command(BaseCommand):
    help = "Let offers of a place from the waiting list lapse when not taken in time; offer it to the next."

    def handle(self, *args, **options) -> None:
        lapsed = services.expire_offers()
        self.stdout.write(f"{lapsed} offers lapsed")
