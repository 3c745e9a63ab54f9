"""Public pages cached per competition version: invalidated by every change, ETags and 304s, per language and viewer."""

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.conftest import make_competition

pytestmark = pytest.mark.django_db


@pytest.fixture
def in_play(club, td, members):
    """Round 1 paired and published, no result yet."""
    from pairing.services import pair_next_round
    from pairing.services.records import publish

    competition = make_competition(club, td, members[:6])
    publish(pair_next_round(competition, td), td)
    return competition


def without_tokens(response) -> str:
    """The page without its CSRF tokens (masked anew for every answer)."""
    return re.sub(r'(value="|X-CSRFToken": ")[A-Za-z0-9]{64}', r"\1", response.content.decode())


def board(competition, number=1):
    return competition.round_set.get(number=1).games.select_related("white__member", "black__member").get(board=number)


def url(competition, name="pairings_latest"):
    return reverse(name, args=[competition.club.slug, competition.slug])


def test_a_result_entered_shows_at_once_on_the_cached_pages(client, td, in_play):
    from pairing.services.records import set_result

    pairings, standings = client.get(url(in_play)).content.decode(), client.get(url(in_play, "standings"))
    assert "½-½" not in pairings
    game = board(in_play)
    before = without_tokens(client.get(url(in_play, "standings")))
    assert before == without_tokens(standings)
    set_result(game, "½-½", td)
    assert "½-½" in client.get(url(in_play)).content.decode()
    after = without_tokens(client.get(url(in_play, "standings")))
    assert after != before and "½" in after


def test_the_td_entering_a_result_through_the_page_invalidates(client, td, in_play):
    reader = Client()
    assert "0-1" not in reader.get(url(in_play)).content.decode()
    client.force_login(td)
    client.post(reverse("enter_result", args=[in_play.club.slug, in_play.slug, 1, 2]), {"result-2": "0"})
    assert "0-1" in reader.get(url(in_play)).content.decode()


def test_an_edit_in_the_admin_and_a_members_new_name_invalidate_too(client, in_play):
    """The admin's edit is an action of its own (one bump); a member's name is on every competition of his."""
    from django.contrib.auth import get_user_model

    client.get(url(in_play))
    game = board(in_play)
    member = game.white.member
    member.first_name = "Renamed"
    member.save()
    assert "Renamed" in client.get(url(in_play)).content.decode()
    admin = Client()
    admin.force_login(get_user_model().objects.create_superuser("root", password="root-pass-123"))
    change = reverse("admin:tournaments_competition_change", args=[in_play.pk])
    form = admin.get(change).context["adminform"].form
    data = {name: form[name].value() if form[name].value() is not None else "" for name in form.fields}
    data |= management_form(admin.get(change).context["inline_admin_formsets"])
    before = client.get(url(in_play, "standings")).content.decode()
    assert admin.post(change, data | {"name": "Renamed in the admin"}).status_code == 302
    assert "Renamed in the admin" not in before
    assert "Renamed in the admin" in client.get(url(in_play, "standings")).content.decode()


def management_form(inline_formsets) -> dict:
    """The inline formsets' rows as the admin posts them back, unchanged."""
    data = {}
    for inline in inline_formsets:
        formset = inline.formset
        for name in formset.management_form.fields:
            data[f"{formset.prefix}-{name}"] = formset.management_form[name].value()
        for form in formset.forms:
            for name in form.fields:
                value = form[name].value()
                data[form.add_prefix(name)] = "" if value is None else value
    return data


def stamp_of(competition):
    from django.core.cache import caches

    from tournaments.versioning import stamp_key

    key = stamp_key(competition.club.slug, competition.slug)
    return key, caches["stamps"].get(key)


