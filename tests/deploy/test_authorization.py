"""Who may open which page, taken from the URL resolver so that a page is covered the day it is added.

Every URL pattern of the site is filled with real ids of one world (two clubs, each with its TD and a
member with a login; competitions of the main kinds with paired and published rounds and games, a club
night, a forbidden pair, a rating list, a job, an invitation) and asked with GET and with POST by each of:
anonymous, a member of the club, a member of another club, a TD of another club, the club's TD, and a
site admin (a superuser). ACCESS below says, for every pattern by name, who may and which methods it
serves; a pattern missing from it fails the test. Asserted for every cell:

- never a server error;
- refused (302 to a login page, 403, 404, 405): and nothing written to the database;
- allowed: a GET answers 200 or a redirect that is not to a login page (so the ids are real) and writes
  nothing (but GET_WRITES); a POST is let in (not 403, 404 or 405), and a public page's POST writes nothing.

Every request runs in a savepoint that is rolled back, so each cell sees the same world. What a request
writes is read from the SQL it sends (INSERT, UPDATE, DELETE and the like), sessions and the login
throttling's records aside.

With CSRF checks on, every POST of every pattern that takes one, by each role the page lets in, is
refused with 403 and writes nothing. A TD of one club who puts another club's ids in his own club's
addresses is refused.
"""

from __future__ import annotations

import copy
import enum
import re
from dataclasses import dataclass
from datetime import date, time
from types import SimpleNamespace

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.contrib.contenttypes.models import ContentType
from django.core.cache import caches
from django.db import connection, transaction
from django.test import Client
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts.models import Invitation
from clubs.models import Club, ClubRole, Member, Season
from config.private_pages import PUBLIC as PUBLIC_CACHED
from entries.models import Entry
from jobs.models import Job
from pairing import services as adapter
from pairing.services import cups
from pairing.services import leagues as league_services
from pairing.services import records as services
from ratings.models import RatingListImport
from season.models import ClubNight, MemberCalendar
from tests.deploy.test_private_pages import fill, patterns
from tournaments import standings
from tournaments.models import Bye, Competition, ForbiddenPair, Round
from tournaments.state import CompetitionData

pytestmark = pytest.mark.django_db


class Role(enum.Enum):
    ANONYMOUS = "anonymous"
    MEMBER = "member of the club"
    OTHER_MEMBER = "member of another club"
    OTHER_TD = "TD of another club"
    TD = "TD of the club"
    SITE_ADMIN = "site admin"


class Access(enum.Enum):
    """Who a page lets in."""

    PUBLIC = ("anyone, logged in or not", frozenset(Role))
    SECRET_LINK = (
        "anyone who holds the link's token: an invitation, a calendar feed, a password reset, an entry",
        frozenset(Role),
    )
    SIGNED_IN = ("any account: its own password, its own page", frozenset(Role) - {Role.ANONYMOUS})
    OWN_MEMBER = (
        "a member with a login, whatever the club: the settings of his own page",
        frozenset({Role.MEMBER, Role.OTHER_MEMBER}),
    )
    CLUB_MEMBER = ("a member of the club, answering for himself", frozenset({Role.MEMBER}))
    CAPTAIN = (
        "the captain of one of a league match's teams (the member of the club captains its first team)",
        frozenset({Role.MEMBER}),
    )
    TD = ("the club's TDs (a superuser directs every club)", frozenset({Role.TD, Role.SITE_ADMIN}))
    SITE_ADMIN = ("the site admin: the admin", frozenset({Role.SITE_ADMIN}))
    NOBODY = ("nobody, not even the site admin", frozenset())

    @property
    def roles(self) -> frozenset[Role]:
        return self.value[1]


GET, POST, BOTH = frozenset({"GET"}), frozenset({"POST"}), frozenset({"GET", "POST"})

