"""The TD's pages read every post through a Django form, and look up the competition through one helper."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.test import RequestFactory

from tournaments.access import directed_competition

ROOT = Path(__file__).resolve().parents[2]
VIEWS = ROOT / "tournaments" / "views"
# The modules whose views read posts: every app's views, and the clubs app as a whole.
READERS = [
    *sorted(VIEWS.glob("*.py")),
    ROOT / "season" / "views.py",
    ROOT / "entries" / "views.py",
    ROOT / "pairing" / "views.py",
    ROOT / "ratings" / "views.py",
    *sorted((ROOT / "clubs").glob("*.py")),
]
HAND_PARSING = re.compile(
    r"request\.POST(\[|\.(get|getlist|items|keys|values|lists|copy|dict)\(|\s*=[^=])|\bin\s+request\.POST\b"
)


@pytest.mark.parametrize("module", [str(p.relative_to(ROOT)) for p in READERS])
def test_no_view_parses_a_post_by_hand(module):
    text = (ROOT / module).read_text()
    assert not HAND_PARSING.findall(text)
    assert "def _directed" not in text and "def _competition" not in text


@pytest.mark.parametrize(
    "line",
    ['x = request.POST.get("a")', 'request.POST["a"]', "if 'a' in request.POST:", "data = request.POST.copy()",
     "for k, v in request.POST.items():", "request.POST = data", 'request.POST.getlist("m")'],
)  # fmt: skip
def test_the_check_finds_hand_parsing(line):
    assert HAND_PARSING.search(line)
    assert not HAND_PARSING.search("form = Form(request.POST or None)")


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
