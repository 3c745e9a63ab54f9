"""The audit log is the one record of every action: each action leaves exactly one entry, entries hold
codes and parameters and are read in the reader's language, and the old logs' history moved into it."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse
from django.utils import timezone

from audit.models import AuditEntry
from clubs.models import Member
from pairing import services as adapter
from pairing.services import records as services
from tests.conftest import make_competition, make_members, play_round
from tournaments.models import Bye

pytestmark = pytest.mark.django_db


@pytest.fixture
def swiss(club, td):
    return make_competition(club, td, make_members(club, 6), system="dutch", rounds=5, slug="swiss")


def history(client, club, competition, language: str, settings) -> str:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client.get(reverse("competition_history", args=[club.slug, competition.slug])).content.decode()


def a_season_of_actions(club, td, swiss) -> None:
    """Round 1 played, round 2 paired, exchanged and undone; a half-point bye asked for round 2, a late
    entry, a withdrawal."""
    rnd = play_round(swiss, td)
    services.set_result(rnd.games.get(board=1), "0-1", td, override=True)
    adapter.set_absence(swiss, swiss.participants.get(start_number=2), Bye.Kind.HALF_BYE, td)
    late = Member.objects.create(club=club, first_name="Late", last_name="Comer", national_rating=1200)
    adapter.add_participants(swiss, [late], td)
    second = adapter.pair_next_round(swiss, td)
    one, two = second.games.get(board=1), second.games.get(board=2)
    adapter.exchange_players(second, one.white, two.white, td, override=True)
    adapter.undo_last_round(swiss, td)
    adapter.withdraw(swiss.participants.get(start_number=5), td)


def test_every_action_leaves_exactly_one_entry(club, td, swiss):
    before = {action: AuditEntry.objects.filter(action=action).count() for action in ("participant-add",)}
    a_season_of_actions(club, td, swiss)
    counted = {}
    for action in AuditEntry.objects.filter(competition_id=swiss.pk).values_list("action", flat=True):
        counted[action] = counted.get(action, 0) + 1
    assert counted == {
        "competition-create": 1,  # the fixture's, as the TD creates one
        "participant-add": before["participant-add"],  # the six entries of the fixture, nothing since
        "pair": 2, "publish": 1, "result": 3, "finish": 1, "result-override": 1, "absence": 1,
        "late-entry": 1, "exchange-players": 1, "undo-round": 1, "withdraw": 1,
    }  # fmt: skip


def test_entries_hold_codes_and_parameters_not_words(club, td, swiss):
    a_season_of_actions(club, td, swiss)
    exchange = AuditEntry.objects.get(action="exchange-players")
    assert set(exchange.params) == {"players", "override"} and len(exchange.params["players"]) == 2
    assert AuditEntry.objects.get(action="absence").after == {"kind": "half-bye"}
    assert AuditEntry.objects.get(action="late-entry").after["joined_round"] == 2
    rounds = AuditEntry.objects.filter(object_type="round").exclude(action="absence")
    round_labels = rounds.values_list("object_label", flat=True)
    assert set(round_labels) <= {f"{swiss.name} 1", f"{swiss.name} 2"}  # names and numbers only


# What a Dutch or Danish reader must not see: codes and English words of the entries.
CODES = ["half-bye", "absent-notice", "published", "exchange-players", "undo-round", "rematch", "late-entry"]
NL_TIME = r"\d{1,2}-\d{1,2}-\d{4} \d\d:\d\d:\d\d"  # 28-11-2026 13:33:25
DA_TIME = r"\d\d\.\d\d\.\d{4} \d\d:\d\d:\d\d"  # 28.11.2026 13:33:25
ENGLISH = ["round paired", "round published", "players exchanged", "round undone", "late entry", "start numbers"]


@pytest.mark.parametrize(
    "language, words, when",
    [
        ("nl", ["ronde ingedeeld", "gepubliceerd", "bye met een half punt", "ronde 2"], NL_TIME),
        ("da", ["runde parret", "offentliggjort", "oversidder med ½ point", "runde 2"], DA_TIME),
    ],
)  # fmt: skip
def test_the_history_speaks_the_readers_language(td_client, club, td, swiss, settings, language, words, when):
    a_season_of_actions(club, td, swiss)
    page = history(td_client, club, swiss, language, settings)
    cells = " ".join(re.findall(r"<td[^>]*>(.*?)</td>", page, flags=re.S))
    for word in words:
        assert word in cells, word
    for word in CODES + ENGLISH:
        assert word not in cells, word
    assert re.search(f"<td[^>]*>{when}</td>", page)
    assert "a.m." not in page and "p.m." not in page


def test_the_english_history_gives_the_time_to_the_second(td_client, club, td, swiss, settings):
    play_round(swiss, td)
    page = history(td_client, club, swiss, "en", settings)
    assert re.search(r"<td[^>]*>\d\d/\d\d/\d{4} \d{1,2}:\d\d:\d\d [ap]\.m\.</td>", page)
    assert not re.search(r"[ap]\.m\.:\d\d", page)  # seconds after the time of day, not after "p.m."


def test_the_manage_page_and_the_result_history_read_the_log(td_client, club, td, swiss, settings):
    rnd = play_round(swiss, td)
    services.set_result(rnd.games.get(board=1), "0-1", td, override=True)
    td_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    manage = td_client.get(reverse("manage", args=[club.slug, swiss.slug])).content.decode()
    assert "ronde ingedeeld" in manage and "undo-round" not in manage and ">pair<" not in manage
    results = td_client.get(reverse("results_history", args=[club.slug, swiss.slug])).content.decode()
    game = rnd.games.get(board=1)
    assert results.count(f"1.1 {game.white.name} – {game.black.name}") == 2  # typed, then overridden
    assert "<td>1-0</td>\n      <td>0-1</td>" in results


# ---------------------------------------------------------------------------------------- the migration


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture
def back_to_the_latest_migrations():
    """The database as every other test expects it, whatever migration the test leaves it at."""
    yield
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)  # migrations alter tables: outside the test's transaction
@pytest.mark.usefixtures("back_to_the_latest_migrations")
def test_the_old_logs_history_moves_into_the_audit_log(club, td, swiss):
    old = migrate([("tournaments", "0011_competition_time_control"), ("audit", "0004_auditentry_params")])
    TDAction, ResultChange = old.get_model("tournaments", "TDAction"), old.get_model("tournaments", "ResultChange")
    Round, Game = old.get_model("tournaments", "Round"), old.get_model("tournaments", "Game")
    rnd = Round.objects.create(competition_id=swiss.pk, number=1, status="published")
    white, black = swiss.participants.get(start_number=1), swiss.participants.get(start_number=4)
    game = Game.objects.create(round=rnd, board=1, white_id=white.pk, black_id=black.pk, result="1-0")
    long_ago = timezone.now() - timedelta(days=30)
    # Before the audit log: only the old tables know.
    change = ResultChange.objects.create(game=game, old_result="", new_result="1-0", changed_by_id=td.pk)
    ResultChange.objects.filter(pk=change.pk).update(changed_at=long_ago)
    early = TDAction.objects.create(competition_id=swiss.pk, round_number=1, user_id=td.pk, action="publish")
    TDAction.objects.filter(pk=early.pk).update(at=long_ago)
    # Since the audit log: the same action in both, once with words the entry lacks.
    AuditEntry.objects.create(
        action="finish", competition_id=swiss.pk, round_number=1, user_id=td.pk, username="director"
    )
    TDAction.objects.create(competition_id=swiss.pk, round_number=1, user_id=td.pk, action="finish")
    AuditEntry.objects.create(action="exchange-players", competition_id=swiss.pk, round_number=1, user_id=td.pk)
    TDAction.objects.create(competition_id=swiss.pk, round_number=1, user_id=td.pk, action="exchange",
                            detail="1<->4 override: rematch")  # fmt: skip
    count = AuditEntry.objects.count()

    migrate([("tournaments", "0013_remove_resultchange_tdaction")])

    added = list(AuditEntry.objects.order_by("id")[count:])
    assert sorted(e.action for e in added) == ["exchange-players", "publish", "result"]
    result = next(e for e in added if e.action == "result")
    assert (result.before, result.after, result.username, result.round_number) == (
        {"result": ""}, {"result": "1-0"}, "director", 1
    )  # fmt: skip
    assert result.object_id == str(game.pk) and result.object_label == f"1.1 {white.name} – {black.name}"
    assert abs(result.at - long_ago) < timedelta(seconds=1)
    published = next(e for e in added if e.action == "publish")
    assert (published.competition_id, published.club_id, published.user_id) == (swiss.pk, club.pk, td.pk)
    exchange = next(e for e in added if e.action == "exchange-players")
    assert exchange.params == {"detail": "1<->4 override: rematch"}
    assert AuditEntry.objects.filter(action="finish").count() == 1  # already in the log: not copied
    assert "tournaments_tdaction" not in connection.introspection.table_names()
    assert "tournaments_resultchange" not in connection.introspection.table_names()
