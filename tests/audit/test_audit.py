"""The audit log: every kind of write leaves a row (who, when, what, before and after); undo and deletion
never remove one; nobody can change or delete one; only the club's TDs read it."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import IntegrityError, connection, transaction
from django.test import RequestFactory
from django.urls import reverse

from audit.log import record
from audit.models import AppendOnly, AuditEntry
from clubs.models import ClubRole, Member
from pairing import services as adapter
from pairing.services import cups, trf
from pairing.services import records as services
from tests.conftest import make_competition, make_members, play_round
from tests.ratings.test_web_rating_lists import knsb_csv
from tests.ratings.test_web_rating_lists import upload as upload_list
from tournaments import trf_export
from tournaments.models import Bye as RoundBye
from tournaments.models import Competition, Game, Round

pytestmark = pytest.mark.django_db


def rows(action, **where):
    return list(AuditEntry.objects.filter(action=action, **where))


def only(action, **where) -> AuditEntry:
    found = rows(action, **where)
    assert len(found) == 1, [str(e) for e in AuditEntry.objects.all()]
    return found[0]


@pytest.fixture
def rr(club, td):
    return make_competition(club, td, make_members(club, 6), system="roundrobin", slug="rr")


# ---------------------------------------------------------------------------------------- every write


def w_result(client, club, td, rr):
    rnd = adapter.pair_next_round(rr, td)
    services.publish(rnd, td)
    game = rnd.games.get(board=1)
    services.set_result(game, "½-½", td)
    return only("result"), {"result": ""}, {"result": "½-½"}


def w_result_override(client, club, td, rr):
    rnd = play_round(rr, td)
    game = rnd.games.get(board=1)
    services.set_result(game, "0-1", td, override=True)
    return only("result-override"), {"result": "1-0"}, {"result": "0-1"}


def w_result_view(client, club, td, rr):
    rnd = adapter.pair_next_round(rr, td)
    services.publish(rnd, td)
    game = rnd.games.get(board=2)
    url = reverse("enter_result", args=[club.slug, rr.slug, rnd.number, 2])
    client.post(url, {"result-2": "0", "based-2": ""})
    game.refresh_from_db()
    assert game.result == "0-1"
    return only("result"), {"result": ""}, {"result": "0-1"}


def w_pair(client, club, td, rr):
    rnd = adapter.pair_next_round(rr, td)
    entry = only("pair")
    assert len(entry.after["games"]) == rnd.games.count() == 3
    return entry, None, entry.after


def w_publish(client, club, td, rr):
    services.publish(adapter.pair_next_round(rr, td), td)
    return only("publish"), {"status": "draft"}, {"status": "published"}


def w_finish(client, club, td, rr):
    play_round(rr, td)
    return only("finish"), {"status": "published"}, {"status": "finished"}


def w_undo(client, club, td, rr):
    rnd = adapter.pair_next_round(rr, td)
    paired = AuditEntry.objects.get(action="pair").after
    services.undo_last_round(rr, td)
    assert not rnd.games.exists()
    return only("undo-round"), paired, None


def w_exchange(client, club, td, rr):
    rnd = adapter.pair_next_round(rr, td)
    game = rnd.games.get(board=1)
    other = rnd.games.get(board=2)
    adapter.exchange_players(rnd, game.white, other.white, td, override=True)
    entry = only("exchange-players")
    assert entry.before != entry.after and entry.before == AuditEntry.objects.get(action="pair").after
    return entry, entry.before, entry.after


def w_swap(client, club, td, rr):
    rnd = adapter.pair_next_round(rr, td)
    adapter.swap_colours(rnd, rnd.games.get(board=1), td, override=True)
    entry = only("swap-colours")
    assert entry.before["games"][0] != entry.after["games"][0] and entry.before["games"][1:] == entry.after["games"][1:]
    return entry, entry.before, entry.after


def w_settings(client, club, td, rr):
    keizer = make_competition(club, td, make_members(club, 4, base=1500), system="keizer", rounds=10, slug="kz")
    url = reverse("system_settings", args=[club.slug, keizer.slug])
    form = client.get(url).context["form"]
    shown = {name: field.initial for name, field in form.fields.items()}
    data = {name: value for name, value in shown.items() if value is not False and value is not None}
    old = keizer.settings["repeat_window"]
    client.post(url, data | {"setting_repeat_window": str(old + 1)})
    entry = only("settings")
    assert entry.competition_id == keizer.pk and entry.before["settings"]["repeat_window"] == old
    expected_after = entry.before | {"settings": entry.before["settings"] | {"repeat_window": old + 1}}
    return entry, entry.before, expected_after


def w_tiebreaks(client, club, td, rr):
    adapter.set_tiebreaks(rr, ["DE", "SB"], td)
    return only("tiebreaks"), {"tiebreaks": []}, {"tiebreaks": ["DE", "SB"]}


def w_prizes(client, club, td, rr):
    url = reverse("prize_settings", args=[club.slug, rr.slug])
    form = {"sharing": "", "one_prize_each": "on", "currency": "€", "age_on": "", "main_text": "100, 50",
            "groups_text": ""}  # fmt: skip
    assert client.post(url, form).status_code == 302
    entry = only("prizes")
    return entry, None, entry.after | {"main": [["100", ""], ["50", ""]]}


def w_participant(client, club, td, rr):
    member = Member.objects.create(club=club, first_name="Late", last_name="Comer", national_rating=1200)
    services.add_participant(rr, member, td)
    entry = only("participant-add", object_label__contains="Late Comer")
    return entry, None, {"member": "Late Comer", "rating": 1200, "joined_round": 1}


def w_withdraw(client, club, td, rr):
    swiss = make_competition(club, td, make_members(club, 6, base=1600), system="dutch", rounds=5, slug="sw")
    play_round(swiss, td)
    services.withdraw(swiss.participants.get(start_number=3), td)
    return only("withdraw"), {"withdrawn_after": None}, {"withdrawn_after": 1}


def w_absence(client, club, td, rr):
    participant = rr.participants.get(start_number=2)
    url = reverse("set_absence", args=[club.slug, rr.slug, 2])
    client.post(url, {"kind": RoundBye.Kind.HALF_BYE})
    entry = only("absence")
    assert entry.params == {"player": participant.name} and entry.object_label == participant.name
    return entry, {"kind": None}, {"kind": "half-bye"}


def w_club_match(client, club, td, rr):
    services.set_absence(rr, 1, rr.participants.get(start_number=1), RoundBye.Kind.CLUB_MATCH, td)
    bye = RoundBye.objects.get(kind=RoundBye.Kind.CLUB_MATCH)
    services.set_club_match_result(bye, "1", td)
    return only("club-match-result"), {"points": "0.0"}, {"points": "1"}


def w_member(client, club, td, rr):
    url = reverse("members", args=[club.slug])
    assert client.post(url, {"first_name": "Nieuw", "last_name": "Lid", "national_rating": "1400"}).status_code == 302
    entry = only("member-add")
    assert entry.club_id == club.pk and entry.competition_id is None
    return entry, None, entry.after | {"first_name": "Nieuw", "last_name": "Lid", "national_rating": 1400}


def w_guest(client, club, td, rr):
    url = reverse("add_guest", args=[club.slug, rr.slug])
    client.post(url, {"first_name": "Gast", "last_name": "Speler", "national_rating": "1300"})
    entry = only("member-add")
    assert entry.after["is_guest"] is True
    return entry, None, entry.after | {"first_name": "Gast", "last_name": "Speler"}


def w_import_members(client, club, td, rr):
    text = "first_name;last_name\nAnna;de Vries\nBram;Jansen\n"
    client.post(reverse("import_members", args=[club.slug]), {"text": text, "confirm": "1"})
    return only("import-members"), None, {"members": ["Anna de Vries", "Bram Jansen"]}


def w_import_trf(client, club, td, rr):
    play_round(rr, td)
    copy = trf.import_trf(club, trf_export.export_trf(rr), name="Copy", slug="copy", system="roundrobin", user=td)
    entry = only("import-trf")
    assert entry.competition_id == copy.pk and entry.after["players"] == 6 and entry.after["rounds"] == 1
    return entry, None, entry.after


def w_import_trf_view(client, club, td, rr):
    play_round(rr, td)
    text = trf_export.export_trf(rr)
    data = {"name": "Copy", "slug": "copy", "system": "roundrobin",
            "file": SimpleUploadedFile("rr.trf", text.encode())}  # fmt: skip
    assert client.post(reverse("import_trf", args=[club.slug]), data).status_code == 302
    entry = only("import-trf")
    assert entry.username == td.username and entry.after["file"] == "rr.trf"
    return entry, None, entry.after


def w_rating_list(client, club, td, rr):
    anna = Member.objects.create(club=club, first_name="Anna", last_name="de Vries", national_id="5001",
                                 national_rating=1750, birth_date=date(1990, 5, 1))  # fmt: skip
    upload_list(client, club, "knsb", "knsb.csv", knsb_csv())
    from ratings.models import RatingListImport

    list_import = RatingListImport.objects.get()
    client.post(reverse("rating_list", args=[club.slug, list_import.pk]), {"confirm": "1"})
    anna.refresh_from_db()
    assert anna.national_rating == 1850
    entry = only("rating-list")
    return entry, {"Anna de Vries": {"national_rating": 1750}}, {"Anna de Vries": {"national_rating": 1850}}


def w_competition(client, club, td, rr):
    members = make_members(club, 4, base=1300)
    data = {"name": "Najaar", "slug": "najaar", "system": "dutch", "rounds": "5", "late_entry_points": "0",
            "players": [m.pk for m in members]}  # fmt: skip
    response = client.post(reverse("new_competition", args=[club.slug]), data)
    assert response.status_code == 302, response.context["form"].errors
    entry = only("competition-create", competition_name="Najaar")
    assert entry.competition_name == "Najaar" and len(rows("participant-add", competition_id=entry.competition_id)) == 4
    return entry, None, entry.after | {"name": "Najaar", "system": "dutch", "rounds": 5}


def w_teams(client, club, td, rr):
    event = make_competition(club, td, make_members(club, 9, base=1500), system="olympiad", rounds=2, slug="teams")
    client.post(reverse("team_settings", args=[club.slug, event.slug]), {"teams": 3, "cycles": 1})
    entry = only("teams")
    scoring = {"match_win": 2.0, "match_draw": 1.0, "rank_by_board_points": False}  # the system's defaults
    return entry, entry.before, {"settings": {"teams": 3, "cycles": 1, **scoring}}


def w_cup(client, club, td, rr):
    cup = make_competition(club, td, make_members(club, 4, base=1500), system="knockout", slug="cup")
    client.post(reverse("cup_format", args=[club.slug, cup.slug]), {"games": 2, "rapid_games": 2, "blitz_games": 2})
    entry = only("cup-format")
    return entry, entry.before, entry.after | {"settings": entry.after["settings"] | {"games": 2}}


def w_cup_games(client, club, td, rr):
    cup = make_competition(club, td, make_members(club, 4, base=1500), system="knockout", slug="cup")
    cup.settings = {**cup.settings, "games": 2}
    cup.save()
    rnd = cups.pair_round(cup, td)
    services.publish(rnd, td)
    for game in rnd.games.all():
        cups.set_game_result(game, "1-0", td)
    cups.add_next_games(rnd, td)
    entry = only("add-games")
    assert len(entry.after) == 2
    return entry, None, entry.after


def w_split(client, club, td, rr):
    event = make_competition(club, td, make_members(club, 8, base=1700), system="dutch", rounds=5, slug="open")
    adapter.split_into_groups(event, 4, td)
    entry = only("split-groups")
    assert len([e for e in rows("competition-create") if e.competition_id not in (rr.pk, event.pk)]) == 2
    return entry, None, entry.after


def w_rating_list_read(client, club, td, rr):
    upload_list(client, club, "knsb", "knsb.csv", knsb_csv())
    # Five players in the list; the six members of the fixture's competition are none of them.
    return only("rating-list-read"), None, {"file": "knsb.csv", "players": 5, "unmatched": 6}


def w_invite(client, club, td, rr):
    client.post(reverse("directors", args=[club.slug]), {"email": "new.td@example.org"})
    return only("invite-td"), None, {"email": "new.td@example.org"}


def w_td_added(client, club, td, rr):
    from accounts.models import Invitation

    invitation = Invitation.objects.create(club=club, email="viewer@example.org", invited_by=td)
    viewer = get_user_model().objects.create_user("viewer2", password="secret-pass-4")
    ClubRole.objects.create(club=club, user=viewer, role=ClubRole.Role.VIEWER)
    client.force_login(viewer)
    client.post(reverse("accept_invitation", args=[invitation.token]))
    entry = only("td-added")
    change = {"user": "viewer2", "email": "viewer@example.org"}
    return entry, change | {"role": "viewer"}, change | {"role": "td"}


WRITES = {f.__name__[2:]: f for f in [
    w_result, w_result_override, w_result_view, w_pair, w_publish, w_finish, w_undo, w_exchange, w_swap,
    w_settings, w_tiebreaks, w_prizes, w_participant, w_withdraw, w_absence, w_club_match, w_member, w_guest,
    w_import_members, w_import_trf, w_import_trf_view, w_rating_list, w_competition, w_teams, w_cup, w_cup_games,
    w_split, w_rating_list_read, w_invite, w_td_added,
]}  # fmt: skip


ACTORS = {"td_added": "viewer2"}  # the invitee accepts; every other write is the TD's


@pytest.mark.parametrize("write", list(WRITES))
def test_every_kind_of_write_leaves_a_row(write, td_client, club, td, rr):
    entry, before, after = WRITES[write](td_client, club, td, rr)
    actor = get_user_model().objects.get(username=ACTORS.get(write, "director"))
    assert entry.user_id == actor.pk and entry.username == actor.username
    assert entry.club_id == club.pk and entry.club_name == club.name
    assert entry.before == before and entry.after == after
    assert entry.at is not None and entry.object_label


def test_a_write_refused_leaves_no_row(td, rr):
    rnd = adapter.pair_next_round(rr, td)
    with pytest.raises(Exception, match="Publish the round"):
        services.set_result(rnd.games.get(board=1), "1-0", td)
    assert not rows("result")


def test_entering_players_records_each_with_its_competition(rr):
    entries = rows("participant-add", competition_id=rr.pk)
    assert sorted(e.after["member"] for e in entries) == sorted(p.name for p in rr.participants.all())
    assert {e.competition_name for e in entries} == {rr.name}


def test_result_rows_name_round_and_board(td, rr):
    rnd = play_round(rr, td, {1: "0-1"})
    entry = AuditEntry.objects.get(action="result", round_number=1, object_id=str(rnd.games.get(board=1).pk))
    game = rnd.games.get(board=1)
    assert entry.object_label == f"1.1 {game.white.name} – {game.black.name}" and entry.after == {"result": "0-1"}


# ---------------------------------------------------------------------------------------- never removed


def test_rows_survive_undo(td, rr):
    rnd = adapter.pair_next_round(rr, td)
    services.publish(rnd, td)
    adapter.swap_colours(rnd, rnd.games.get(board=1), td, override=True)
    before = AuditEntry.objects.count()
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.DRAFT)  # undo takes a round without results
    services.undo_last_round(rr, td)
    assert AuditEntry.objects.count() == before + 1
    assert {"pair", "publish", "swap-colours", "undo-round"} <= set(AuditEntry.objects.values_list("action", flat=True))


def test_rows_survive_deleting_the_competition_the_club_and_the_user(td, rr, club):
    play_round(rr, td)
    competition_id = rr.pk
    count = AuditEntry.objects.filter(competition_id=competition_id).count()
    assert count >= 6 + 1 + 1 + 3 + 1  # entries, pair, publish, 3 results, finish
    Game.objects.filter(round__competition=rr).delete()
    Competition.objects.filter(pk=rr.pk).delete()
    assert AuditEntry.objects.filter(competition_id=competition_id).count() == count
    assert AuditEntry.objects.filter(competition_id=competition_id, competition_name=rr.name).count() == count
    get_user_model().objects.filter(pk=td.pk).delete()
    assert AuditEntry.objects.filter(username="director").count() == count
    club_id = club.pk
    club.members.all().delete()
    club.delete()
    assert AuditEntry.objects.filter(club_id=club_id).count() == count


# ---------------------------------------------------------------------------------------- append-only


def test_the_orm_refuses_to_change_or_delete_a_row(td, rr):
    entry = AuditEntry.objects.first()
    entry.action = "forged"
    with pytest.raises(AppendOnly):
        entry.save()
    with pytest.raises(AppendOnly):
        entry.delete()
    with pytest.raises(AppendOnly):
        AuditEntry.objects.filter(pk=entry.pk).update(action="forged")
    with pytest.raises(AppendOnly):
        AuditEntry.objects.all().delete()
    entry.refresh_from_db()
    assert entry.action == "participant-add"


def test_the_database_refuses_to_change_a_row(td, rr):
    entry = AuditEntry.objects.first()
    table = AuditEntry._meta.db_table
    with pytest.raises(Exception, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"UPDATE {table} SET action = 'forged' WHERE id = %s", [entry.pk])
    entry.refresh_from_db()
    assert entry.action == "participant-add"
    if connection.vendor == "postgresql":
        with pytest.raises(Exception, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(f"DELETE FROM {table} WHERE id = %s", [entry.pk])
        assert AuditEntry.objects.filter(pk=entry.pk).exists()


def test_the_database_refuses_to_empty_the_log(td, rr):
    """TRUNCATE passes by row triggers: a statement trigger refuses it (PostgreSQL). SQLite empties a
    table with DELETE, which a trigger refuses there."""
    count = AuditEntry.objects.count()
    assert count > 0
    table = AuditEntry._meta.db_table
    emptying = {"postgresql": [f"TRUNCATE {table}", f"TRUNCATE {table} RESTART IDENTITY CASCADE"]}
    for statement in emptying.get(connection.vendor, [f"DELETE FROM {table}"]):
        with pytest.raises(Exception, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(statement)
    assert AuditEntry.objects.count() == count


@pytest.mark.django_db(transaction=True)  # PostgreSQL truncates nothing inside a transaction with pending checks
def test_manage_flush_is_refused_and_changes_nothing(club, td, rr):
    count = AuditEntry.objects.count()
    with pytest.raises(CommandError, match="couldn't be flushed") as refusal:
        call_command("flush", interactive=False, verbosity=0)
    assert "append-only" in str(refusal.value.__cause__)
    assert AuditEntry.objects.count() == count
    assert Competition.objects.filter(pk=rr.pk).exists() and club.roles.filter(user=td).exists()


@pytest.mark.django_db(transaction=True)
def test_the_test_runs_own_flush_empties_the_log_and_leaves_the_guard(td, rr):
    """Transactional tests end with a flush (tests/conftest.py lifts the guard for it alone): afterwards the
    log is empty and cannot be emptied again."""
    from django.test import TransactionTestCase

    assert AuditEntry.objects.exists()
    TransactionTestCase()._fixture_teardown()  # the flush that ends every transactional test
    assert not AuditEntry.objects.exists()
    record(None, "participant-add", None, None, {"name": "after the flush"})
    with pytest.raises(CommandError, match="couldn't be flushed"):
        call_command("flush", interactive=False, verbosity=0)
    assert AuditEntry.objects.count() == 1


def test_the_admin_shows_rows_read_only(td, rr):
    from django.contrib.auth.models import User

    superuser = User.objects.create_superuser("root", password="root-pass-123")
    request = RequestFactory().get("/admin/")
    request.user = superuser
    model_admin = admin.site._registry[AuditEntry]
    entry = AuditEntry.objects.first()
    assert model_admin.has_view_permission(request, entry)
    assert not model_admin.has_add_permission(request)
    assert not model_admin.has_change_permission(request, entry)
    assert not model_admin.has_delete_permission(request, entry)
    assert "delete_selected" not in model_admin.get_actions(request)


def test_the_admin_pages_cannot_change_or_delete(client, td, rr):
    from django.contrib.auth.models import User

    client.force_login(User.objects.create_superuser("root", password="root-pass-123"))
    entry = AuditEntry.objects.first()
    change = reverse("admin:audit_auditentry_change", args=[entry.pk])
    assert client.get(change).status_code == 200  # viewable
    client.post(change, {"action": "forged"})
    assert client.post(reverse("admin:audit_auditentry_delete", args=[entry.pk]), {"post": "yes"}).status_code == 403
    assert client.get(reverse("admin:audit_auditentry_add")).status_code == 403
    entry.refresh_from_db()
    assert entry.action == "participant-add" and AuditEntry.objects.filter(pk=entry.pk).exists()


def test_a_row_rolls_back_with_its_write(td, rr):
    count = AuditEntry.objects.count()
    with pytest.raises(IntegrityError), transaction.atomic():
        record(td, "test", rr, None, {"x": 1})
        raise IntegrityError("the write failed")
    assert AuditEntry.objects.count() == count


# ---------------------------------------------------------------------------------------- history pages


def test_the_competition_history_shows_who_what_before_and_after(td_client, td, rr, club):
    rnd = play_round(rr, td)
    game = rnd.games.get(board=1)
    services.set_result(game, "½-½", td, override=True)
    page = td_client.get(reverse("competition_history", args=[club.slug, rr.slug])).content.decode()
    assert "result in a finished round (override)" in page and "round paired" in page and "player entered" in page
    assert "director" in page and f"{game.white.name} – {game.black.name}" in page
    assert "<td>result</td><td>1-0</td><td>½-½</td>" in page
    assert reverse("competition_history", args=[club.slug, rr.slug]) in td_client.get(
        reverse("manage", args=[club.slug, rr.slug])
    ).content.decode()


def test_the_club_history_keeps_a_deleted_competitions_rows(td_client, td, rr, club):
    play_round(rr, td)
    name = rr.name
    Game.objects.filter(round__competition=rr).delete()
    Competition.objects.filter(pk=rr.pk).delete()
    page = td_client.get(reverse("club_history", args=[club.slug])).content.decode()
    assert name in page and "round closed" in page
    assert reverse("club_history", args=[club.slug]) in td_client.get(club.get_absolute_url()).content.decode()


def test_the_history_is_translated(td_client, td, rr, club, settings):
    td_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "da"
    page = td_client.get(reverse("competition_history", args=[club.slug, rr.slug])).content.decode()
    assert "Historik" in page


def test_only_the_clubs_tds_see_the_history(client, td, rr, club, viewer):
    from clubs.models import Club, ClubRole

    urls = [reverse("club_history", args=[club.slug]), reverse("competition_history", args=[club.slug, rr.slug])]
    for url in urls:
        response = client.get(url)  # the public: to the login page
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    member = get_user_model().objects.create_user("speler", password="secret-pass-9")
    Member.objects.create(club=club, first_name="Speler", last_name="Een", user=member)
    other = Club.objects.create(name="Andere Club", slug="andere")
    other_td = get_user_model().objects.create_user("other-td", password="secret-pass-3")
    ClubRole.objects.create(club=other, user=other_td, role=ClubRole.Role.DIRECTOR)
    for user in (viewer, member, other_td):
        client.force_login(user)
        for url in urls:
            response = client.get(url)
            assert response.status_code == 403 and "player entered" not in response.content.decode()
