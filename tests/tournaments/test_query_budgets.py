"""The TD's writes cost a number of database queries that does not grow with the field.

Each action is posted through its page as the TD posts it (the htmx single-board post for a result), once
with 20 players and once with 500, and must stay within its budget at both sizes:

- pairing round 2 after a played round 1 (FIDE Dutch; at 20 players also Keizer and a round robin): 20;
- entering one result (htmx, one board): 12;
- undoing a paired round: 40;
- importing a TRF file into a new competition (the club's members matched in one query, bulk writes): 60.

The pairing and the import run inline here (`PAIRING_JOB_MIN_PLAYERS`, `TRF_INLINE_MAX_BYTES` raised):
the worker that runs them for a large field calls the same functions.
"""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs.models import Member
from pairing.services import boards_seen, pair_next_round
from pairing.services.records import publish
from tests.conftest import make_competition, play_round
from tournaments.models import Competition, Game, Round
from tournaments.trf_export import export_trf

pytestmark = pytest.mark.django_db

SIZES = (20, 500)
PAIR, RESULT, UNDO, IMPORT = 20, 12, 40, 60


@pytest.fixture(autouse=True)
def _inline(settings):
    settings.PAIRING_JOB_MIN_PLAYERS = 10**6
    settings.TRF_INLINE_MAX_BYTES = 10**9


def _played_round_one(club, td, size: int, system: str, rounds: int | None = 5):
    members = Member.objects.bulk_create(
        Member(club=club, first_name=f"Player{i:03d}", last_name=f"Surname{i:03d}", national_rating=2600 - 3 * i)
        for i in range(1, size + 1)
    )
    competition = make_competition(club, td, members, system=system, rounds=rounds, slug="open")
    play_round(competition, td, {board: ("1-0", "½-½", "0-1")[board % 3] for board in range(1, size)})
    return competition


def _count(action) -> tuple[int, object]:
    with CaptureQueriesContext(connection) as queries:
        response = action()
    import os

    if os.environ.get("SHOW_QUERIES"):
        for q in queries.captured_queries:
            print("Q", q["sql"][:220])
    return len(queries), response


@pytest.mark.parametrize("size", SIZES)
def test_pairing_round_two_of_a_swiss(td_client, td, club, size):
    pytest.importorskip("pairing.engines.dutch")
    competition = _played_round_one(club, td, size, "dutch")
    url = reverse("pair", args=[club.slug, competition.slug])
    count, response = _count(lambda: td_client.post(url, {"round": "2"}))
    assert response.status_code == 302 and response.url.endswith("/manage/round/2/")
    assert Game.objects.filter(round__competition=competition, round__number=2).count() == size // 2
    assert count <= PAIR, count


@pytest.mark.parametrize("system", ["keizer", "roundrobin"])
def test_pairing_round_two_of_other_systems(td_client, td, club, system):
    competition = _played_round_one(club, td, 20, system, rounds=None if system == "roundrobin" else 5)
    url = reverse("pair", args=[club.slug, competition.slug])
    count, response = _count(lambda: td_client.post(url, {"round": "2"}))
    assert response.status_code == 302 and response.url.endswith("/manage/round/2/")
    assert Round.objects.get(competition=competition, number=2).games.exists()
    assert count <= PAIR, count


@pytest.mark.parametrize("size", SIZES)
def test_entering_one_result(td_client, td, club, size):
    pytest.importorskip("pairing.engines.dutch")
    competition = _played_round_one(club, td, size, "dutch")
    rnd = pair_next_round(competition, td)
    publish(rnd, td)
    url = reverse("enter_result", args=[club.slug, competition.slug, 2, 3])
    post = {"result-3": "=", "based-3": ""}
    count, response = _count(lambda: td_client.post(url, post, headers={"HX-Request": "true"}))
    assert response.status_code == 200 and b'id="board-3"' in response.content
    assert Game.objects.get(round=rnd, board=3).result == "½-½"
    assert count <= RESULT, count
    # The row is the one the whole round page shows (the players' scores before the round included).
    page = td_client.get(reverse("manage_round", args=[club.slug, competition.slug, 2])).content.decode()
    assert _row(response.content.decode(), 3) == _row(page, 3)
    assert "(½)" in _row(page, 3) or "(1)" in _row(page, 3) or "(0)" in _row(page, 3)


def _row(html: str, board: int) -> str:
    found = re.search(rf'<tr id="board-{board}".*?</tr>', html, re.S)
    assert found, html[:2000]
    return found.group(0)


@pytest.mark.parametrize("size", SIZES)
def test_undoing_a_round(td_client, td, club, size):
    pytest.importorskip("pairing.engines.dutch")
    competition = _played_round_one(club, td, size, "dutch")
    rnd = pair_next_round(competition, td)
    url = reverse("undo_round", args=[club.slug, competition.slug])
    post = {"round": "2", "based_on": str(boards_seen(rnd))}
    count, response = _count(lambda: td_client.post(url, post))
    assert response.status_code == 302
    assert not Game.objects.filter(round=rnd).exists() and not Round.objects.get(pk=rnd.pk).is_paired
    assert count <= UNDO, count


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("own_lines", [True, False], ids=["clubavond-file", "other-program"])
def test_importing_a_trf(td_client, td, club, size, own_lines):
    pytest.importorskip("pairing.engines.dutch")
    competition = _played_round_one(club, td, size, "dutch")
    text = export_trf(competition)
    if not own_lines:  # another program's file: rounds read from the player lines
        text = "\n".join(line for line in text.splitlines() if not line.startswith("XX"))
    upload = SimpleUploadedFile("open.trf", text.encode(), content_type="text/plain")
    url = reverse("import_trf", args=[club.slug])
    post = {"name": "Imported", "slug": "imported", "system": "dutch", "file": upload}
    count, response = _count(lambda: td_client.post(url, post))
    assert response.status_code == 302, response.content.decode()[-3000:]
    imported = Competition.objects.get(slug="imported")
    assert imported.participants.count() == size
    assert set(imported.participants.values_list("member_id", flat=True)) == set(
        competition.participants.values_list("member_id", flat=True)
    )  # every player matched to the member he is
    assert Game.objects.filter(round__competition=imported).count() == size // 2
    assert count <= IMPORT, count


def test_the_budgets_count_the_writes(td_client, td, club):
    """A budget is worth its number only if the counter sees the queries: the result post writes its game."""
    competition = _played_round_one(club, td, 20, "dutch")
    rnd = pair_next_round(competition, td)
    publish(rnd, td)
    url = reverse("enter_result", args=[club.slug, competition.slug, 2, 1])
    with CaptureQueriesContext(connection) as queries:
        td_client.post(url, {"result-1": "1", "based-1": ""}, headers={"HX-Request": "true"})
    assert any(re.match(r'UPDATE "tournaments_game"', q["sql"]) for q in queries.captured_queries)
