"""Writes to a club's data that its pages trigger: a member added by hand (a CSV file: `clubs.csv_import`)."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from audit.log import record, values

from .models import Club, Member


@transaction.atomic
def add_member(club: Club, member: Member, user, fields: Iterable[str]) -> Member:
    """Save `member` (a form's unsaved instance) as a member of `club`; the audit log records its `fields`."""
    member.club = club
    member.save()
    record(user, "member-add", member, None, values(member, *fields))
    return member