def test_a_stamp_stored_by_a_reader_racing_the_commit_is_forgotten_at_the_commit(
    client, td, in_play, django_capture_on_commit_callbacks
):
    from django.core.cache import caches

    from pairing.services.records import set_result

    client.get(url(in_play))
    key, before = stamp_of(in_play)
    assert before is not None and before[0] == in_play.pk
    with django_capture_on_commit_callbacks(execute=True):
        set_result(board(in_play), "0-1", td)
        assert stamp_of(in_play)[1] is None  # forgotten at once
        caches["stamps"].set(key, before)  # another request read the version just before the commit
    assert stamp_of(in_play)[1] is None
    assert "0-1" in client.get(url(in_play)).content.decode()


def test_a_stamp_not_forgotten_lives_no_longer_than_its_time(client, settings, in_play):
    """Another web process with its own memory cache never hears of a change: its stamp runs out."""
    import time

    from django.db.models import F

    from tournaments.models import Competition

    settings.PAGE_STAMP_SECONDS = 1
    first = client.get(url(in_play))
    # A change made by another process: the version moves in the database, this process's cache is not told.
    Competition.objects.filter(pk=in_play.pk).update(version=F("version") + 1)
    assert client.get(url(in_play), headers={"If-None-Match": first["ETag"]}).status_code == 304
    time.sleep(1.2)
    again = client.get(url(in_play), headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 200 and again["ETag"] != first["ETag"]


def test_a_deleted_competition_answers_404_at_once(client, td, club, members):
    competition = make_competition(club, td, members[:4])
    address = url(competition, "standings")
    assert client.get(address).status_code == 200
    competition.delete()  # the admin's way: no round was paired
    assert client.get(address).status_code == 404


def test_a_stale_copy_of_the_competition_never_sets_the_version_back(in_play):
    from pairing.services.records import set_result
    from tournaments.models import Competition

    stale = Competition.objects.get(pk=in_play.pk)
    version = stale.version
    set_result(board(in_play), "1-0", None)
    stale.name = "Renamed competition"
    stale.save()
    assert Competition.objects.get(pk=in_play.pk).version == version + 1  # the result's bump stays


def a_while_ago(competition) -> None:
    """The competition's last change as if made a minute ago (HTTP dates count whole seconds)."""
    from datetime import timedelta

    from django.db.models import F

    from tournaments.models import Competition

    Competition.objects.filter(pk=competition.pk).update(changed_at=F("changed_at") - timedelta(minutes=1))


def test_etag_and_last_modified_answer_304_until_something_changes(client, td, in_play):
    from pairing.services.records import set_result

    a_while_ago(in_play)
    first = client.get(url(in_play))
    etag, modified = first["ETag"], first["Last-Modified"]
    assert etag and modified and "no-cache" in first["Cache-Control"]
    again = client.get(url(in_play), headers={"If-None-Match": etag})
    assert again.status_code == 304 and again["ETag"] == etag and not again.content
    assert client.get(url(in_play), headers={"If-Modified-Since": modified}).status_code == 304
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url(in_play), headers={"If-None-Match": etag}).status_code == 304
    assert not queries  # the competition's version is in the cache: nothing is asked of the database
    set_result(board(in_play), "0-1", td)
    changed = client.get(url(in_play), headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed["ETag"] != etag and "0-1" in changed.content.decode()


def test_the_second_visit_is_served_from_the_cache(client, settings, in_play):
    settings.PAGE_STAMP_SECONDS = 60  # rendering a PDF may take longer than the stamp's second
    for name in ("pairings_latest", "standings", "crosstable", "prize_list"):
        with CaptureQueriesContext(connection) as first:
            assert client.get(url(in_play, name)).status_code == 200
        with CaptureQueriesContext(connection) as second:
            assert client.get(url(in_play, name)).status_code == 200
        assert len(second) == 0 < len(first), (name, len(first), len(second))
    pdf = url(in_play, "standings") + "?format=pdf"
    assert client.get(pdf)["Content-Type"] == "application/pdf"
    with CaptureQueriesContext(connection) as second:
        response = client.get(pdf)
    assert len(second) == 0 and response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")


def test_language_and_login_are_part_of_the_key(client, td, club, members):
    from pairing.services import pair_next_round

    competition = make_competition(club, td, members[:4])
    pair_next_round(competition, td)  # a draft: only the TD sees it
    public = client.get(url(competition)).content.decode()
    assert "No round has been published yet." in public
    dutch = client.get(url(competition), headers={"Accept-Language": "nl"}).content.decode()
    assert "No round has been published yet." not in dutch and 'lang="nl"' in dutch
    client.force_login(td)
    director = client.get(url(competition)).content.decode()
    assert "draft" in director and "No round has been published yet." not in director
    assert "No round has been published yet." in Client().get(url(competition)).content.decode()


def test_each_visitor_gets_his_own_csrf_token_from_the_cached_page(in_play):
    from tournaments.caching import CSRF_PLACEHOLDER

    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    pages = [c.get(url(in_play)) for c in (first, second)]
    for page in pages:
        assert CSRF_PLACEHOLDER not in page.content.decode()
    token = second.cookies["csrftoken"].value
    form_token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', pages[1].content.decode()).group(1)
    response = second.post(reverse("set_language"), {"language": "da", "csrfmiddlewaretoken": form_token})
    assert response.status_code == 302 and token


def test_messages_waiting_are_never_cached_for_others(client, td, in_play):
    client.force_login(td)
    client.post(reverse("publish_round", args=[in_play.club.slug, in_play.slug, 1]))
    client.post(reverse("finish_round", args=[in_play.club.slug, in_play.slug, 1]))  # refused: a message waits
    with_message = client.get(url(in_play)).content.decode()
    assert "no result yet" in with_message
    assert "no result yet" not in Client().get(url(in_play)).content.decode()


def test_a_round_published_and_a_player_entered_show_at_once(client, td, club, members):
    """Paths that write in bulk (the pairing's boards, start numbers) raise the version themselves."""
    from pairing.services import pair_next_round
    from pairing.services.records import add_participant, publish

    competition = make_competition(club, td, members[:4])
    standings = client.get(url(competition, "standings")).content.decode()
    assert members[4].full_name not in standings
    add_participant(competition, members[4], td)  # start numbers given anew (bulk_update)
    assert members[4].full_name in client.get(url(competition, "standings")).content.decode()
    rnd = pair_next_round(competition, td)
    assert "No round has been published yet." in client.get(url(competition)).content.decode()
    publish(rnd, td)
    page = client.get(url(competition)).content.decode()
    assert "No round has been published yet." not in page
    first = rnd.games.select_related("white__member").first()
    assert first.white.name in page


def test_the_pages_are_cached_in_redis_when_it_is_configured(client, settings, td, in_play):
    """With REDIS_URL the cache is shared by every web process: a copy one renders, another serves."""
    import uuid

    import redis

    from pairing.services.records import set_result
    from tests.deploy.test_worker import redis_answers

    if not redis_answers():
        pytest.skip("no Redis server on 127.0.0.1:6379")
    prefix = f"tests-{uuid.uuid4().hex}"  # this run's own keys, never the others'
    settings.CACHES = {
        **settings.CACHES,
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:6379/7",
            "KEY_PREFIX": prefix,
            "TIMEOUT": 60,
        },
    }
    try:
        client.get(url(in_play))
        with CaptureQueriesContext(connection) as second:
            page = client.get(url(in_play)).content.decode()
        assert len(second) == 0 and "1-0" not in page
        set_result(board(in_play), "1-0", td)
        assert "1-0" in client.get(url(in_play)).content.decode()
    finally:
        server = redis.Redis(host="127.0.0.1", port=6379, db=7)
        keys = list(server.scan_iter(f"{prefix}:*"))
        assert keys  # the pages were there
        server.delete(*keys)


def test_within_the_second_of_a_change_only_the_etag_is_sent(client, td, in_play):
    """Two changes within one second would share a Last-Modified date: until the second is over, none is sent."""
    from pairing.services.records import set_result

    fresh = client.get(url(in_play))
    assert fresh["ETag"] and not fresh.has_header("Last-Modified")
    set_result(board(in_play), "1-0", td)
    a_while_ago(in_play)
    settled = client.get(url(in_play))
    assert settled.has_header("Last-Modified") and "1-0" in settled.content.decode()
