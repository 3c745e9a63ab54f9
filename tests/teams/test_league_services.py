"""A team league through its writes (`pairing.services.leagues`) and its table (`teams.table`): two clubs,
four teams of four boards, line-ups checked against the rosters, results turned into the table; every
action one version bump and one audit entry."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.exceptions import ValidationError

from audit.models import AuditEntry
from clubs.models import Club
from pairing.engines.league import league_schedule
from pairing.services import leagues as ls
from teams.models import BoardResult, League, Match, Team
from teams.table import league_table, outcome
from tests.conftest import make_members

pytestmark = pytest.mark.django_db


@pytest.fixture
def other_club():
    return Club.objects.create(name="SC Rivaal", slug="rivaal", city="Leiden")


@pytest.fixture
def league(club, td):
    return ls.create_league(club, td, name="Regio 2026", slug="regio", settings={"boards": 4, "play_up": 1})


@pytest.fixture
def setup(league, club, other_club, td):
    """Testclub 1 and 2, Rivaal 1 and 2; rosters of four regulars each, Testclub 1 with one reserve."""
    ours, theirs = make_members(club, 9), make_members(other_club, 8, base=2000)
    teams = {
        "T1": ls.add_team(league, td, club=club, name="Testclub 1", rank=1, captain=ours[0]),
        "T2": ls.add_team(league, td, club=club, name="Testclub 2", rank=2),
        "R1": ls.add_team(league, td, club=other_club, name="Rivaal 1", rank=1),
        "R2": ls.add_team(league, td, club=other_club, name="Rivaal 2", rank=2),
    }
    ls.set_roster(teams["T1"], td, ours[0:4], reserves=[ours[8]])
    ls.set_roster(teams["T2"], td, ours[4:8])
    ls.set_roster(teams["R1"], td, theirs[0:4])
    ls.set_roster(teams["R2"], td, theirs[4:8])
    return teams, ours, theirs


def _entries(action):
    return AuditEntry.objects.filter(action=action).count()


def test_create_league_keeps_its_rules_and_refuses_bad_ones(league, club, td):
    assert league.rules.boards == 4 and league.rules.match_win == 2.0
    assert league.tiebreaks == ["EDE"]
    assert _entries("league-create") == 1
    with pytest.raises(ValidationError, match="already has a league"):
        ls.create_league(club, td, name="Again", slug="regio")
    with pytest.raises(ValidationError, match="boards"):
        ls.create_league(club, td, name="Bad", slug="bad", settings={"boards": 0})
    with pytest.raises(ValidationError, match="XYZ is no team tie-break"):
        ls.create_league(club, td, name="Bad", slug="bad", tiebreaks=["XYZ"])
    assert League.objects.count() == 1


def test_teams_and_rosters(setup, league, club, other_club, td):
    teams, ours, theirs = setup
    assert [(p.member, p.reserve) for p in teams["T1"].players.all()] == [
        *[(m, False) for m in ours[:4]],
        (ours[8], True),
    ]
    assert League.objects.get(pk=league.pk).version == 8  # 4 teams + 4 rosters: one bump each
    assert _entries("league-roster") == 4
    with pytest.raises(ValidationError, match="already has a team 1"):
        ls.add_team(league, td, club=club, name="Testclub X", rank=1)
    with pytest.raises(ValidationError, match="is no member"):
        ls.add_team(league, td, club=club, name="Testclub 3", rank=3, captain=theirs[0])
    with pytest.raises(ValidationError, match="Not members of SV Testclub"):
        ls.set_roster(teams["T2"], td, [theirs[0]])
    with pytest.raises(ValidationError, match="already a regular of Testclub 1"):
        ls.set_roster(teams["T2"], td, [ours[0]])
    with pytest.raises(ValidationError, match="twice"):
        ls.set_roster(teams["T2"], td, [ours[4], ours[4]])


def test_schedule_follows_the_berger_table_with_dates(setup, league, td):
    teams, _, _ = setup
    order = [teams["T1"], teams["R1"], teams["T2"], teams["R2"]]
    dates = [date(2026, 10, 3), date(2026, 11, 7), date(2026, 12, 5)]
    assert ls.make_schedule(league, td, order, dates) == 6
    expected = [
        (f.round, order[f.home - 1].name, order[f.away - 1].name) for r in league_schedule(4) for f in r.fixtures
    ]
    assert [(m.round, m.home.name, m.away.name) for m in league.matches.order_by("round", "pk")] == expected
    assert [m.date for m in league.matches.filter(round=2)] == [dates[1], dates[1]]
    assert [t.number for t in Team.objects.filter(pk__in=[t.pk for t in order]).order_by("number")] == [1, 2, 3, 4]
    assert Team.objects.get(pk=teams["T2"].pk).number == 3
    with pytest.raises(ValidationError, match="already made"):
        ls.make_schedule(league, td)
    with pytest.raises(ValidationError, match="teams are fixed"):
        ls.add_team(league, td, club=teams["T1"].club, name="Late", rank=3)
    match = league.matches.first()
    ls.set_match_date(match, td, date(2026, 10, 10))
    assert Match.objects.get(pk=match.pk).date == date(2026, 10, 10)
    assert _entries("league-schedule") == _entries("league-match-date") == 1


def test_schedule_needs_two_teams_and_a_full_order(league, club, td, setup):
    teams, _, _ = setup
    with pytest.raises(ValidationError, match="every team"):
        ls.make_schedule(league, td, [teams["T1"], teams["T2"]])
    assert not league.matches.exists()
    lonely = ls.create_league(club, td, name="Alone", slug="alone")
    ls.add_team(lonely, td, club=club, name="Only", rank=1)
    with pytest.raises(ValidationError, match="at least two teams"):
        ls.make_schedule(lonely, td)


def _scheduled(setup, league, td):
    teams, ours, theirs = setup
    ls.make_schedule(league, td, [teams["T1"], teams["R1"], teams["T2"], teams["R2"]])
    return league.matches.get(home=teams["T1"], away=teams["R2"])  # round 1: 1 - 4


def test_lineups_are_checked_against_the_rosters(setup, league, td):
    teams, ours, theirs = setup
    match = _scheduled(setup, league, td)
    with pytest.raises(ValidationError) as refused:
        ls.set_lineup(match, teams["T1"], td, [ours[1], ours[0], ours[2], ours[3]])
    assert refused.value.messages == [f"{ours[0]} (board 2) comes before {ours[1]} (board 1) in the roster order."]
    newcomer = make_members(teams["T1"].club, 1, base=1500)[0]
    with pytest.raises(ValidationError, match="is on none of the club's rosters"):
        ls.set_lineup(match, teams["T1"], td, [ours[0], ours[1], ours[2], newcomer])
    assert not match.boards.exists()
    ls.set_lineup(match, teams["T1"], td, [ours[0], ours[1], ours[2], ours[8]])  # the reserve on board 4
    assert [b.home_player for b in match.boards.order_by("board")] == [ours[0], ours[1], ours[2], ours[8]]


def test_lineups_play_up_and_play_down(setup, league, td):
    teams, ours, theirs = setup
    match = _scheduled(setup, league, td)
    ls.set_lineup(match, teams["R2"], td, theirs[4:8])
    ls.set_lineup(match, teams["T1"], td, [ours[0], ours[1], ours[2], ours[4]])  # Testclub 2's first plays up
    boards = list(match.boards.order_by("board"))
    assert [(b.home_player, b.away_player) for b in boards] == list(
        zip([ours[0], ours[1], ours[2], ours[4]], theirs[4:8], strict=True)
    )
    second = league.matches.get(home=teams["R1"], away=teams["T2"])  # round 1: 2 - 3
    with pytest.raises(ValidationError, match="cannot play down"):
        ls.set_lineup(second, teams["T2"], td, [ours[3], ours[5], ours[6], ours[7]])
    with pytest.raises(ValidationError, match="does not play the match"):
        ls.set_lineup(second, teams["T1"], td, ours[0:4])
    assert _entries("league-lineup") == 2


def test_results_make_the_match_and_the_table(setup, league, td):
    """Round 1, home White on boards 1 and 3. Testclub 1 - Rivaal 2: 1-0, 1-0, ½-½, board 4 left empty
    by Rivaal 2: home 1 + 0 + ½ + 1 = 2½ - 1½. Rivaal 1 - Testclub 2: four draws, 2-2.
    Table: Testclub 1 2 MP 2½; Rivaal 1 and Testclub 2 1 MP 2, equal (they drew: the direct encounter
    leaves them so); Rivaal 2 0 MP 1½."""
    teams, ours, theirs = setup
    first = _scheduled(setup, league, td)
    second = league.matches.get(home=teams["R1"], away=teams["T2"])
    with pytest.raises(ValidationError, match="line-ups are needed"):
        ls.set_board_result(first, td, 1, "1-0")
    ls.set_lineup(first, teams["T1"], td, ours[0:4])
    ls.set_lineup(first, teams["R2"], td, [*theirs[4:7], None])
    for board, result in ((1, "1-0"), (2, "1-0"), (3, "½-½")):
        ls.set_board_result(first, td, board, result)
    with pytest.raises(ValidationError, match="player missing"):
        ls.set_board_result(first, td, 4, "1-0")
    with pytest.raises(ValidationError, match="no result"):
        ls.set_board_result(first, td, 3, "2-0")
    with pytest.raises(ValidationError, match="are fixed"):
        ls.set_lineup(first, teams["T1"], td, ours[0:4])
    result = outcome(Match.objects.get(pk=first.pk))
    assert (result.home_points, result.away_points, result.home_match_points) == (2.5, 1.5, 2.0)
    ls.set_lineup(second, teams["R1"], td, theirs[0:4])
    ls.set_lineup(second, teams["T2"], td, ours[4:8])
    for board in range(1, 5):
        ls.set_board_result(second, td, board, "½-½")
    table = league_table(League.objects.get(pk=league.pk))
    assert [(x.team.name, x.line.rank, x.line.match_points, x.line.board_points) for x in table] == [
        ("Testclub 1", 1, 2.0, 2.5),
        ("Rivaal 1", 2, 1.0, 2.0),
        ("Testclub 2", 2, 1.0, 2.0),
        ("Rivaal 2", 4, 0.0, 1.5),
    ]
    assert BoardResult.objects.filter(match=first, result="").count() == 1
    entry = AuditEntry.objects.filter(action="league-result").order_by("pk").first()
    assert (entry.before, entry.after, entry.params["board"]) == ({"result": ""}, {"result": "1-0"}, 1)
    assert entry.club_id == league.club_id


def test_one_action_one_version_bump(setup, league, td):
    teams, ours, _ = setup
    match = _scheduled(setup, league, td)
    version = League.objects.get(pk=league.pk).version
    ls.set_lineup(match, teams["T1"], td, ours[0:4])
    assert League.objects.get(pk=league.pk).version == version + 1
    with pytest.raises(ValidationError):
        ls.set_lineup(match, teams["T1"], td, [ours[0], ours[0]])
    assert League.objects.get(pk=league.pk).version == version + 1  # refused: rolled back, no bump
    assert _entries("league-lineup") == 1
