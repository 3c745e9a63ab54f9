"""The public pages of a competition are rendered at most once per PAGE_RENDER_SECONDS by all web processes
(a marker in the shared cache); meanwhile a newer version is answered with the newest earlier copy and its
age, and at most three copies of a page are kept (tournaments.caching). The clock is a fake one, so the
cache's expiry (locmem) and the copies' ages follow it."""

import re
import time
from unittest import mock

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tests.conftest import make_competition
from tournaments import caching, standings

pytestmark = pytest.mark.django_db


class Clock:
    """time.time, stopped: it moves only when the test says so."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch, settings):
    settings.PAGE_RENDER_SECONDS = 1
    settings.PAGE_STAMP_SECONDS = 0  # each request reads the competition's version (a change from elsewhere)
    fake = Clock()
    monkeypatch.setattr(time, "time", fake)  # the locmem cache's expiry, and the copies' ages
    monkeypatch.setattr(caching, "clock", fake)
    return fake


@pytest.fixture
def in_play(club, td, members):
    """Round 1 paired and published, no result yet."""
    from pairing.services import pair_next_round
    from pairing.services.records import publish

    competition = make_competition(club, td, members[:6])
    publish(pair_next_round(competition, td), td)
    return competition


def set_result(competition, board: int, result: str, td) -> None:
    from pairing.services.records import set_result as enter

    enter(competition.round_set.get(number=1).games.get(board=board), result, td)


def url(competition, name="standings"):
    return reverse(name, args=[competition.club.slug, competition.slug])


@pytest.fixture
def renders():
    """Counts the standings ranked by the pages rendered (not served from the cache)."""
    with mock.patch.object(standings, "standings", wraps=standings.standings) as counted:
        yield counted


def without_tokens(response) -> str:
    """The page without its CSRF tokens (masked anew for every answer)."""
    return re.sub(r'(value="|X-CSRFToken": ")[A-Za-z0-9]{64}', r"\1", response.content.decode())


def test_results_within_the_second_are_answered_with_the_copy_before_and_its_age(client, td, in_play, clock):
    first = client.get(url(in_play))
    assert first.status_code == 200 and "Age" not in first
    clock.advance(0.4)
    set_result(in_play, 1, "1-0", td)  # a new version, rendered at once: the page's first change
    second = client.get(url(in_play))
    assert second["ETag"] != first["ETag"] and "Age" not in second
    clock.advance(0.3)  # 0.3 s after that rendering: the competition's marker is held
    set_result(in_play, 2, "0-1", td)
    third = client.get(url(in_play))
    assert without_tokens(third) == without_tokens(second)  # the copy rendered before
    assert third["ETag"] == second["ETag"] and third["Age"] == "0"
    clock.advance(0.5)
    assert Client().get(url(in_play))["Age"] == "0"  # another visitor, 0.8 s on: the same copy
    unchanged = client.get(url(in_play), headers={"If-None-Match": second["ETag"]})
    assert unchanged.status_code == 304 and unchanged["ETag"] == second["ETag"]  # the browser has that copy
    clock.advance(0.3)  # past the second: the marker expired, the new version is rendered
    fourth = client.get(url(in_play))
    assert "Age" not in fourth and fourth["ETag"] not in (first["ETag"], second["ETag"])
    assert without_tokens(fourth) != without_tokens(second)
    assert client.get(url(in_play), headers={"If-None-Match": third["ETag"]}).status_code == 200  # asks again


def test_the_age_counts_the_seconds_since_the_copy_was_rendered(client, td, in_play, clock):
    client.get(url(in_play))
    clock.advance(5)
    set_result(in_play, 1, "1-0", td)
    cache.add(caching._rendering_key(in_play.pk), clock(), 1)  # another process renders this second
    stale = client.get(url(in_play))
    assert stale["Age"] == "5"


def test_at_most_one_rendering_per_second_however_many_results(td, in_play, clock, renders):
    """Ten results within three seconds, a request after each: four renderings (the first version's, then
    at most one a second), every other answer the copy before."""
    from pairing.services.records import set_result as enter

    visitor = Client()
    visitor.get(url(in_play))
    games = list(in_play.round_set.get(number=1).games.order_by("board"))
    outcomes = ["1-0", "0-1", "½-½"]
    ages = []
    for step in range(10):
        clock.advance(0.3)
        game = games[step % len(games)]
        game.refresh_from_db()
        enter(game, outcomes[step % 3] if game.result != outcomes[step % 3] else outcomes[(step + 1) % 3], td)
        ages.append(visitor.get(url(in_play)).get("Age"))
    # The first version's; then at 0.3 s, 1.5 s and 2.7 s (each marker held for a second).
    assert renders.call_count == 1 + 3
    assert ages.count(None) == 3


def test_a_tournament_director_is_never_served_an_older_copy(client, td, in_play, clock):
    client.force_login(td)
    client.get(url(in_play))
    set_result(in_play, 1, "1-0", td)
    cache.add(caching._rendering_key(in_play.pk), clock(), 1)
    answer = client.get(url(in_play))
    assert "Age" not in answer


def test_a_page_never_rendered_is_rendered_at_once(client, td, in_play, clock):
    cache.add(caching._rendering_key(in_play.pk), clock(), 1)  # another page of the competition, this second
    answer = client.get(url(in_play, "crosstable"))
    assert answer.status_code == 200 and "Age" not in answer


def test_three_copies_of_a_page_are_kept(client, td, in_play, clock):
    etags = []
    for step, (board, result) in enumerate([(1, "1-0"), (2, "0-1"), (3, "½-½"), (1, "0-1")]):
        clock.advance(1.5)
        etags.append(client.get(url(in_play))["ETag"].strip('"'))
        if step < 3:
            set_result(in_play, board, result, td)
    kept = [key for key in etags if cache.get(f"page:{key}") is not None]
    assert len(set(etags)) == 4 and kept == etags[1:]  # the oldest copy deleted
