"""A club exported with `export_club` and restored with `import_club` into an empty database shows the same
pages (the demo's neighbour club, whose teams play in the demo club's league, restored first from its own
backup); a file of another format or version, or with a broken row, is refused and nothing is saved. The
cases of a league between clubs are in tests/teams/test_league_backup.py."""

from __future__ import annotations

import io
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from clubs.models import Club, Member
from ratings.models import RatingChange
from teams.models import BoardResult, League
from tournaments import backup
from tournaments.models import Competition, Game

pytestmark = pytest.mark.django_db

CSRF = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"|"X-CSRFToken": "[^"]*"')


# Database ids appear only in the TD's forms (which member to add, the audit entry of the boards a publish
# or an undo is based on); a restored club has new ids.
MEMBER_ID = re.compile(r'name="member"\s+value="\d+"')
BOARDS_SEEN = re.compile(r'name="based_on"\s+value="\d+"')
# A league's page links its teams' feeds and its matches' cards by their ids.
LEAGUE_IDS = re.compile(r"/(team|match)/\d+")


def page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    html = MEMBER_ID.sub('name="member"', CSRF.sub("", response.content.decode()))
    return LEAGUE_IDS.sub(r"/\1/", BOARDS_SEEN.sub('name="based_on"', html))


def pages(club_slug: str) -> dict[str, str]:
    """Every public page of the club, and the TD's manage and result-history pages."""
    anonymous, td = Client(), Client()
    user = get_user_model().objects.get(username="td")
    assert user.check_password("clubavond")  # the TD's account came back with its password
    td.force_login(user)
    urls = [reverse("club", args=[club_slug])]
    for competition in Competition.objects.filter(club__slug=club_slug).order_by("slug"):
        args = [club_slug, competition.slug]
        urls += [reverse("standings", args=args), reverse("crosstable", args=args), reverse("prize_list", args=args)]
        urls += [reverse("pairings", args=[*args, r.number]) for r in competition.round_set.all() if r.is_public]
        urls += [reverse("player", args=[*args, p.start_number]) for p in competition.participants.all()]
        if competition.system == "knockout":
            urls.append(reverse("bracket", args=args))
    urls += [reverse("league", args=[club_slug, lg.slug]) for lg in League.objects.filter(club__slug=club_slug)]
    rendered = {url: page(anonymous, url) for url in urls}
    for competition in Competition.objects.filter(club__slug=club_slug):
        for name in ("manage", "results_history"):
            url = reverse(name, args=[club_slug, competition.slug])
            rendered["td " + url] = page(td, url)
    return rendered


def counts() -> dict[str, int]:
    from audit.models import AuditEntry

    return {
        "audit": AuditEntry.objects.filter(club_id__in=Club.objects.values("pk")).count(),
        "members": Member.objects.count(), "competitions": Competition.objects.count(), "games": Game.objects.count(),
        "rating changes": RatingChange.objects.count(), "leagues": League.objects.count(),
        "boards": BoardResult.objects.exclude(home_player=None).exclude(away_player=None).count(),
    }  # fmt: skip


def empty_database() -> None:
    """Every row of the project's models and every user removed (dependent rows first)."""
    from django.apps import apps

    for model in reversed(backup.scope(Club)):
        model._default_manager.all().delete()
    for config in apps.get_app_configs():
        if config.label in ("jobs", "sessions"):
            for model in config.get_models():
                model._default_manager.all().delete()
    get_user_model().objects.all().delete()
    assert not any(counts().values())


def test_a_club_restored_into_an_empty_database_shows_the_same_pages(tmp_path):
    call_command("demo", stdout=io.StringIO())
    club = Club.objects.get(slug="de-pion")
    member = club.members.first()
    RatingChange.objects.create(member=member, system="knsb", date="2026-10-01", old=1500, new=1520, note="list")
    before, numbers = pages("de-pion"), counts()
    assert numbers["audit"] > 0
    assert numbers["leagues"] == 1 and numbers["boards"] > 30
    file, neighbour = tmp_path / "de-pion.json", tmp_path / "het-paard.json"
    call_command("export_club", "de-pion", str(file), stderr=io.StringIO())
    call_command("export_club", "het-paard", str(neighbour), stderr=io.StringIO())
    empty_database()
    call_command("import_club", str(neighbour), stdout=io.StringIO())
    out = io.StringIO()
    call_command("import_club", str(file), stdout=out)
    assert "restored" in out.getvalue() and "not on this site" not in out.getvalue()
    assert counts() == numbers
    after = pages("de-pion")
    assert after.keys() == before.keys()
    for url, html in before.items():
        assert after[url] == html, url
    assert not get_user_model().objects.filter(is_superuser=True).exists()
    from audit.models import AuditEntry

    restored = Club.objects.get(slug="de-pion")
    entry = AuditEntry.objects.filter(club_id=restored.pk, competition_id__isnull=False).first()
    assert entry.competition_id in set(restored.competitions.values_list("pk", flat=True))
    assert entry.user_id == get_user_model().objects.get(username=entry.username).pk
    result = AuditEntry.objects.filter(club_id=restored.pk, action="result").first()
    assert result.user_id == get_user_model().objects.get(username="td").pk  # who entered it, and when, kept


def test_the_export_is_versioned_and_a_second_export_is_the_same(tmp_path):
    call_command("demo", stdout=io.StringIO())
    first = backup.export_club(Club.objects.get(slug="de-pion"))
    neighbour = backup.export_club(Club.objects.get(slug="het-paard"))
    assert (first["format"], first["version"]) == ("clubavond-club", 1)
    assert [c["slug"] for c in first["outside"]["clubs"]] == ["het-paard"]
    empty_database()
    backup.import_club(json.loads(backup.dumps(neighbour)))
    backup.import_club(json.loads(backup.dumps(first)))
    second = backup.export_club(Club.objects.get(slug="de-pion"))

    def without_ids(data):
        text = backup.dumps({"users": data["users"], "models": data["models"], "outside": data["outside"]})
        return re.sub(r'"(id|\w+_id)": \d+', "", text)

    assert without_ids(second) == without_ids(first)


def write(tmp_path, data) -> str:
    file = tmp_path / "club.json"
    file.write_text(json.dumps(data), encoding="utf-8")
    return str(file)


@pytest.fixture
def exported(club, td):
    from tests.conftest import make_competition, make_members, play_round

    competition = make_competition(club, td, make_members(club, 6), system="dutch", rounds=3)
    play_round(competition, td)
    data = json.loads(backup.dumps(backup.export_club(club)))
    empty_database()
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(version=2), "version 2 is not one this Clubavond reads"),
        (lambda d: d.update(format="something-else"), "not a Clubavond club export"),
        (lambda d: d["models"].append({"model": "auth.user", "rows": []}), "not a list of rows of a known model"),
        (lambda d: section(d, "tournaments.game")[0].update(result="2-0"), "result"),
        (lambda d: section(d, "tournaments.game")[0].update(round_id=99999), "refers to tournaments.round 99999"),
        (lambda d: section(d, "clubs.member")[0].update(first_name="x" * 61), "first_name"),
        (lambda d: section(d, "tournaments.competition")[0].update(system="chess960"), "system"),
        (
            lambda d: section(d, "tournaments.bye" if section(d, "tournaments.bye") else "tournaments.game")[0].update(
                id=None
            ),
            "needs an id",
        ),
    ],
)
def test_a_bad_file_is_refused_with_a_clear_message_and_nothing_saved(tmp_path, exported, change, message):
    change(exported)
    with pytest.raises(CommandError, match=message) as raised:
        call_command("import_club", write(tmp_path, exported), stdout=io.StringIO())
    assert "nothing was imported" in str(raised.value)
    assert not any(counts().values()) and not get_user_model().objects.exists()


