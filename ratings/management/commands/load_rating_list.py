"""Load a federation's whole rating list into the site's full lists, for every club's entry form.

    manage.py load_rating_list --source fide|knsb|dsu FILE [--date YYYY-MM-DD]

The list replaces the one the site holds for that system (of the same or an earlier date), in one
transaction: a malformed line stops the load with its line number and the previous list stays as it was.
Progress goes to stderr. A site admin's upload on a club's rating list page loads the list the same way.
"""

from __future__ import annotations

from datetime import date

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from ratings import full_lists
from ratings.lists import ListError
from ratings.models import RatingSystem


class Command(BaseCommand):
    help = "Load a whole FIDE (TXT/XML), KNSB or DSU (CSV) rating list into the site's full lists."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file")
        parser.add_argument("--source", required=True, choices=RatingSystem.values)
        parser.add_argument("--date", type=date.fromisoformat, default=None, help="date of the list (default today)")

    def handle(self, *args, **options) -> None:
        def progress(line: int) -> None:
            self.stderr.write(f"\r{line:,} lines read", ending="")
            self.stderr.flush()

        try:
            with open(options["file"], "rb") as stream:
                loaded = full_lists.load(
                    options["source"], stream, options["date"] or timezone.localdate(), options["file"], None, progress
                )
        except OSError as error:
            raise CommandError(f"cannot read {options['file']}: {error.strerror}") from None
        except ListError as error:
            raise CommandError(f"{error}; nothing was loaded") from None
        self.stderr.write("")
        self.stdout.write(self.style.SUCCESS(f"{loaded.players} players of the {loaded} list loaded."))
