"""Private pages are never kept by a browser or proxy (`Cache-Control: private, no-store`): every URL of
the site not named public in `config.private_pages`, taken from the URL resolver so a new page is covered
the day it is added; the public pages keep their ETags. A TD removed from a club loses its TD pages at
once, cached copies included."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from config.private_pages import PUBLIC
from tests.conftest import make_competition

pytestmark = pytest.mark.django_db

PARAMETER = re.compile(r"<(?:\w+:)?(\w+)>|\(\?P<(\w+)>[^)]*\)")


def patterns(resolver: URLResolver | None = None, prefix: str = "", namespace: str = ""):
    """(route with its parameters, view name) of every URL pattern of the site."""
    for entry in (resolver or get_resolver()).url_patterns:
        route = prefix + str(entry.pattern).lstrip("^").rstrip("$")
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from patterns(entry, route, inner)
        elif isinstance(entry, URLPattern):
            callback = entry.callback
            yield route, f"{namespace}{entry.name}" if entry.name else f"{callback.__module__}.{callback.__name__}"


def fill(route: str, values: dict[str, str]) -> str:
    return "/" + PARAMETER.sub(lambda found: values[found.group(1) or found.group(2)], route)


@pytest.fixture
def site(club, td, members):
    """A club with a round robin in play, its TD, a member and the values for every URL parameter."""
    from pairing.services import pair_next_round
    from pairing.services.records import publish

    competition = make_competition(club, td, members[:6])
    publish(pair_next_round(competition, td), td)
    participant = competition.participants.order_by("start_number").first()
    return competition, {
        "club": club.slug, "competition": competition.slug, "number": "1", "board": "1", "match": "1",
        "start_number": "1", "index": "1", "pk": str(members[0].pk), "participant": str(participant.pk),
        "token": "not-a-token", "uidb64": "MQ", "object_id": "1", "content_type_id": "1", "id": str(td.pk),
        "app_label": "clubs", "url": "nowhere/", "league": "regio", "team": "1",
    }  # fmt: skip


def test_every_page_not_named_public_answers_private_no_store(site, td):
    _competition, values = site
    found = list(patterns())
    names = {name for _route, name in found}
    assert names >= PUBLIC, f"public pages that no longer exist: {PUBLIC - names}"
    anonymous, director = Client(), Client()
    director.force_login(td)
    kept, checked = [], 0
    for route, name in found:
        path = fill(route, values)
        for who, client in (("anonymous", anonymous), ("TD", director)):
            response = client.get(path)
            directives = {d.strip() for d in response.get("Cache-Control", "").split(",")}
            if name in PUBLIC:
                if "no-store" in directives:
                    kept.append((who, path, name, response.status_code, response.get("Cache-Control")))
            elif not {"private", "no-store"} <= directives:
                kept.append((who, path, name, response.status_code, response.get("Cache-Control")))
            checked += name not in PUBLIC
    assert not kept, "\n".join(map(str, kept))
    assert checked > 200  # every pattern, anonymous and as the TD


def test_the_public_pages_keep_their_etags(client, site):
    competition, _values = site
    for name in ("standings", "pairings_latest", "crosstable", "live_board", "prize_list"):
        response = client.get(reverse(name, args=[competition.club.slug, competition.slug]))
        assert response.status_code == 200 and response["ETag"], name
        assert "no-store" not in response["Cache-Control"] and "no-cache" in response["Cache-Control"], name
        again = client.get(response.wsgi_request.path, HTTP_IF_NONE_MATCH=response["ETag"])
        assert again.status_code == 304, name


def test_a_td_removed_from_the_club_loses_its_pages_and_their_cached_copies_at_once(club, td, members):
    """The TD sees a draft round on the public pairings page (his own cached copy, with an ETag); once his
    role is gone, the manage page refuses him and the pairings page neither serves that copy nor a 304."""
    from clubs.models import ClubRole
    from pairing.services import pair_next_round

    competition = make_competition(club, td, members[:6])
    draft = pair_next_round(competition, td)
    white = draft.games.select_related("white__member").get(board=1).white.name
    client = Client()
    client.force_login(td)
    manage = reverse("manage", args=[club.slug, competition.slug])
    pairings = reverse("pairings_latest", args=[club.slug, competition.slug])
    assert client.get(manage).status_code == 200
    seen = client.get(pairings)
    assert white in seen.content.decode()
    assert client.get(pairings, HTTP_IF_NONE_MATCH=seen["ETag"]).status_code == 304

    ClubRole.objects.filter(club=club, user=td).delete()
    refused = client.get(manage)
    assert refused.status_code == 403 and "no-store" in refused["Cache-Control"]
    again = client.get(pairings, HTTP_IF_NONE_MATCH=seen["ETag"])
    assert again.status_code == 200 and again["ETag"] != seen["ETag"]
    page = again.content.decode()
    assert white not in page and "No round has been published yet." in page
