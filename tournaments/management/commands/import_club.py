"""Restore a club from its export: python manage.py import_club <file>; all or nothing."""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournaments import backup


class Command(BaseCommand):
    help = "Restore a club from a file written by export_club, in one transaction."

    def add_arguments(self, parser):
        parser.add_argument("file", help="a file written by export_club")

    def handle(self, *args, file: str, **options):
        try:
            data = json.loads(Path(file).read_text(encoding="utf-8"))
        except OSError as error:
            raise CommandError(f"{file}: {error.strerror}") from None
        except (UnicodeDecodeError, ValueError) as error:
            raise CommandError(f"{file}: not a JSON file ({error})") from None
        notes: list[str] = []
        try:
            club = backup.import_club(data, notes)
        except backup.BackupError as error:
            raise CommandError(f"{file}: {error}; nothing was imported") from None
        for note in notes:  # another club's rows this site does not have: kept by name, or left empty
            self.stdout.write(self.style.WARNING(note))
        self.stdout.write(self.style.SUCCESS(f"{club.name} restored: {club.get_absolute_url()}"))