def section(data, label):
    return next(s["rows"] for s in data["models"] if s["model"] == label)


def test_an_existing_club_is_not_overwritten(tmp_path, club, td):
    data = json.loads(backup.dumps(backup.export_club(club)))
    with pytest.raises(CommandError, match="exists already"):
        call_command("import_club", write(tmp_path, data), stdout=io.StringIO())
    with pytest.raises(CommandError, match="not a JSON file"):
        (tmp_path / "bad.json").write_text("{", encoding="utf-8")
        call_command("import_club", str(tmp_path / "bad.json"))
    with pytest.raises(CommandError, match="no club"):
        call_command("export_club", "nope")


def test_the_td_downloads_a_competition_as_json(client, td_client, club, td, viewer):
    from tests.conftest import make_competition, make_members, play_round

    competition = make_competition(club, td, make_members(club, 6), system="dutch", rounds=3)
    play_round(competition, td)
    url = reverse("export_json", args=[club.slug, competition.slug])
    manage = td_client.get(reverse("manage", args=[club.slug, competition.slug])).content.decode()
    assert f'href="{url}"' in manage
    response = td_client.get(url)
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    data = json.loads(response.content)
    assert (data["format"], data["version"], data["competition"]) == ("clubavond-competition", 1, "rr")
    games = next(s["rows"] for s in data["models"] if s["model"] == "tournaments.game")
    assert len(games) == 3 and all(g["result"] == "1-0" for g in games)
    assert len(data["members"]) == 6 and data["state"]["round_to_pair"] == 2
    assert "password" not in response.content.decode() and "email" not in data["users"][0]
    results = [row for row in data["audit"] if row["action"] == "result"]  # the competition's log, who and when
    assert len(results) == 3 and {row["username"] for row in results} == {td.username}
    assert {user["username"] for user in data["users"]} >= {td.username}
    client.force_login(viewer)
    assert client.get(url).status_code in (403, 404)
    client.logout()
    assert client.get(url).status_code == 302


def test_a_file_with_the_retired_result_change_and_td_action_sections_restores_without_them(club, td):
    from tournaments.models import Competition as CompetitionModel

    old = CompetitionModel.objects.create(club=club, name="Oud", slug="oud", system="roundrobin")
    data = json.loads(backup.dumps(backup.export_club(club)))
    data["models"].append({"model": "tournaments.resultchange", "rows": [{"id": 1, "game_id": 9, "old_result": ""}]})
    data["models"].append({"model": "tournaments.tdaction", "rows": [{"id": 1, "competition_id": old.pk}]})
    empty_database()
    restored = backup.import_club(data)
    assert restored.competitions.get().name == "Oud"