# Every page of the site by URL name: who it lets in, and the methods it serves.
ACCESS: dict[str, tuple[Access, frozenset[str]]] = {
    # the site
    "health": (Access.PUBLIC, BOTH),
    "set_language": (Access.PUBLIC, BOTH),
    "home": (Access.PUBLIC, BOTH),
    # accounts
    "login": (Access.PUBLIC, BOTH),
    "logout": (Access.PUBLIC, POST),
    "password_change": (Access.SIGNED_IN, BOTH),
    "password_change_done": (Access.SIGNED_IN, GET),
    "email_change": (Access.SIGNED_IN, BOTH),
    "password_reset": (Access.PUBLIC, BOTH),
    "password_reset_done": (Access.PUBLIC, GET),
    "password_reset_confirm": (Access.SECRET_LINK, BOTH),
    "password_reset_complete": (Access.PUBLIC, GET),
    "accept_invitation": (Access.SECRET_LINK, BOTH),
    "directors": (Access.TD, BOTH),
    "revoke_invitation": (Access.TD, POST),
    "new_club": (Access.SITE_ADMIN, BOTH),
    # a member's own page and answers
    "my_page": (Access.SIGNED_IN, BOTH),
    "my_settings": (Access.OWN_MEMBER, POST),
    "sign_off_rounds": (Access.OWN_MEMBER, POST),
    "sign_off": (Access.CLUB_MEMBER, POST),
    "notice": (Access.CLUB_MEMBER, BOTH),
    "member_feed": (Access.SECRET_LINK, BOTH),
    # the club
    "club": (Access.PUBLIC, BOTH),
    "club_calendar": (Access.PUBLIC, BOTH),
    "club_feed": (Access.PUBLIC, BOTH),
    "plan_season": (Access.TD, BOTH),
    "edit_night": (Access.TD, BOTH),
    "member_account": (Access.TD, BOTH),
    "members": (Access.TD, BOTH),
    "import_members": (Access.TD, BOTH),
    "club_history": (Access.TD, BOTH),
    "club_language": (Access.TD, POST),
    "new_competition": (Access.TD, BOTH),
    "import_trf": (Access.TD, BOTH),
    "rating_lists": (Access.TD, BOTH),
    "rating_list": (Access.TD, BOTH),
    "rating_history": (Access.TD, BOTH),
    "job": (Access.TD, BOTH),
    # a competition's public pages
    "standings": (Access.PUBLIC, BOTH),
    "pairings_latest": (Access.PUBLIC, BOTH),
    "pairings": (Access.PUBLIC, BOTH),
    "crosstable": (Access.PUBLIC, BOTH),
    "live_board": (Access.PUBLIC, BOTH),
    "player": (Access.PUBLIC, BOTH),
    "bracket": (Access.PUBLIC, BOTH),
    "prize_list": (Access.PUBLIC, BOTH),
    "tiebreak_explanation": (Access.PUBLIC, BOTH),
    "competition_calendar": (Access.PUBLIC, BOTH),
    # a team league: its public page, its organiser's TD pages, a captain's card of his match
    "league": (Access.PUBLIC, GET),
    "league_new": (Access.TD, BOTH),
    "league_manage": (Access.TD, BOTH),
    "league_roster": (Access.TD, POST),
    "league_schedule": (Access.TD, POST),
    "league_cup_draw": (Access.TD, POST),
    "league_match": (Access.TD, BOTH),
    "league_table_pdf": (Access.PUBLIC, GET),
    "league_round_pdf": (Access.PUBLIC, GET),
    "league_match_pdf": (Access.PUBLIC, GET),
    "league_trf": (Access.TD, GET),
    "league_import": (Access.TD, BOTH),
    "league_team_feed": (Access.PUBLIC, BOTH),
    "league_captain": (Access.CAPTAIN, BOTH),
    "league_match_page": (Access.PUBLIC, GET),
    "league_team": (Access.PUBLIC, GET),
    "league_team_captain": (Access.TD, BOTH),
    # a competition's TD pages
    "manage": (Access.TD, BOTH),
    "system_settings": (Access.TD, BOTH),
    "add_forbidden_pair": (Access.TD, POST),
    "delete_forbidden_pair": (Access.TD, POST),
    "add_participants": (Access.TD, POST),
    "add_guest": (Access.TD, POST),
    "withdraw": (Access.TD, POST),
    "set_absence": (Access.TD, POST),
    "undo_round": (Access.TD, POST),
    "results_history": (Access.TD, BOTH),
    "competition_history": (Access.TD, BOTH),
    "export_trf": (Access.TD, BOTH),
    "export_json": (Access.TD, BOTH),
    "manage_round": (Access.TD, BOTH),
    "enter_results": (Access.TD, POST),
    "enter_result": (Access.TD, POST),
    "publish_round": (Access.TD, POST),
    "finish_round": (Access.TD, POST),
    "club_match_result": (Access.TD, POST),
    "cup": (Access.TD, BOTH),
    "cup_format": (Access.TD, POST),
    "cup_pair": (Access.TD, POST),
    "cup_publish": (Access.TD, POST),
    "cup_next_games": (Access.TD, POST),
    "cup_results": (Access.TD, POST),
    "cup_result": (Access.TD, POST),
    "split_groups": (Access.TD, BOTH),
    "team_settings": (Access.TD, POST),
    "tiebreak_settings": (Access.TD, BOTH),
    "prize_settings": (Access.TD, BOTH),
    "gladiator_next_game": (Access.TD, POST),
    "pair": (Access.TD, POST),
    "exchange": (Access.TD, POST),
    "swap_colours": (Access.TD, POST),
    "plan_rounds": (Access.TD, BOTH),
    "present_list": (Access.TD, BOTH),
    "rating_report": (Access.TD, BOTH),
    # a competition's entries: the public form and list, the player's own link, the TD's inbox and check-in
    "entry_form": (Access.PUBLIC, BOTH),
    "entry_list": (Access.PUBLIC, GET),
    "my_entry": (Access.SECRET_LINK, BOTH),
    "entry_inbox": (Access.TD, BOTH),
    "entry_decide": (Access.TD, POST),
    "check_in": (Access.TD, BOTH),
    # the admin's own pages (its pages of each model: ADMIN_MODEL_PAGES)
    "admin:login": (Access.PUBLIC, BOTH),
    "admin:index": (Access.SITE_ADMIN, BOTH),
    "admin:logout": (Access.SITE_ADMIN, POST),
    "admin:password_change": (Access.SITE_ADMIN, BOTH),
    "admin:password_change_done": (Access.SITE_ADMIN, GET),
    "admin:autocomplete": (Access.NOBODY, GET),  # no admin page has an autocomplete field: 403 to everyone
    "admin:jsi18n": (Access.SITE_ADMIN, GET),
    "admin:view_on_site": (Access.SITE_ADMIN, BOTH),
    "admin:app_list": (Access.SITE_ADMIN, BOTH),
    "admin:auth_user_password_change": (Access.SITE_ADMIN, BOTH),
    "admin:(?P<url>.*)": (Access.NOBODY, BOTH),
}

