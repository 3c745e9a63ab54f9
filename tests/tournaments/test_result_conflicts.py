"""Two TDs at one round: a result entered on a board that changed since the page was shown is not saved
over the other's; the TD reads who entered what and when and chooses by typing again. Different boards
entered at the same moment both keep their results (PostgreSQL: real concurrent requests)."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.urls import reverse

from audit.models import AuditEntry
from clubs.models import ClubRole
from pairing import services as adapter
from pairing.services import records as services
from tests.conftest import make_competition, make_members


def second_td(club):
    user = get_user_model().objects.create_user(
        "second", password="secret-pass-3", first_name="Jan", last_name="Tweede"
    )
    ClubRole.objects.create(club=club, user=user, role=ClubRole.Role.DIRECTOR)
    return user


def published_round(club, td):
    competition = make_competition(club, td, make_members(club, 8), system="dutch", rounds=5, slug="open")
    rnd = adapter.pair_next_round(competition, td)
    services.publish(rnd, td)
    return competition, rnd


def post(client, competition, board, typed, based, htmx=True):
    url = reverse("enter_result", args=[competition.club.slug, competition.slug, 1, board])
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(url, {f"result-{board}": typed, f"based-{board}": based}, **headers)


def result_entries(rnd, board: int) -> list[AuditEntry]:
    """The audit log's result entries of a board, the latest first."""
    game = rnd.games.get(board=board)
    return list(AuditEntry.objects.filter(object_type="game", object_id=str(game.pk), action="result"))


@pytest.mark.django_db
def test_a_result_typed_on_a_board_that_changed_meanwhile_is_shown_not_saved(club, td, td_client):
    competition, rnd = published_round(club, td)
    other = Client()
    other.force_login(second_td(club))
    assert post(other, competition, 1, "1", based="").status_code == 200  # Jan: 1-0
    answer = post(td_client, competition, 1, "0", based="").content.decode()  # the TD saw an empty board
    assert rnd.games.get(board=1).result == "1-0"
    assert "Meanwhile Jan Tweede entered 1-0 (at " in answer and "you typed 0-1" in answer
    assert 'name="based-1" id="based-1" value="1-0"' in answer  # the row now shows Jan's result
    assert len(result_entries(rnd, 1)) == 1
    post(td_client, competition, 1, "0", based="1-0")  # the TD chooses his own, knowing Jan's
    assert rnd.games.get(board=1).result == "0-1"
    assert [(e.before["result"], e.after["result"]) for e in result_entries(rnd, 1)] == [("1-0", "0-1"), ("", "1-0")]


@pytest.mark.django_db
def test_the_same_result_typed_twice_is_no_conflict(club, td, td_client):
    competition, rnd = published_round(club, td)
    other = Client()
    other.force_login(second_td(club))
    post(other, competition, 2, "=", based="")
    answer = post(td_client, competition, 2, "½-½", based="").content.decode()
    assert "Meanwhile" not in answer and rnd.games.get(board=2).result == "½-½"


@pytest.mark.django_db
def test_the_whole_form_saves_every_board_but_the_one_that_changed(club, td, td_client):
    competition, rnd = published_round(club, td)
    other = Client()
    other.force_login(second_td(club))
    post(other, competition, 3, "1", based="")
    url = reverse("enter_results", args=[club.slug, competition.slug, 1])
    form = {f"result-{b}": "0" for b in range(1, 5)} | {f"based-{b}": "" for b in range(1, 5)}
    page = td_client.post(url, form, follow=True).content.decode()
    assert dict(rnd.games.values_list("board", "result")) == {1: "0-1", 2: "0-1", 3: "1-0", 4: "0-1"}
    assert "Board 3: Meanwhile Jan Tweede entered 1-0" in page


@pytest.mark.django_db(transaction=True)
def test_concurrent_entries_on_postgresql_lose_nothing_and_one_board_gets_one_result(club, td):
    if connection.vendor != "postgresql":
        pytest.skip("concurrent requests need PostgreSQL's row locks (CI runs the suite on PostgreSQL)")
    competition, rnd = published_round(club, td)
    users = [td, second_td(club)]
    answers: list[str] = []

    def enter(user, board, typed, barrier):
        client = Client()
        client.force_login(user)
        barrier.wait()
        answers.append(post(client, competition, board, typed, based="").content.decode())
        connection.close()

    def at_once(entries):
        barrier = threading.Barrier(len(entries))
        threads = [threading.Thread(target=enter, args=(*entry, barrier)) for entry in entries]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    at_once([(users[0], 1, "1"), (users[1], 2, "0")])  # different boards: both kept
    assert dict(rnd.games.filter(board__in=[1, 2]).values_list("board", "result")) == {1: "1-0", 2: "0-1"}
    answers.clear()
    at_once([(users[0], 3, "1"), (users[1], 3, "0")])  # one board, two results: the second sees the first
    assert rnd.games.get(board=3).result in {"1-0", "0-1"}
    assert len(result_entries(rnd, 3)) == 1
    assert sum("Meanwhile" in answer for answer in answers) == 1
