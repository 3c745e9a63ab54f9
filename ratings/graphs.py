"""A member's rating over time, from the rating lists read and the changes recorded (RatingChange)."""

from __future__ import annotations

from django.utils.formats import date_format
from django.utils.translation import gettext as _

from clubs.models import Member
from tournaments import charts

from .models import RatingChange, RatingSystem


def rating_chart(member: Member) -> dict | None:
    """One line per rating system the member has a recorded rating in; None without any."""
    changes = list(
        RatingChange.objects.filter(member=member, new__isnull=False)
        .order_by("date", "id")
        .values("system", "date", "new")
    )
    if not changes:
        return None
    systems = [s for s in RatingSystem.values if any(c["system"] == s for c in changes)]
    by_system = {s: {} for s in systems}
    for change in changes:  # the last change of a day holds
        by_system[change["system"]][change["date"]] = change["new"]
    series = [
        charts.Series(RatingSystem(s).label, [(day.toordinal(), new) for day, new in sorted(by_system[s].items())])
        for s in systems
    ]
    days = sorted({c["date"] for c in changes})
    labels = {day.toordinal(): date_format(day, "SHORT_DATE_FORMAT") for day in days}
    chart = charts.line_chart(_("Rating of %(name)s over time") % {"name": member.full_name}, series, labels)
    table = {
        "head": [RatingSystem(s).label for s in systems],
        "rows": [(labels[day.toordinal()], "", [by_system[s].get(day) for s in systems]) for day in days],
    }
    return {"chart": chart, "table": table}