ADMIN_MODEL_PAGES = ("changelist", "add", "history", "delete", "change")
# Rows nobody adds, changes or deletes by hand, not even the site admin: the audit log (append-only) and the
# job queue's results. The admin only shows them.
ADMIN_READ_ONLY = {"audit.auditentry", "django_tasks_database.dbtaskresult"}
# Rows the site writes with what they record (a result change, a TD's action, a login or a failed one): none
# is added by hand. The admin may still remove a login block (axes) by deleting its failed attempts.
ADMIN_NO_ADD = {"tournaments.resultchange", "tournaments.tdaction", "axes.accessattempt", "axes.accesslog",
                "axes.accessfailurelog"}  # fmt: skip


def admin_model_access() -> dict[str, tuple[Access, frozenset[str]]]:
    """The admin's pages of every model it shows (and the bare object address, which redirects to the change
    page): the site admin's alone, whatever the model; of a read-only model only its list, history and view."""
    found = {}
    for model in admin.site._registry:
        app, name = model._meta.app_label, model._meta.model_name
        for page in ADMIN_MODEL_PAGES:
            found[f"admin:{app}_{name}_{page}"] = (Access.SITE_ADMIN, BOTH)
        found[f"admin:{app}/{name}/<path:object_id>/"] = (Access.SITE_ADMIN, BOTH)
        if model._meta.label_lower in ADMIN_READ_ONLY | ADMIN_NO_ADD:
            found[f"admin:{app}_{name}_add"] = (Access.NOBODY, BOTH)
        if model._meta.label_lower in ADMIN_READ_ONLY:
            found[f"admin:{app}_{name}_delete"] = (Access.NOBODY, BOTH)
            found[f"admin:{app}_{name}_change"] = (Access.SITE_ADMIN, GET)
    return found


