"""Write a club's full export (a backup): python manage.py export_club <slug> [file]; without a file, to stdout."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from clubs.models import Club
from tournaments import backup


class Command(BaseCommand):
    help = "Export a whole club as versioned JSON (members, competitions, results and their history, ratings)."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the club's short name")
        parser.add_argument("file", nargs="?", help="the file to write (default: standard output)")

    def handle(self, *args, slug: str, file: str | None = None, **options):
        club = Club.objects.filter(slug=slug).first()
        if club is None:
            raise CommandError(f"no club with the short name {slug!r}")
        text = backup.dumps(backup.export_club(club))
        if file:
            Path(file).write_text(text, encoding="utf-8")
            self.stderr.write(f"{club.name}: written to {file}")
        else:
            self.stdout.write(text, ending="")
