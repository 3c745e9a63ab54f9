"""Import a club's members from CSV: parse and check every row, save nothing until confirmed."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from datetime import date

from django.db import transaction
from django.utils.translation import gettext as _

from audit.log import record

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
    if not value.isdigit():
        errors.append(_("%(field)s must be a whole number, not “%(value)s”.") % {"field": name, "value": value})
        return None
    return int(value)


def parse(text: str) -> Preview:
    """Check every row; a header line names the columns (any order, see COLUMNS)."""
    try:
        dialect = csv.Sniffer().sniff(text.splitlines()[0] if text else ",", delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.DictReader(io.StringIO(text), dialect=dialect)
    header = [h.strip() for h in (reader.fieldnames or [])]
    missing = REQUIRED - set(header)
    if missing:
        return Preview([], [_("Line 1: missing column(s): %(cols)s.") % {"cols": ", ".join(sorted(missing))}])
    unknown = set(header) - set(COLUMNS)
    if unknown:
        return Preview([], [_("Line 1: unknown column(s): %(cols)s.") % {"cols": ", ".join(sorted(unknown))}])
    rows = []
    for line, raw in enumerate(reader, start=2):
        values = {k.strip(): (v or "").strip() for k, v in raw.items() if k}
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
        rows.append(row)
    if not rows:
        return Preview([], [_("The file has no members.")])
    return Preview(rows, [])


@transaction.atomic
def save(club: Club, preview: Preview, user=None) -> int:
    """Create the members of a checked preview; all or nothing."""
    if not preview.ok:
        raise ValueError("cannot save a preview with errors")
    members = []
    for row in preview.rows:
        v = row.values
        sex = v.get("sex", "").lower()
        members.append(
            Member(
                club=club,
                first_name=v["first_name"],
                last_name=v["last_name"],
                sex={"f": "w", "v": "w"}.get(sex, sex),
                birth_date=date.fromisoformat(v["birth_date"]) if v.get("birth_date") else None,
                title=v.get("title", "").upper(),
                fide_id=v.get("fide_id", ""),
                fide_rating=int(v["fide_rating"]) if v.get("fide_rating") else None,
                federation=v.get("federation", "").upper(),
                national_id=v.get("national_id", ""),
                national_rating=int(v["national_rating"]) if v.get("national_rating") else None,
            )
        )
    Member.objects.bulk_create(members)
    record(user, "import-members", club, None, {"members": [m.full_name for m in members]})
    return len(members)
