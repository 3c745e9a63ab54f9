"""The TD's pages read every post through a Django form, and look up the competition through one helper."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.test import RequestFactory

from tournaments.access import directed_competition

VIEWS = Path(__file__).resolve().parents[2] / "tournaments" / "views"
HAND_PARSING = re.compile(r"request\.POST(\[|\.get\(|\.getlist\(|\s*=[^=])")


@pytest.mark.parametrize("module", sorted(p.name for p in VIEWS.glob("*.py")))
def test_no_view_parses_a_post_by_hand(module):
    text = (VIEWS / module).read_text()
    assert not HAND_PARSING.findall(text)
    assert "def _directed" not in text and "def _competition" not in text


@pytest.mark.django_db
def test_the_lookup_refuses_whoever_does_not_direct_the_club(club, td, viewer, members):
    from tests.conftest import make_competition

    competition = make_competition(club, td, members[:4])
    request = RequestFactory().get("/")
    request.user = td
    assert directed_competition(request, club.slug, competition.slug) == competition
    with pytest.raises(Http404):
        directed_competition(request, club.slug, "no-such-competition")
    with pytest.raises(Http404):
        directed_competition(request, club.slug, competition.slug, gladiator=True)
    request.user = viewer
    with pytest.raises((PermissionDenied, Http404)):
        directed_competition(request, club.slug, competition.slug)
