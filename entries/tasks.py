"""Mail to a player about his entry, sent by the job worker in the language he entered in.

Six mails: the receipt (with the waiting list when the field was full), the acceptance (with the
schedule of the rounds and an iCalendar file of them), the refusal with the TD's reason, the reminder
before round 1, the offer of a place that came free (to confirm by a deadline) and the lapse of that
offer. Each carries the player's own link, through which he withdraws or asks for a bye.
"""

from __future__ import annotations

from django.conf import settings
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django_tasks import task

from season import feeds, planning

from .models import Entry

KINDS = ("receipt", "accepted", "refused", "reminder", "offer", "expired")


def schedule(entry: Entry) -> list:
    """The competition's rounds with their planned nights, in order."""
    return sorted(planning.round_nights(entry.competition).items())


def ical(entry: Entry, rounds: list) -> bytes:
    competition = entry.competition
    events = [
        feeds.NightEvent(
            uid=f"entry-{entry.pk}-round-{number}@clubavond",
            start=night.starts_at,
            end=night.ends_at,
            summary=_("%(competition)s, round %(n)s") % {"competition": competition.name, "n": number},
            sequence=night.sequence,
            location=competition.club.city,
        )  # fmt: skip
        for number, night in rounds
    ]
    return feeds.calendar(competition.name, events)


def subject(entry: Entry, kind: str) -> str:
    texts = {
        "receipt": _("%(competition)s: your entry is received"),
        "accepted": _("%(competition)s: your entry is accepted"),
        "refused": _("%(competition)s: your entry is not accepted"),
        "reminder": _("%(competition)s: round 1 is coming"),
        "offer": _("%(competition)s: a place has come free for you"),
        "expired": _("%(competition)s: the offered place has passed on"),
    }
    return texts[kind] % {"competition": entry.competition.name}


@task()
def send_entry_mail(entry_id: int, kind: str) -> int:
    """One mail about entry `entry_id` of `kind` (KINDS) to the player's address; returns 1 when sent."""
    entry = Entry.objects.select_related("competition__club").filter(pk=entry_id).first()
    if entry is None or kind not in KINDS:
        return 0
    with translation.override(entry.language or settings.LANGUAGE_CODE):
        rounds = schedule(entry) if kind in ("accepted", "reminder") else []
        rules = entry.competition.entry_settings if hasattr(entry.competition, "entry_settings") else None
        context = {
            "entry": entry,
            "competition": entry.competition,
            "club": entry.competition.club,
            "rounds": rounds,
            "rules": rules,
            "link": settings.SITE_URL + reverse("my_entry", args=[entry.token]),
            "list_link": settings.SITE_URL
            + reverse("entry_list", args=[entry.competition.club.slug, entry.competition.slug]),
        }
        message = EmailMessage(subject(entry, kind), render_to_string(f"entries/mail_{kind}.txt", context),
                               to=[entry.email])  # fmt: skip
        if kind == "accepted" and rounds:
            message.attach(f"{entry.competition.slug}.ics", ical(entry, rounds), "text/calendar")
    message.send()
    return 1
