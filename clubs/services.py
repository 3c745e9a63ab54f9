"""Writes to a club's data that its pages trigger: a member added by hand (a CSV file: `clubs.csv_import`)."""

from __future__ import annotations

from django.db import transaction

from .models import Club, Member


@transaction.atomic
def add_member(club: Club, member: Member) -> Member:
    """Save `member` (a form's unsaved instance) as a member of `club`."""
    member.club = club
    member.save()
    return member