def site_patterns() -> list[tuple[str, str]]:
    """(key, route) of every URL pattern: the key is its URL name, or its route when it has none."""
    found = []
    for route, name in patterns():
        key = name
        if "." in name:  # no name: the view's dotted path
            key = ("admin:" + route.removeprefix("admin/")) if route.startswith("admin/") else route
        found.append((key, route))
    return found


PATTERNS = site_patterns()


def access_of(key: str) -> tuple[Access, frozenset[str]]:
    return {**ACCESS, **admin_model_access()}[key]


# The world ------------------------------------------------------------------------------------------


@dataclass
class World:
    clients: dict[Role, Client]  # each role logged in
    csrf_clients: dict[Role, Client]  # the same, with CSRF checks on
    values: dict[str, str]  # a value for each URL parameter
    by_name: dict[str, dict[str, str]]  # other values for some pages, by URL name
    posts: dict[str, dict[str, str]]  # what some pages' POST carries, by URL name
    objects: dict[str, object]


def members_of(club, count: int, prefix: str) -> list[Member]:
    return [
        Member.objects.create(club=club, first_name=f"{prefix}{i}", last_name="Player", national_rating=2000 - 20 * i)
        for i in range(1, count + 1)
    ]


def people() -> SimpleNamespace:
    """The clubs alpha (ten members) and beta (four), their TDs, a member of each with a login, a site admin."""
    users = get_user_model().objects
    found = SimpleNamespace(alpha=Club.objects.create(name="Alpha", slug="alpha"),
                            beta=Club.objects.create(name="Beta", slug="beta"))  # fmt: skip
    found.td_a = users.create_user("td-alpha", "td@alpha.example", "secret-pass-a")
    found.td_b = users.create_user("td-beta", "td@beta.example", "secret-pass-b")
    ClubRole.objects.create(club=found.alpha, user=found.td_a, role=ClubRole.Role.DIRECTOR)
    ClubRole.objects.create(club=found.beta, user=found.td_b, role=ClubRole.Role.DIRECTOR)
    found.site_admin = users.create_superuser("site-admin", "admin@example.org", "secret-pass-s")
    found.players_a, found.players_b = members_of(found.alpha, 10, "A"), members_of(found.beta, 4, "B")
    found.member_a = users.create_user("member-alpha", "member@alpha.example", "secret-pass-m")
    found.member_b = users.create_user("member-beta", "member@beta.example", "secret-pass-n")
    for player, user in ((found.players_a[0], found.member_a), (found.players_b[0], found.member_b)):
        player.user = user
        player.save(update_fields=["user"])
    found.season = Season.objects.create(club=found.alpha, name="2026-2027", start=date(2026, 9, 1),
                                         end=date(2027, 6, 30))  # fmt: skip
    return found


def published(competition: Competition, td) -> Round:
    rnd = adapter.pair_next_round(competition, td)
    services.publish(rnd, td)
    return rnd


