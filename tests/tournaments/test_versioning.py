"""One version bump per action: pairing, results, publishing, finishing and undoing raise the competition's
version exactly once, in one statement, however many rows they write; no row's save raises it."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from pairing import services as adapter
from pairing.services import cups
from pairing.services import records as services
from tests.conftest import make_competition, make_members
from tournaments import versioning
from tournaments.models import Competition, Game

pytestmark = pytest.mark.django_db


def version(competition) -> int:
    return Competition.objects.values_list("version", flat=True).get(pk=competition.pk)


def shape(competition) -> int:
    return Competition.objects.values_list("shape_version", flat=True).get(pk=competition.pk)


def bumps(queries) -> int:
    """The statements that raised a version (a game's result marked with it reads it, raises nothing)."""
    table = Competition._meta.db_table
    return sum(1 for q in queries if q["sql"].startswith(f'UPDATE "{table}"') and "version" in q["sql"])


def one_action(action, competition) -> None:
    before = version(competition)
    with CaptureQueriesContext(connection) as queries:
        action()
    assert version(competition) == before + 1
    assert bumps(queries.captured_queries) == 1


@pytest.fixture
def swiss(club, td):
    return make_competition(club, td, make_members(club, 20), system="dutch", rounds=5, slug="swiss")


def test_each_action_raises_the_version_once(td, swiss):
    one_action(lambda: adapter.pair_next_round(swiss, td), swiss)
    rnd = swiss.round_set.get(number=1)
    assert rnd.games.count() == 10
    one_action(lambda: adapter.publish(rnd, td), swiss)
    for game in rnd.games.order_by("board"):
        one_action(lambda game=game: adapter.set_result(game, "1-0", td), swiss)
    one_action(lambda: adapter.finish(rnd, td), swiss)
    one_action(lambda: adapter.pair_next_round(swiss, td), swiss)
    one_action(lambda: adapter.undo_last_round(swiss, td), swiss)  # ten games removed, one bump


def test_a_result_leaves_the_shape_every_other_action_raises_it(td, swiss):
    """The shape version stands while results alone change (tournaments.live puts them in), and each game
    is marked with the version its result made."""
    adapter.pair_next_round(swiss, td)
    rnd = swiss.round_set.get(number=1)
    before = shape(swiss)
    adapter.publish(rnd, td)
    assert shape(swiss) == before + 1
    game = rnd.games.order_by("board").first()
    adapter.set_result(game, "1-0", td)
    adapter.set_result(game, "0-1", td)
    assert shape(swiss) == before + 1
    assert Game.objects.get(pk=game.pk).result_version == version(swiss)
    assert rnd.games.exclude(pk=game.pk).filter(result_version__gt=0).count() == 0
    with versioning.one_bump():  # a result and another change in one action: the shape moves once
        versioning.bump(swiss.pk, result=True)
        versioning.bump(swiss.pk)
        versioning.bump(swiss.pk)
    assert shape(swiss) == before + 2


def test_a_knockout_result_changes_the_shape(td, club):
    """A knockout game's result may decide a match and add games: more than a result."""
    cup = make_competition(club, td, make_members(club, 8, base=1500), system="knockout", slug="cup")
    adapter.pair_next_round(cup, td)
    rnd = cup.round_set.get(number=1)
    adapter.publish(rnd, td)
    before = shape(cup)
    adapter.set_result(rnd.games.get(board=1), "1-0", td)
    assert shape(cup) == before + 1


def test_the_services_on_their_own_raise_it_once_too(td, club, swiss):
    newcomers = make_members(club, 3, base=1500)
    one_action(lambda: services.add_participants(swiss, newcomers, td), swiss)  # entries and start numbers


def test_a_knockout_round_raises_it_once(td, club):
    cup = make_competition(club, td, make_members(club, 8, base=1500), system="knockout", slug="cup")
    one_action(lambda: adapter.pair_next_round(cup, td), cup)
    rnd = cup.round_set.get(number=1)
    one_action(lambda: adapter.publish(rnd, td), cup)
    one_action(lambda: cups.set_game_result(rnd.games.get(board=1), "1-0", td), cup)


def test_a_row_saved_on_its_own_raises_nothing(td, swiss):
    """No signal raises the version per row: the actions do (the writer is the one way to change data)."""
    rnd = adapter.pair_next_round(swiss, td)
    before = version(swiss)
    game = rnd.games.get(board=1)
    game.result = "1-0"
    game.save()
    Game.objects.filter(round=rnd).delete()
    assert version(swiss) == before


def test_two_actions_in_one_transaction_scope_raise_it_once(td, swiss):
    rnd = adapter.pair_next_round(swiss, td)
    before = version(swiss)
    with versioning.one_bump():
        services.publish(rnd, td)
        services.set_result(rnd.games.get(board=1), "1-0", td)
    assert version(swiss) == before + 1
    services.set_result(rnd.games.get(board=2), "0-1", td)  # a new action, a new bump
    assert version(swiss) == before + 2
