"""Import a club's members from CSV: parse and check every row, save nothing until confirmed."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from datetime import date

from django.db import transaction
from django.utils.translation import gettext as _

from audit.log import record

from . import validation
from .models import Club, Member

COLUMNS = [
    "first_name", "last_name", "sex", "birth_date", "title", "fide_id", "fide_rating",
    "federation", "national_id", "national_rating",
]  # fmt: skip
REQUIRED = {"first_name", "last_name"}


@dataclass
class Row:
    line: int
    values: dict[str, str]
    errors: list[str] = field(default_factory=list)


@dataclass
class Preview:
    rows: list[Row]
    errors: list[str]  # file-level problems

    @property
    def ok(self) -> bool:
        return not self.errors and all(not r.errors for r in self.rows)


def _int(value: str, name: str, errors: list[str]) -> int | None:
    if not value:
        return None
    if not validation.is_whole_number(value):
        errors.append(_("%(field)s must be a whole number, not “%(value)s”.") % {"field": name, "value": value})
        return None
    return int(value)


def _member(values: dict[str, str]) -> Member:
    """The (unsaved) member of a checked row."""
    sex = values.get("sex", "").lower()
    return Member(
        first_name=values["first_name"],
        last_name=values["last_name"],
        sex={"f": "w", "v": "w"}.get(sex, sex),
        birth_date=date.fromisoformat(values["birth_date"]) if values.get("birth_date") else None,
        title=values.get("title", "").upper(),
        fide_id=values.get("fide_id", ""),
        fide_rating=int(values["fide_rating"]) if values.get("fide_rating") else None,
        federation=values.get("federation", "").upper(),
        national_id=values.get("national_id", ""),
        national_rating=int(values["national_rating"]) if values.get("national_rating") else None,
    )


def _check_ids(rows: list[Row], club: Club | None) -> None:
    """A FIDE id or national id at most once in the file, and not already a member's of the club."""
    for name in ("fide_id", "national_id"):
        taken = set(club.members.exclude(**{name: ""}).values_list(name, flat=True)) if club else set()
        seen: dict[str, int] = {}
        for row in rows:
            value = row.values.get(name, "")
            if not value:
                continue
            if value in seen:
                message = _("%(field)s %(value)s is also on line %(line)s.")
                row.errors.append(message % {"field": name, "value": value, "line": seen[value]})
            elif value in taken:
                row.errors.append(_("%(field)s %(value)s is already a member's.") % {"field": name, "value": value})
            seen.setdefault(value, row.line)


def parse(text: str, club: Club | None = None) -> Preview:
    """Check every row against the member's limits (clubs.validation); a header line names the columns
    (any order, see COLUMNS). With `club`, ids its members already have are refused."""
    try:
        return _parse(text, club)
    except csv.Error as error:  # e.g. a field longer than csv's limit
        line = getattr(error, "line", None)
        return Preview([], [_("Line %(line)s: %(error)s.") % {"line": line or "?", "error": error}])


class _CsvError(csv.Error):
    def __init__(self, line: int, error: csv.Error) -> None:
        super().__init__(str(error))
        self.line = line


def _parse(text: str, club: Club | None) -> Preview:
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        return Preview([], [_("Line %(line)s: the file contains a NUL character.") % {"line": line}])
    try:
        dialect = csv.Sniffer().sniff(text.splitlines()[0] if text else ",", delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.DictReader(io.StringIO(text), dialect=dialect)
    try:
        header = [h.strip() for h in (reader.fieldnames or [])]
    except csv.Error as error:
        raise _CsvError(1, error) from error
    missing = REQUIRED - set(header)
    if missing:
        return Preview([], [_("Line 1: missing column(s): %(cols)s.") % {"cols": ", ".join(sorted(missing))}])
    unknown = set(header) - set(COLUMNS)
    if unknown:
        return Preview([], [_("Line 1: unknown column(s): %(cols)s.") % {"cols": ", ".join(sorted(unknown))}])
    rows = []
    line = 1
    records = iter(reader)
    while True:
        try:
            raw = next(records, None)
        except csv.Error as error:
            raise _CsvError(line + 1, error) from error
        if raw is None:
            break
        line += 1
        values = {k.strip(): (v or "").strip() for k, v in raw.items() if k and isinstance(v, str)}
        row = Row(line, values)
        for name in REQUIRED:
            if not values.get(name):
                row.errors.append(_("%(field)s is required.") % {"field": name})
        if values.get("sex") and values["sex"].lower() not in ("m", "w", "f", "v"):
            row.errors.append(_("sex must be m or w, not “%(value)s”.") % {"value": values["sex"]})
        if values.get("birth_date"):
            try:
                date.fromisoformat(values["birth_date"])
            except ValueError:
                row.errors.append(
                    _("birth_date must be YYYY-MM-DD, not “%(value)s”.") % {"value": values["birth_date"]}
                )
        if values.get("title") and values["title"].upper() not in Member.Title.values:
            row.errors.append(_("unknown title “%(value)s”.") % {"value": values["title"]})
        for name in ("fide_rating", "national_rating"):
            _int(values.get(name, ""), name, row.errors)
        if not row.errors:
            row.errors += validation.instance_problems(_member(values))
        rows.append(row)
    if not rows:
        return Preview([], [_("The file has no members.")])
    _check_ids(rows, club)
    return Preview(rows, [])


@transaction.atomic
def save(club: Club, preview: Preview, user=None) -> int:
    """Create the members of a checked preview; all or nothing."""
    if not preview.ok:
        raise ValueError("cannot save a preview with errors")
    members = []
    for row in preview.rows:
        member = _member(row.values)
        member.club = club
        members.append(member)
    Member.objects.bulk_create(members)
    record(user, "import-members", club, None, {"members": [m.full_name for m in members]})
    return len(members)
