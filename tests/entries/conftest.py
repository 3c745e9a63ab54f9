"""Fixtures for the entries: a weekend open with its entry form open, and players known to the club's lists."""

from __future__ import annotations

import pytest


@pytest.fixture
def open_competition(club, td):
    from entries.models import EntrySettings
    from tournaments.models import Competition

    competition = Competition.objects.create(club=club, name="Weekend Open", slug="open", system="dutch-1998", rounds=5)
    EntrySettings.objects.create(competition=competition, open=True, max_players=40)
    return competition


@pytest.fixture
def listed(club):
    """Players a FIDE and a KNSB list have matched: a member and an earlier guest (their ids, ratings, titles)."""
    from clubs.models import Member

    return {
        "carlsen": Member.objects.create(club=club, first_name="Anna", last_name="de Vries", fide_id="1503014",
                                         fide_rating=2210, federation="NED", title="WFM", national_id="8123456",
                                         national_rating=2190),
        "guest": Member.objects.create(club=club, first_name="Søren", last_name="Bech", fide_id="1401234",
                                       fide_rating=1890, federation="DEN", is_guest=True),
    }  # fmt: skip


def entry_data(**fields) -> dict:
    data = {"first_name": "Piet", "last_name": "Jansen", "email": "piet@example.org", "club_name": "SV Delft",
            "federation": "NED", "fide_id": "", "national_id": "", "birth_year": "1990", "note": "",
            "website": ""}  # fmt: skip
    data.update(fields)
    return data


@pytest.fixture(autouse=True)
def _mail_after_each_request(django_capture_on_commit_callbacks, monkeypatch):
    """Each request's on-commit work (the mails queued by the job worker) runs when the request ends, as
    it would on commit: the test's own transaction never commits."""
    from django.test import Client

    original = Client.request

    def request(self, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return original(self, **kwargs)

    monkeypatch.setattr(Client, "request", request)


@pytest.fixture
def player():
    """A visitor who is not logged in: a player entering from his phone."""
    from django.test import Client

    return Client()
