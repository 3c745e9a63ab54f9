"""iCalendar feeds (RFC 5545) of club nights: the club's, and a member's with the pairings once published;
team-league matches as all-day events."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime

from django.utils import timezone
from icalendar import Calendar, Event

PRODID = "-//Clubavond//Club nights//EN"


@dataclass
class NightEvent:
    uid: str
    start: datetime | date  # a date: an all-day event
    end: datetime | date
    summary: str
    sequence: int = 0
    location: str = ""
    lines: list[str] = field(default_factory=list)
    url: str = ""


def _moment(when: datetime | date) -> datetime | date:
    """A time in UTC; a date as it is (an all-day event, RFC 5545 3.3.4)."""
    return when.astimezone(UTC) if isinstance(when, datetime) else when


def calendar(name: str, events: Iterable[NightEvent]) -> bytes:
    """A VCALENDAR with one VEVENT per night, times in UTC."""
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    cal.add("x-wr-calname", name)
    stamp = timezone.now().astimezone(UTC)
    for item in events:
        event = Event()
        event.add("uid", item.uid)
        event.add("dtstamp", stamp)
        event.add("dtstart", _moment(item.start))
        event.add("dtend", _moment(item.end))
        event.add("sequence", item.sequence)
        event.add("summary", item.summary)
        if item.lines:
            event.add("description", "\n".join(item.lines))
        if item.location:
            event.add("location", item.location)
        if item.url:
            event.add("url", item.url)
        cal.add_component(event)
    return cal.to_ical()
