"""A club's backup carries the leagues it organises whole (`tournaments.backup`): restored on the same
site, another club's team and players are that club and its members again; restored on a site without
that club, the team keeps the club's name and its players their names, the league table is the same;
a broken `outside` section or a reference to nothing is refused by name, and nothing is saved.

The league: SV Testclub organises it; Testclub 1 (home) plays Rivaal 1 over two boards on 10 October.
The home team has White on board 1: board 1 1-0 is a home win, board 2 ½-½ a draw: 1½-½, match
points 2-0 (a win 2, a loss 0).
"""

from __future__ import annotations

import io
import json
from datetime import date

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from clubs.models import Club, Member
from pairing.engines.league_trf import parse_league, write_league
from pairing.services import leagues as ls
from pairing.services.clubs import remove_club
from teams.models import BoardResult, League, Match, Team, TeamPlayer
from teams.printing import league_file
from teams.table import league_table
from tests.clubs.test_backup import empty_database
from tests.conftest import make_members
from tournaments import backup

pytestmark = pytest.mark.django_db


@pytest.fixture
def rivaal():
    return Club.objects.create(name="SC Rivaal", slug="rivaal", city="Leiden")


@pytest.fixture
def played(club, rivaal, td):
    """The league of the module docstring, its one match played; Rivaal's players have FIDE ids."""
    ours, theirs = make_members(club, 2), make_members(rivaal, 3, base=2000)
    for i, member in enumerate(theirs):
        member.fide_id = str(9000 + i)
        member.save()
    league = ls.create_league(club, td, name="Regio 2026", slug="regio", settings={"boards": 2})
    home = ls.add_team(league, td, club=club, name="Testclub 1", captain=ours[0])
    away = ls.add_team(league, td, club=rivaal, name="Rivaal 1", captain=theirs[0])
    ls.set_roster(home, td, ours)
    ls.set_roster(away, td, theirs[:2], reserves=[theirs[2]])
    ls.make_schedule(league, td, [home, away], [date(2026, 10, 10)])
    match = league.matches.get()
    ls.set_lineup(match, home, td, ours)
    ls.set_lineup(match, away, td, theirs[:2])
    ls.set_board_results(match, td, {1: "1-0", 2: "½-½"})
    return league


def table(league: League) -> list[tuple[str, float, float]]:
    return [(line.team.name, line.line.match_points, line.line.board_points) for line in league_table(league)]


def restore(data) -> tuple[Club, list[str]]:
    notes: list[str] = []
    club = backup.import_club(json.loads(backup.dumps(data)), notes)
    return club, notes


def test_the_backup_carries_the_league_whole_and_the_other_clubs_rows_by_name(played, club, rivaal):
    data = backup.export_club(club)
    teams = next(s["rows"] for s in data["models"] if s["model"] == "teams.team")
    assert sorted(t["name"] for t in teams) == ["Rivaal 1", "Testclub 1"]
    assert data["outside"]["clubs"] == [{"id": rivaal.pk, "slug": "rivaal", "name": "SC Rivaal"}]
    assert [(m["first_name"], m["fide_id"]) for m in data["outside"]["members"]] == [
        ("Player001", "9000"), ("Player002", "9001"), ("Player003", "9002"),
    ]  # fmt: skip
    members = next(s["rows"] for s in data["models"] if s["model"] == "clubs.member")
    assert {m["club_id"] for m in members} == {club.pk}  # Rivaal's members are not the club's rows


def test_round_trip_on_the_same_site_finds_the_other_club_and_its_members(played, club, rivaal):
    before = table(played)
    assert before == [("Testclub 1", 2.0, 1.5), ("Rivaal 1", 0.0, 0.5)]
    data = backup.export_club(club)
    remove_club(club, None)
    assert not League.objects.exists() and Club.objects.get() == rivaal
    restored, notes = restore(data)
    assert notes == []
    league = restored.leagues.get()
    away = league.teams.get(name="Rivaal 1")
    assert (away.club, away.club_name) == (rivaal, "")
    assert away.captain == rivaal.members.get(first_name="Player001")
    assert [(p.member.full_name, p.reserve) for p in away.players.all()] == [
        ("Player001 Surname001", False), ("Player002 Surname002", False), ("Player003 Surname003", True),
    ]  # fmt: skip
    boards = list(league.matches.get().boards.order_by("board"))
    assert [b.away_player.club for b in boards] == [rivaal, rivaal]
    assert table(league) == before


