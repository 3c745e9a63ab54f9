"""Writes to a club's data that its pages trigger: a new club, a member added by hand (a CSV file:
`clubs.csv_import`)."""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from audit.log import record, values

from .models import Club, Member
from .validation import InputError

# The first part of the site's own addresses (accounts, season, admin, static files): no club may be named so.
RESERVED_CLUB_SLUGS = {
    "admin", "calendar", "clubs", "health", "i18n", "invitation", "login", "logout", "me", "password", "static",
}  # fmt: skip
CLUB_FIELDS = ("name", "slug", "city", "federation", "language")


def club_slug_problem(slug: str) -> str:
    """Why `slug` cannot be a new club's short name ("" if it can)."""
    if not slug:
        return _("The short name is empty: use letters, digits and hyphens.")
    if slug in RESERVED_CLUB_SLUGS:
        return _("“%(slug)s” is reserved; choose another short name.") % {"slug": slug}
    if Club.objects.filter(slug=slug).exists():
        return _("There is already a club with the short name “%(slug)s”.") % {"slug": slug}
    return ""


@transaction.atomic
def start_club(club: Club, user=None) -> Club:
    """Save a new club (its short name made from its name if empty); the audit log records it with `user`
    (None: the command line). InputError names a value the club cannot take."""
    club.slug = club.slug or slugify(club.name)[:50]
    problem = club_slug_problem(club.slug)
    if problem:
        raise InputError("", problem)
    try:
        club.full_clean()
    except ValidationError as error:
        field, messages = next(iter(error.message_dict.items()))
        raise InputError(str(Club._meta.get_field(field).verbose_name), messages[0]) from None
    club.save()
    record(user, "club-started", club, None, values(club, *CLUB_FIELDS))
    return club


@transaction.atomic
def add_member(club: Club, member: Member, user, fields: Iterable[str]) -> Member:
    """Save `member` (a form's unsaved instance) as a member of `club`; the audit log records its `fields`."""
    member.club = club
    member.save()
    record(user, "member-add", member, None, values(member, *fields))
    return member


@transaction.atomic
def set_club_language(club: Club, language: str, user) -> None:
    """The club's language for visitors who chose none, its printouts and members' mail ("": none)."""
    before = club.language
    club.language = language
    club.save(update_fields=["language"])
    record(user, "club-language", club, {"language": before}, {"language": language})