def competitions(who: SimpleNamespace) -> SimpleNamespace:
    """Alpha's competitions of each main kind in play, and beta's round robin of the same short name as
    alpha's ("rr"), each with its first round published."""

    def competition(club, slug, system, players, **fields):
        created = Competition.objects.create(club=club, name=slug.title(), slug=slug, system=system, **fields)
        services.add_participants(created, list(players), who.td_a if club == who.alpha else who.td_b)
        return created

    found = SimpleNamespace()
    # A round robin: round 1 finished, round 2 published with one result.
    found.rr = competition(who.alpha, "rr", "roundrobin", who.players_a[:6], season=who.season)
    first = published(found.rr, who.td_a)
    for game in first.games.all():
        services.set_result(game, "1-0", who.td_a)
    services.finish(first, who.td_a)
    services.set_result(published(found.rr, who.td_a).games.get(board=1), "½-½", who.td_a)
    # A Keizer competition (members answer for its rounds): round 1 published, one player at a club match.
    found.keizer = competition(who.alpha, "keizer", "keizer", who.players_a[:9], rounds=10, season=who.season)
    found.away = found.keizer.participants.get(member=who.players_a[8])
    services.set_absence(found.keizer, 1, found.away, Bye.Kind.CLUB_MATCH, who.td_a)
    published(found.keizer, who.td_a)
    # A Swiss, a knockout cup, a team tournament and a Gladiator round robin.
    published(competition(who.alpha, "swiss", "dutch", who.players_a[:8], rounds=5), who.td_a)
    cup = competition(who.alpha, "cup", "knockout", who.players_a[:8], rounds=3, seed=1)
    services.publish(cups.pair_round(cup, who.td_a), who.td_a)
    teams = competition(who.alpha, "team", "olympiad", who.players_a[:8], rounds=3, settings={"teams": 4, "cycles": 1})
    published(teams, who.td_a)
    published(competition(who.alpha, "glad", "roundrobin", who.players_a[:4], gladiator=True), who.td_a)
    published(competition(who.beta, "rr", "roundrobin", who.players_b), who.td_b)
    # A team league organised by alpha: alpha's and beta's first teams, and their match.
    found.league = league_services.create_league(who.alpha, who.td_a, name="Regio", slug="regio",
                                                 settings={"boards": 4})  # fmt: skip
    league_services.add_team(found.league, who.td_a, club=who.alpha, name="Alpha 1", captain=who.players_a[0])
    league_services.add_team(found.league, who.td_a, club=who.beta, name="Beta 1")
    league_services.make_schedule(found.league, who.td_a)
    return found


def logged_in(who: SimpleNamespace, **options) -> dict[Role, Client]:
    logins = {Role.MEMBER: who.member_a, Role.OTHER_MEMBER: who.member_b, Role.OTHER_TD: who.td_b,
              Role.TD: who.td_a, Role.SITE_ADMIN: who.site_admin}  # fmt: skip
    clients = {}
    for role in Role:
        clients[role] = Client(**options)
        if role in logins:
            clients[role].force_login(logins[role])
    return clients


