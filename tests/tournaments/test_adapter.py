"""The one adapter (`tournaments.adapter`): every competition kind's state changes pass its hook, a double
click on "pair" pairs once, and the views write no model themselves."""

from __future__ import annotations

import ast
import threading
from pathlib import Path

import pytest
from django.contrib.messages import get_messages
from django.db import connection
from django.urls import reverse

from audit.models import AuditEntry
from tests.conftest import make_competition, make_members
from tournaments import adapter
from tournaments.models import Competition, Round

ROOT = Path(__file__).resolve().parents[2]
VIEWS = sorted((ROOT / "tournaments" / "views").glob("*.py")) + [
    ROOT / app / "views.py" for app in ("pairing", "clubs", "ratings", "jobs", "teams")
]
WRITES = {"create", "update", "delete", "bulk_create", "bulk_update", "get_or_create", "update_or_create", "save"}


def writes_in(source: str) -> list[str]:
    """Calls that write a model: `.objects.create(...)`, `x.save()`, `qs.delete()`, ... (`form.save(commit=False)`
    builds an unsaved instance and writes nothing)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in WRITES:
            unsaved = any(k.arg == "commit" and isinstance(k.value, ast.Constant) and not k.value.value
                          for k in node.keywords)  # fmt: skip
            if not unsaved:
                found.append(f"line {node.lineno}: {ast.unparse(node)[:80]}")
    return found


def test_the_views_write_no_model_themselves():
    assert len(VIEWS) >= 11
    found = {path.name: writes_in(path.read_text(encoding="utf-8")) for path in VIEWS}
    assert {name: lines for name, lines in found.items() if lines} == {}


def test_the_write_scan_finds_a_write():
    source = "def view(request, c):\n    form.save(commit=False)\n    TDAction.objects.create(x=1)\n    c.save()\n"
    assert writes_in(source) == ["line 3: TDAction.objects.create(x=1)", "line 4: c.save()"]


@pytest.fixture
def seen():
    """The actions the adapter's hook reports, in order."""
    actions: list[str] = []

    def record(sender, competition, action, user, **kwargs):
        actions.append(action)

    adapter.state_changed.connect(record)
    yield actions
    adapter.state_changed.disconnect(record)


def post(client, name, competition, *args, **data):
    response = client.post(reverse(name, args=[competition.club.slug, competition.slug, *args]), data)
    assert response.status_code == 302, response.content[:300]
    errors = [str(m) for m in get_messages(response.wsgi_request) if m.level_tag == "error"]
    assert errors == []
    return response


def results_for(rnd: Round) -> dict[str, str]:
    return {f"result-{game.board}": "1" for game in rnd.games.all()}


KINDS = [
    ("dutch", False, 3),
    ("roundrobin", False, None),
    ("keizer", False, 10),
    ("olympiad", False, 3),
    ("roundrobin", True, None),  # Gladiator
]


@pytest.mark.parametrize(("system", "gladiator", "rounds"), KINDS)
def test_pairing_results_and_undo_pass_the_adapter_for_every_kind(td_client, td, club, seen, system, gladiator, rounds):
    competition = make_competition(club, td, make_members(club, 8), system=system, rounds=rounds, slug="kind")
    if gladiator:
        Competition.objects.filter(pk=competition.pk).update(gladiator=True)
        competition.refresh_from_db()
    seen.clear()
    post(td_client, "pair", competition, round=1)
    post(td_client, "undo_round", competition)
    post(td_client, "pair", competition, round=1)
    post(td_client, "publish_round", competition, 1)
    rnd = competition.round_set.get(number=1)
    post(td_client, "enter_results", competition, 1, **results_for(rnd))
    post(td_client, "finish_round", competition, 1)
    boards = rnd.games.count()
    assert boards >= 3
    assert seen == ["pair", "undo-round", "pair", "publish", *["result"] * boards, "finish"]
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.FINISHED and not rnd.games.unfinished().exists()


def test_a_knockout_passes_the_adapter(td_client, td, club, seen):
    cup = make_competition(club, td, make_members(club, 4), system="knockout", slug="cup")
    seen.clear()
    post(td_client, "cup_pair", cup, round=1)
    post(td_client, "cup_publish", cup, 1)
    rnd = cup.round_set.get(number=1)
    post(td_client, "cup_results", cup, 1, **results_for(rnd))  # game 1 of both matches: white wins
    post(td_client, "cup_next_games", cup, 1)  # game 2 of both matches (two games a match by default)
    assert rnd.games.count() == 4
    assert seen == ["pair", "publish", "result", "result", "add-games"]


def test_a_gladiator_replay_passes_the_adapter(td_client, td, club, seen):
    competition = make_competition(club, td, make_members(club, 4), system="roundrobin", slug="glad")
    Competition.objects.filter(pk=competition.pk).update(gladiator=True)
    post(td_client, "pair", competition, round=1)
    post(td_client, "publish_round", competition, 1)
    game = competition.round_set.get(number=1).games.get(board=1)
    seen.clear()
    post(td_client, "enter_result", competition, 1, 1, **{"result-1": "="})
    post(td_client, "gladiator_next_game", competition, 1, game.match)
    assert seen == ["result", "add-games"]
    assert competition.round_set.get(number=1).games.filter(match=game.match).count() == 2


def test_a_double_click_on_pair_pairs_once_and_shows_the_round(td_client, td, club, members):
    competition = make_competition(club, td, members, system="dutch", rounds=5, slug="swiss")
    first = post(td_client, "pair", competition, round=1)
    td_client.get(first.url)  # the page after the first click shows its message
    again = td_client.post(reverse("pair", args=[club.slug, competition.slug]), {"round": 1})
    assert first.url == again.url == reverse("manage_round", args=[club.slug, competition.slug, 1])
    assert [str(m) for m in get_messages(again.wsgi_request)] == ["Round 1 is already paired."]
    assert competition.round_set.paired().count() == 1
    assert AuditEntry.objects.filter(competition_id=competition.pk, action="pair").count() == 1


def test_a_double_click_on_the_cup_pair_pairs_once(td_client, td, club):
    cup = make_competition(club, td, make_members(club, 4), system="knockout", slug="cup")
    td_client.get(post(td_client, "cup_pair", cup, round=1).url)
    again = td_client.post(reverse("cup_pair", args=[club.slug, cup.slug]), {"round": 1})
    assert again.status_code == 302
    assert [str(m) for m in get_messages(again.wsgi_request)] == ["Round 1 is already paired."]
    assert cup.round_set.paired().count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_pairings_at_the_same_moment_pair_the_round_once(td, club, members):
    """The row lock of the hook: the second waits for the first, then sees the round paired (PostgreSQL)."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks (SELECT ... FOR UPDATE) need PostgreSQL")
    competition = make_competition(club, td, members, system="dutch", rounds=5, slug="swiss")
    start = threading.Barrier(2)
    outcomes: list[str] = []

    def pair() -> None:
        try:
            start.wait()
            adapter.pair_next_round(Competition.objects.get(pk=competition.pk), td, expected=1)
            outcomes.append("paired")
        except adapter.StaleAction:
            outcomes.append("stale")
        except Exception as error:  # noqa: BLE001 (any other outcome fails the test, named)
            outcomes.append(repr(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=pair) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["paired", "stale"]
    assert competition.round_set.paired().count() == 1