def test_restored_onto_a_site_without_the_other_club_its_team_and_players_keep_their_names(played, club, td):
    before = table(played)
    data = backup.export_club(club)
    empty_database()
    restored, notes = restore(data)
    assert "club 'SC Rivaal' is not on this site: kept by name (teams.team.club_name)" in notes
    assert "player 'Player001 Surname001' is not on this site: teams.team.captain left empty" in notes
    league = restored.leagues.get()
    away = league.teams.get(name="Rivaal 1")
    assert (away.club, away.club_name, away.club_label, away.captain) == (None, "SC Rivaal", "SC Rivaal", None)
    assert [(p.member, p.name, p.reserve) for p in away.players.all()] == [
        (None, "Player001 Surname001", False), (None, "Player002 Surname002", False),
        (None, "Player003 Surname003", True),
    ]  # fmt: skip
    boards = list(league.matches.get().boards.order_by("board"))
    assert [(b.home_label, b.away_player, b.away_name, b.result) for b in boards] == [
        ("Player001 Surname001", None, "Player001 Surname001", "1-0"),
        ("Player002 Surname002", None, "Player002 Surname002", "½-½"),
    ]
    assert table(league) == before  # the boards kept by name are played boards, not empty ones
    assert Member.objects.count() == 2  # no member made up for the other club
    page = Client().get(reverse("league", args=[restored.slug, league.slug]))
    assert page.status_code == 200 and "Player002 Surname002" in page.content.decode()
    trf = league_file(league)
    assert [t.club for t in trf.teams] == ["testclub", "sc-rivaal"]
    assert len(trf.players) == 5 and trf.matches[0].boards[0].away == trf.teams[1].regulars[0]
    read = parse_league(write_league(trf)).players[2]  # the file reads back: Rivaal's board 1, by name
    assert (read.name, read.club) == ("Player001 Surname001", "sc-rivaal")
    with pytest.raises(ValidationError, match=r"The club of Rivaal 1 \(SC Rivaal\) is not on this site"):
        ls.set_roster(away, None, [])


def test_a_found_club_matches_players_by_fide_id_then_by_name_and_keeps_the_others_by_name(played, club):
    data = backup.export_club(club)
    empty_database()
    rivaal = Club.objects.create(name="Schaakclub Rivaal", slug="rivaal")
    renamed = Member.objects.create(club=rivaal, first_name="Piet", last_name="Anders", fide_id="9000")
    same_name = Member.objects.create(club=rivaal, first_name="Player002", last_name="Surname002")
    restored, notes = restore(data)
    assert notes == ["player 'Player003 Surname003' is not on this site: kept by name (teams.teamplayer.name)"]
    away = restored.leagues.get().teams.get(name="Rivaal 1")
    assert (away.club, away.captain) == (rivaal, renamed)
    assert [(p.member, p.name) for p in away.players.all()] == [
        (renamed, ""), (same_name, ""), (None, "Player003 Surname003"),
    ]  # fmt: skip


def test_a_club_playing_in_another_clubs_league_leaves_it_to_that_clubs_backup(club, rivaal, td):
    league = ls.create_league(rivaal, None, name="Bond", slug="bond", settings={"boards": 1})
    ls.add_team(league, None, club=rivaal, name="Rivaal 1")
    ls.add_team(league, None, club=club, name="Testclub 1")
    data = backup.export_club(club)
    assert all(not s["rows"] for s in data["models"] if s["model"].startswith("teams."))
    with pytest.raises(ValidationError, match="SV Testclub plays in Bond, which another club organises"):
        remove_club(club, None)
    assert Team.objects.count() == 2 and Club.objects.count() == 2


def _section(data, label):
    return next(s["rows"] for s in data["models"] if s["model"] == label)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(outside=[]), "'outside' is not an object"),
        (lambda d: d["outside"]["clubs"][0].pop("slug"), r"outside.clubs\[0\]: needs an id, a short name"),
        (lambda d: d["outside"]["members"][0].update(club_id=4242), r"outside.members\[0\].club_id"),
        (
            lambda d: next(t for t in _section(d, "teams.team") if t["name"] == "Rivaal 1").update(club_id=99999),
            r"teams.team\[\d\].club_id: refers to clubs.club 99999, not in the file",
        ),
        (
            lambda d: _section(d, "teams.boardresult")[0].update(away_player_id=99999),
            r"teams.boardresult\[0\].away_player_id: refers to clubs.member 99999, not in the file",
        ),
    ],
)
def test_a_corrupt_league_in_a_backup_is_refused_by_name_and_nothing_saved(tmp_path, played, club, change, message):
    data = json.loads(backup.dumps(backup.export_club(club)))
    empty_database()
    change(data)
    file = tmp_path / "club.json"
    file.write_text(json.dumps(data), encoding="utf-8")
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match=message) as raised:
        call_command("import_club", str(file), stdout=io.StringIO())
    assert "nothing was imported" in str(raised.value)
    assert not Club.objects.exists() and not Team.objects.exists() and not TeamPlayer.objects.exists()
    assert not Match.objects.exists() and not BoardResult.objects.exists()


def test_the_restore_command_says_what_it_kept_by_name(tmp_path, played, club):
    file = tmp_path / "club.json"
    file.write_text(backup.dumps(backup.export_club(club)), encoding="utf-8")
    empty_database()
    out = io.StringIO()
    call_command("import_club", str(file), stdout=out)
    assert "club 'SC Rivaal' is not on this site" in out.getvalue() and "restored" in out.getvalue()