def build_world() -> World:
    """Two clubs, alpha with a competition of each main kind in play, beta with one; the rows the pages name."""
    who = people()
    played = competitions(who)
    one, two = played.rr.participants.order_by("start_number")[:2]
    entry = Entry.objects.create(competition=played.rr, first_name="Eve", last_name="Entrant", email="eve@example.org")
    night = ClubNight.objects.create(season=who.season, date=date(2026, 12, 3), start=time(20))
    rows = {
        "accept_invitation": {"token": Invitation.objects.create(club=who.alpha, email="new-td@example.org",
                                                                 invited_by=who.td_a).token},
        "member_feed": {"token": MemberCalendar.of(who.players_a[0]).token},
        "edit_night": {"pk": night.pk},
        "member_account": {"pk": who.players_a[1].pk},
        "revoke_invitation": {"pk": Invitation.objects.create(club=who.alpha, email="revoked@example.org",
                                                               invited_by=who.td_a).pk},
        "delete_forbidden_pair": {"pk": ForbiddenPair.objects.create(competition=played.rr, first=one, second=two,
                                                                     created_by=who.td_a).pk},
        "rating_list": {"pk": RatingListImport.objects.create(club=who.alpha, source="knsb", file_name="list.csv",
                                                              list_date=date(2026, 11, 1), uploaded_by=who.td_a).pk},
        "entry_decide": {"pk": entry.pk},
        "my_entry": {"token": entry.token},
        "job": {"pk": Job.objects.create(kind="trf-import", task="jobs.tests", key="matrix-job", title="A job",
                                         club=who.alpha, created_by=who.td_a, status=Job.Status.RUNNING).pk},
    }  # fmt: skip
    clients, csrf_clients = logged_in(who), logged_in(who, enforce_csrf_checks=True)
    who.member_a.refresh_from_db()  # its last login, which the reset token signs
    values = {
        "club": "alpha", "competition": "rr", "number": "2", "board": "1", "match": "1", "start_number": "1",
        "index": "1", "participant": str(played.keizer.participants.get(member=who.players_a[0]).pk),
        "uidb64": urlsafe_base64_encode(force_bytes(who.member_a.pk)),
        "token": default_token_generator.make_token(who.member_a),
        "content_type_id": str(ContentType.objects.get_for_model(Club).pk), "object_id": str(who.alpha.pk),
        "id": str(who.member_a.pk), "app_label": "clubs", "url": "nowhere/", "pk": "0", "league": "regio",
    }  # fmt: skip
    cup = {"competition": "cup", "number": "1"}
    by_name = {
        **{name: {key: str(value) for key, value in found.items()} for name, found in rows.items()},
        "notice": {"competition": "keizer"},
        "set_absence": {"competition": "keizer", "number": "3"},
        "club_match_result": {"competition": "keizer", "number": "1", "start_number": str(played.away.start_number)},
        "team_settings": {"competition": "team"},
        "league_match": {"pk": str(played.league.matches.get().pk)},
        "league_match_pdf": {"pk": str(played.league.matches.get().pk)},
        "league_round_pdf": {"number": "1"},
        "league_team_feed": {"team": str(played.league.teams.first().pk)},
        "league_captain": {"pk": str(played.league.matches.get().pk)},
        "league_match_page": {"pk": str(played.league.matches.get().pk)},
        "league_team": {"pk": str(played.league.teams.get(club=who.alpha).pk)},
        "league_team_captain": {"pk": str(played.league.teams.get(club=who.alpha).pk)},
        "gladiator_next_game": {"competition": "glad", "number": "1"},
        "tiebreak_explanation": explained_tiebreak(played.rr),
        **dict.fromkeys(("bracket", "cup", "cup_format", "cup_pair", "cup_publish", "cup_next_games", "cup_results",
                         "cup_result"), cup),
    }  # fmt: skip
    # A POST whose form names a row: a real one, so that the TD's POST reaches the form.
    # A member's answer for the Keizer's coming round: the member's own POST records it.
    answer = {"round": "2", "answer": "absent-notice"}
    posts = {"present_list": {"participant": str(one.pk)}, "sign_off": answer, "notice": answer,
             "check_in": {"action": "close"}}  # fmt: skip
    other = played.keizer.participants.get(member=who.players_a[1])
    return World(clients, csrf_clients, values, by_name, posts, {"alpha": who.alpha, "beta": who.beta,
                                                                  "other_participant": other})  # fmt: skip


