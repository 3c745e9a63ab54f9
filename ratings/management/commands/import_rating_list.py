"""Import a rating list for one club from the command line, with progress on stderr.

    manage.py import_rating_list --club SLUG --source fide|knsb|dsu FILE [--date YYYY-MM-DD] [--accept-names]

Members matched by federation id are updated. Matches by name and birth date are listed; they are
applied only with --accept-names (and only when a member has exactly one such match), otherwise confirm
them on the web page of the import, which stays open as a preview.
"""

from __future__ import annotations

from datetime import date

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from clubs.models import Club
from ratings import imports
from ratings.lists import ListError
from ratings.models import RatingSystem


class Command(BaseCommand):
    help = "Import a FIDE (TXT/XML), KNSB or DSU (CSV) rating list for a club's members."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file")
        parser.add_argument("--club", required=True, help="the club's short name")
        parser.add_argument("--source", required=True, choices=RatingSystem.values)
        parser.add_argument("--date", type=date.fromisoformat, default=None, help="date of the list (default today)")
        parser.add_argument("--accept-names", action="store_true", help="apply unique name and birth date matches")
        parser.add_argument("--preview", action="store_true", help="read and match only; confirm on the web page")

    def handle(self, *args, **options) -> None:
        try:
            club = Club.objects.get(slug=options["club"])
        except Club.DoesNotExist:
            raise CommandError(f"no club {options['club']!r}") from None

        def progress(line: int) -> None:
            self.stderr.write(f"\r{line:,} lines read", ending="")
            self.stderr.flush()

        try:
            with open(options["file"], "rb") as stream:
                list_import = imports.create_preview(
                    club, options["source"], stream, options["file"], options["date"] or timezone.localdate(),
                    progress=progress,
                )  # fmt: skip
        except ListError as error:
            raise CommandError(f"{error}; nothing was imported") from None
        self.stderr.write("")
        found = list_import.proposals
        self.stdout.write(
            f"{list_import.players_read} players read; {list_import.matched_by_id} members matched by id, "
            f"{list_import.matched_by_name} by name and birth date, {list_import.unmatched} not matched."
        )
        for match in found["by_name"]:
            self.stdout.write(
                f"  name match: {match['member_name']} = {match['name']} ({match['player_id']}, "
                f"born {match['birth'] or '?'}, line {match['line']})"
            )
        for member in found["unmatched"]:
            self.stdout.write(f"  not matched: {member['name']}")
        if options["preview"]:
            self.stdout.write(f"Preview saved (import {list_import.pk}); confirm it on the web page.")
            return
        lines = []
        if options["accept_names"]:
            per_member: dict[int, list[int]] = {}
            for match in found["by_name"]:
                per_member.setdefault(match["member"], []).append(match["line"])
            lines = [only[0] for only in per_member.values() if len(only) == 1]
        changed = imports.apply(list_import, lines)
        self.stdout.write(self.style.SUCCESS(f"{changed} ratings changed (import {list_import.pk})."))
