"""A season with weekly club nights and a Keizer and a Swiss competition planned on them."""

from __future__ import annotations

from datetime import date, time

import pytest


@pytest.fixture
def season(club):
    from clubs.models import Season

    return Season.objects.create(club=club, name="2026-2027", start=date(2026, 9, 1), end=date(2027, 6, 30))


@pytest.fixture
def nights(season):
    """Thursdays 3 Sep .. 1 Oct 2026 at 20:00, without 17 Sep: four nights."""
    from season import planning

    dates = planning.weekly_dates(date(2026, 9, 1), date(2026, 10, 1), 3, {date(2026, 9, 17)})
    return planning.add_nights(season, dates, time(20, 0))


def linked_user(member, name: str, email: str = ""):
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(name, email=email, password=f"pw-{name}-123")
    member.user = user
    member.save(update_fields=["user"])
    return user