def explained_tiebreak(competition) -> dict[str, str]:
    """A player's start number and the index of a tie-break of the standings that has an explanation."""
    _names, rows = standings.standings(CompetitionData.load(competition, public=True))
    for row in rows:
        for index, explanation in enumerate(row.explanations):
            if explanation is not None:
                return {"number": str(row.participant.start_number), "index": str(index)}
    raise AssertionError("no tie-break of the round robin has an explanation")


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """The world, built once for the module in a transaction rolled back after its last test."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield build_world()
        transaction.set_rollback(True)


def path_of(world: World, key: str, route: str) -> str:
    values = dict(world.values)
    values |= world.by_name.get(key, {})
    if key.startswith("admin:") and "object_id" in route and key.endswith(tuple(ADMIN_MODEL_PAGES) + ("/",)):
        values["object_id"] = admin_object_id(route)
    return fill(route, values)


def admin_object_id(route: str) -> str:
    """The id of a row of the model an admin address names (a superuser then sees a real page), else 0."""
    for model in admin.site._registry:
        if route.startswith(f"admin/{model._meta.app_label}/{model._meta.model_name}/"):
            first = model._default_manager.order_by("pk").first()
            return str(first.pk) if first else "0"
    return "0"


# The one page whose GET writes: a member's calendar feed (its secret address) is made when first needed.
GET_WRITES = {"my_page"}


# One request --------------------------------------------------------------------------------------

WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE|REPLACE|TRUNCATE|CREATE|DROP|ALTER)\b", re.IGNORECASE)
# Not the site's data: a login's session (flash messages included) and the login throttling's records.
NOT_DATA = re.compile(r'"django_session"|"axes_')
# Where a refusal may send the visitor: a login page; the admin's logout sends whoever is not staff to the
# admin's index, which asks for a login.
LOGIN_PAGES = {"/login/", "/admin/login/"}
REFUSED_TO = {"/admin/logout/": "/admin/"}


@dataclass
class Answer:
    path: str
    status: int
    location: str
    writes: list[str]
    error: str = ""

    @property
    def to_login(self) -> bool:
        where = self.location.split("?")[0]
        return self.status == 302 and (where in LOGIN_PAGES or where == REFUSED_TO.get(self.path))

    def __str__(self) -> str:
        where = f" -> {self.location}" if self.location else ""
        return f"{self.status}{where}{' ' + self.error if self.error else ''}{' writes ' if self.writes else ''}" + (
            "; ".join(self.writes)
        )


def ask(client: Client, method: str, path: str, data: dict | None = None) -> Answer:
    """`method` on `path` (a POST with `data`) in a savepoint rolled back after it; the SQL writes it sent."""
    writes: list[str] = []

    def watch(execute, sql, params, many, context):
        if WRITE.match(sql) and not NOT_DATA.search(sql):
            writes.append(" ".join(sql.split())[:100])
        return execute(sql, params, many, context)

    cookies = copy.deepcopy(client.cookies)
    with transaction.atomic():
        with connection.execute_wrapper(watch):
            try:
                response = client.get(path) if method == "GET" else client.post(path, data)
                answer = Answer(path, response.status_code, response.get("Location", ""), writes)
            except Exception as error:  # a server error: the test client raises the view's exception
                answer = Answer(path, 500, "", writes, f"{type(error).__name__}: {error}")
        transaction.set_rollback(True)
    client.cookies = cookies  # a logout or a login in the cell does not carry over
    if method == "POST":
        for alias in ("default", "stamps"):
            caches[alias].clear()
    return answer


def problem(key: str, role: Role, method: str, answer: Answer) -> str | None:
    """What is wrong with `answer`, by ACCESS; None if nothing."""
    access, methods = access_of(key)
    if answer.status >= 500:
        return "server error"
    allowed = role in access.roles
    if not allowed or method not in methods:
        if answer.status in (403, 404, 405) or answer.to_login:
            return "wrote while refusing" if answer.writes else None
        return "not refused" if not allowed else f"{method} not refused"
    if method == "GET":
        if answer.status != 200 and (answer.status not in (301, 302) or answer.to_login):
            return "not let in"
        return "a GET wrote" if answer.writes and key not in GET_WRITES else None
    if answer.status in (403, 404, 405) or answer.to_login:
        return "not let in"
    if access in (Access.PUBLIC,) and answer.writes:
        return "a public page wrote"
    return None


# The tests ---------------------------------------------------------------------------------------


def test_every_url_pattern_is_classified():
    known = {**ACCESS, **admin_model_access()}
    keys = {key for key, _route in PATTERNS}
    assert not keys - known.keys(), f"pages with no entry in ACCESS: {sorted(keys - known.keys())}"
    assert not known.keys() - keys, f"entries in ACCESS for no page: {sorted(known.keys() - keys)}"
    public = {key for key, (access, _methods) in ACCESS.items() if access is Access.PUBLIC}
    assert public >= PUBLIC_CACHED, "a page cached as public (config.private_pages) that not everyone may read"


@pytest.mark.parametrize(("key", "route"), PATTERNS, ids=[key for key, _route in PATTERNS])
def test_who_may_open_the_page(world, key, route):
    path = path_of(world, key, route)
    wrong = []
    for role, client in world.clients.items():
        for method in ("GET", "POST"):
            answer = ask(client, method, path, world.posts.get(key, {}))
            if found := problem(key, role, method, answer):
                wrong.append(f"{method} {path} as {role.value}: {found} ({answer})")
    assert not wrong, "\n".join(wrong)


POSTED = [(key, route) for key, route in PATTERNS if "POST" in access_of(key)[1] and access_of(key)[0].roles]


@pytest.mark.parametrize(("key", "route"), POSTED, ids=[key for key, _route in POSTED])
def test_a_post_without_the_csrf_token_is_refused(world, key, route):
    """Every POST a page takes, by each role it lets in, is refused without the form's token: 403, no write
    (with the token the same POST is let in: test_who_may_open_the_page)."""
    path = path_of(world, key, route)
    access, _methods = access_of(key)
    wrong = []
    for role in access.roles:
        answer = ask(world.csrf_clients[role], "POST", path, world.posts.get(key, {}))
        if answer.status != 403 or answer.writes:
            wrong.append(f"POST {path} as {role.value} without a token: {answer}")
    assert not wrong, "\n".join(wrong)


# A club's pages that name a row by its id (a club night, a member, a forbidden pair, a rating list, a job).
BY_ID = [(key, route) for key, route in PATTERNS if "<slug:club>" in route and "<int:pk>" in route]


@pytest.mark.parametrize(("key", "route"), BY_ID, ids=[key for key, _route in BY_ID])
def test_a_td_cannot_reach_another_clubs_rows_through_his_own_clubs_pages(world, key, route):
    """The TD of club B puts the id of a row of club A in B's own address: refused, and nothing written."""
    values = world.values | world.by_name.get(key, {}) | {"club": "beta"}  # B's round robin is "rr" too
    path = fill(route, values)
    mine = fill(route, world.values | {"club": "beta", "pk": "0"})
    assert path != mine
    wrong = []
    for method in ("GET", "POST"):
        answer = ask(world.clients[Role.OTHER_TD], method, path, world.posts.get(key, {}))
        if answer.status not in (403, 404, 405) or answer.writes:
            wrong.append(f"{method} {path} as the TD of beta: {answer}")
    assert not wrong, "\n".join(wrong)


def test_a_member_answers_for_himself_only(world):
    """A member of the club sends an answer for another member's place in the same competition: refused, and
    nothing written; the same answer for his own place is recorded."""
    other = world.objects["other_participant"]
    client = world.clients[Role.MEMBER]
    refused = ask(client, "POST", f"/me/answer/{other.pk}/", world.posts["sign_off"])
    assert refused.status == 404 and not refused.writes, refused
    own = ask(client, "POST", f"/me/answer/{world.values['participant']}/", world.posts["sign_off"])
    assert own.status == 302 and any("season_signoff" in write for write in own.writes), own


# Another club's accounts -------------------------------------------------------------------------------------


@pytest.fixture
def beta_member_without_login(world):
    from clubs.models import Member

    return Member.objects.create(club=world.objects["beta"], first_name="New", last_name="Login")


def test_a_td_cannot_change_the_email_of_an_account_of_another_club(world, beta_member_without_login):
    """Club B's TD names club A's TD's account on B's member-login page with an address of his own: A's TD's
    e-mail (where a password reset would go) stays as it was."""
    td_alpha = get_user_model().objects.get(username="td-alpha")
    path = f"/beta/members/{beta_member_without_login.pk}/account/"
    world.clients[Role.OTHER_TD].post(path, {"username": "td-alpha", "email": "intruder@example.org"})
    td_alpha.refresh_from_db()
    assert td_alpha.email == "td@alpha.example"


def test_a_td_cannot_link_his_member_to_an_account_of_another_club_nor_read_its_email(world, beta_member_without_login):
    """Club B's TD names club A's TD's account for one of B's members: the member is not given that account,
    and no page of B shows its e-mail."""
    path = f"/beta/members/{beta_member_without_login.pk}/account/"
    client = world.clients[Role.OTHER_TD]
    client.post(path, {"username": "td-alpha", "email": ""})
    beta_member_without_login.refresh_from_db()
    pages = client.get(path).content.decode() + client.get("/beta/members/").content.decode()
    assert beta_member_without_login.user is None or beta_member_without_login.user.username != "td-alpha"
    assert "td@alpha.example" not in pages
